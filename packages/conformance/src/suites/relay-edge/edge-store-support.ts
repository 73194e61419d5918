import type { ExpectedRefusal } from '../../assert.js';
import type { ConformanceCase, SuiteSetup } from '../../suite.js';
import { withInstances } from '../relay-runtime/runtime-support.js';

/** Options every edge store suite takes. */
export interface EdgeStoreSuiteOptions<Store> {
  /** Creates a fresh store. Cases call it once or more and release every store they create. */
  readonly create: () => Store | Promise<Store>;
  /**
   * Releases a store `create` made (closes its connection, say); called at the end of each case that
   * created it. The store interfaces have no `close`, so without this nothing is released.
   */
  readonly release?: (store: Store) => void | Promise<void>;
  /**
   * `true` when stores from `create` share one backend (e.g. Redis), as the instances of one
   * connector do: what one writes, another reads. Capability `shared-backend`.
   */
  readonly sharedBackend?: boolean;
  /** Releases what the caller set up for the run; called after the last case. */
  readonly dispose?: () => void | Promise<void>;
}

/** A store a case opened, and how to release it. */
export interface OpenedEdgeStore<Store> {
  readonly store: Store;
  close(): Promise<void>;
}

/** What every edge store case receives. */
export interface EdgeStoreContext<Store> {
  /** Creates a store through the suite's `create`; its `close` calls the suite's `release`. */
  readonly open: () => Promise<OpenedEdgeStore<Store>>;
}

/** The setup of an edge store suite: `extra` joins the context; `shared-backend` when declared. */
export function edgeStoreSetup<Store, Extra extends object>(
  options: EdgeStoreSuiteOptions<Store>,
  extra: Extra,
): SuiteSetup<EdgeStoreContext<Store> & Extra> {
  const { create, release } = options;
  const capabilities = new Set<string>();
  if (options.sharedBackend === true) capabilities.add('shared-backend');
  const open = async (): Promise<OpenedEdgeStore<Store>> => {
    const store = await create();
    return {
      store,
      close: async () => {
        await release?.(store);
      },
    };
  };
  return {
    ctx: { ...extra, open },
    capabilities,
    ...(options.dispose === undefined ? {} : { dispose: options.dispose }),
  };
}

/**
 * Creates `count` stores, runs `body` with them and releases every one, also when `body` throws; a
 * release that rejects fails the case (unless `body` already failed it).
 */
export function withStores<Store, R>(
  ctx: EdgeStoreContext<Store>,
  count: number,
  body: (stores: readonly Store[]) => Promise<R>,
): Promise<R> {
  return withInstances(ctx.open, count, (opened) => body(opened.map(({ store }) => store)));
}

/** What the single-store cases of one suite share: the id prefix, section and version. */
export interface SingleStoreCases {
  readonly suiteName: string;
  readonly section: string;
  readonly since: string;
}

/** A required case that runs `body` on one fresh store, released afterwards. */
export function singleStoreCase<Store, Ctx extends EdgeStoreContext<Store>>(
  common: SingleStoreCases,
  id: string,
  title: string,
  body: (store: Store, ctx: Ctx) => Promise<void>,
): ConformanceCase<Ctx> {
  return {
    id: `${common.suiteName}.${id}`,
    title,
    section: common.section,
    level: 'required',
    since: common.since,
    run: (ctx) => withStores(ctx, 1, ([store]) => body(store!, ctx)),
  };
}

/**
 * Version of the edge store suites (enrollment tokens, provision registry, policies): 1.2.0 requires
 * the refusals of `arguments.refused` to be `invalid_enrollment_argument` naming the argument.
 */
export const RELAY_EDGE_STORES_SUITE_VERSION = '1.2.0';

/** The version that introduced the suites' first cases. */
export const EDGE_STORES_FIRST_VERSION = '1.0.0';

/** The version that added the `arguments.refused` cases of the registry and policy suites. */
export const EDGE_STORES_ARGUMENTS_SINCE = '1.1.0';

/** The refusal of a malformed argument to an edge store: `invalid_enrollment_argument` naming it. */
export function argument(path: string): ExpectedRefusal {
  return { code: 'invalid_enrollment_argument', path };
}
