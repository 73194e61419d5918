import type { DataStore, DataWrite, QueryFilters } from '@agentwire/agent-connector';
import { assertEqual, formatValue } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import { readBoolean, readObject, readString, readStringArray } from '../../fixtures/fixture-file.js';
import type { ConformanceCase } from '../../suite.js';
import {
  assertStorageError,
  DATA_STORE_OPERATIONS,
  STORAGE_CONVENTIONS_SECTION,
  type StorageConventionCase,
  storageConventionCases,
} from '../skill-store/storage-conventions-fixture.js';

/** A bridge's tool-call arguments, as a skill passes them. */
export type BridgeArgs = Readonly<Record<string, unknown>>;

/** The two tools a DataStore bridge exposes to skills. */
export interface DataStoreBridge {
  /** The read tool: builds the filters, enforces the declared ones, and queries the store. */
  query(args: BridgeArgs): Promise<unknown>;
  /** The `data_write` tool: builds the entry and writes it. */
  write(args: BridgeArgs): Promise<unknown>;
}

/**
 * The data-store convention helpers of an implementation, checked against
 * `fixtures/agent-connector/storage-conventions.json`. Every member is optional: each one present enables
 * its cases (capability `convention:<member>`); `@agentwire/agent-connector`'s `storageConventions` kit
 * fits the first two, and `(store) => new DataStoreQueryBridge(store)` the third. Refusals are matched
 * by `code` (`storage_validation`, `unsupported_filter`).
 */
export interface DataStoreConventions {
  /** The `summary` of written content: its first line, cut to 200 UTF-16 units. */
  summarizeContent?(content: string): string;
  /**
   * Refuses filter keys `supported` (the manifest's `supported_filters`; `undefined` when it declares
   * none) lacks with an `UnsupportedFilterError` (`unsupported_keys` in key order).
   */
  enforceSupportedFilters?(
    filters: Readonly<Record<string, unknown>>,
    supported: readonly string[] | undefined,
  ): void;
  /** The bridge over `store` that skills call. */
  createQueryBridge?(store: DataStore): DataStoreBridge;
}

/** The capability a convention member enables. */
function conventionCapability(member: keyof DataStoreConventions): string {
  return `convention:${member}`;
}

/** The capabilities the members present in `conventions` enable. */
export function dataStoreConventionCapabilities(conventions: DataStoreConventions | undefined): string[] {
  if (conventions === undefined) return [];
  return (Object.keys(conventions) as (keyof DataStoreConventions)[])
    .filter((member) => typeof conventions[member] === 'function')
    .map(conventionCapability);
}

/** What a store-level convention case needs of the suite's context. */
export interface DataStoreProvider {
  readonly store: DataStore;
}

/**
 * The data-store cases of `storage-conventions.json`: each helper in `conventions` against the fixture
 * (level `required`), and the store itself held to the summary rule (level `recommended`, capability
 * `writes`): `get()` of written content carries the fixture's `summary`, and content that is not a
 * string is refused with `storage_validation`.
 */
export function dataStoreConventionCases<Ctx extends DataStoreProvider>(
  suiteName: string,
  conventions: DataStoreConventions | undefined,
  since: string,
): ConformanceCase<Ctx>[] {
  return storageConventionCases(DATA_STORE_OPERATIONS).flatMap((testCase) =>
    casesFor<Ctx>(`${suiteName}.conventions.${testCase.entry.id}`, testCase, conventions ?? {}, since),
  );
}

/** The one item the recording store answers every query with. */
const HIT = { id: '1', summary: 'hit' };

/** A store that records the filters and entries it receives, declaring `supported` as its filters. */
function recordingStore(supported: readonly string[] | null) {
  const queried: QueryFilters[] = [];
  const written: DataWrite[] = [];
  const store: DataStore = {
    query: async (filters) => {
      queried.push(filters);
      return [{ ...HIT }];
    },
    write: async (entry) => {
      written.push(entry);
      return { id: '1', created_at: 0 };
    },
    get: async () => null,
    manifest: async () => ({
      capabilities_version: '1',
      manifest:
        supported === null ? { kind: 'recording' } : { kind: 'recording', supported_filters: [...supported] },
    }),
  };
  return { store, queried, written };
}

function casesFor<Ctx extends DataStoreProvider>(
  id: string,
  testCase: StorageConventionCase,
  conventions: DataStoreConventions,
  since: string,
): ConformanceCase<Ctx>[] {
  const { entry, location, error } = testCase;
  const helper = (
    member: keyof DataStoreConventions,
    title: string,
    run: () => unknown,
  ): ConformanceCase<Ctx> => ({
    id,
    title,
    section: STORAGE_CONVENTIONS_SECTION,
    level: 'required',
    requires: conventionCapability(member),
    since,
    run: async () => void (await run()),
  });
  const unsupportedKeys =
    entry['unsupported_keys'] === undefined
      ? undefined
      : readStringArray(entry['unsupported_keys'], `${location}.unsupported_keys`);
  /** Checks a refusal: its code, and for `unsupported_filter` the class name and the offending keys. */
  const refused = async (call: () => unknown, what: string, code: string) => {
    const thrown = (await assertStorageError(call, what, code)) as {
      readonly name?: unknown;
      readonly unsupported_keys?: unknown;
    };
    if (code === 'unsupported_filter')
      assertEqual(thrown.name, 'UnsupportedFilterError', `name of the error ${what} threw`);
    if (unsupportedKeys !== undefined) {
      assertEqual(thrown.unsupported_keys, unsupportedKeys, `unsupported_keys of the error ${what} threw`);
    }
  };
  switch (testCase.operation) {
    case 'enforce-filters': {
      const filters = readObject(entry['filters'], `${location}.filters`);
      const supported =
        entry['supported'] === null
          ? undefined
          : readStringArray(entry['supported'], `${location}.supported`);
      const what = `enforceSupportedFilters(${formatValue(filters)}, ${formatValue(supported)})`;
      const call = () => conventions.enforceSupportedFilters?.(filters, supported);
      if (error !== undefined) {
        return [
          helper('enforceSupportedFilters', `${what} refuses with ${error}`, () =>
            refused(call, what, error),
          ),
        ];
      }
      if (!readBoolean(entry['ok'], `${location}.ok`))
        throw invalidFixtureError(`${location}.ok`, 'expected true');
      return [
        helper('enforceSupportedFilters', `${what} passes`, () => assertEqual(call(), undefined, what)),
      ];
    }
    case 'bridge-query': {
      const args = readObject(entry['args'], `${location}.args`);
      const supported =
        entry['supported_filters'] === null
          ? null
          : readStringArray(entry['supported_filters'], `${location}.supported_filters`);
      const what = `bridge.query(${formatValue(args)})`;
      const expected = error === undefined ? readObject(entry['filters'], `${location}.filters`) : undefined;
      return [
        helper(
          'createQueryBridge',
          `${what} ${expected === undefined ? `refuses with ${error}` : 'hands the store the fixture filters'}`,
          async () => {
            const { store, queried } = recordingStore(supported);
            const bridge = conventions.createQueryBridge?.(store);
            if (expected === undefined) {
              await refused(() => bridge?.query(args), what, error ?? '');
              assertEqual(queried, [], 'filters the store received from a refused query');
              return;
            }
            assertEqual(await bridge?.query(args), { items: [HIT] }, `${what} result`);
            assertEqual(queried.length, 1, 'queries the store received');
            assertEqual(queried[0], expected, 'filters the store received');
            assertEqual(Object.keys(queried[0] ?? {}), Object.keys(expected), 'key order of the filters');
          },
        ),
      ];
    }
    case 'bridge-write': {
      const args = readObject(entry['args'], `${location}.args`);
      const what = `bridge.write(${formatValue(args)})`;
      const expected = error === undefined ? readObject(entry['entry'], `${location}.entry`) : undefined;
      return [
        helper(
          'createQueryBridge',
          `${what} ${expected === undefined ? `refuses with ${error}` : 'hands the store the fixture entry'}`,
          async () => {
            const { store, written } = recordingStore(null);
            const bridge = conventions.createQueryBridge?.(store);
            if (expected === undefined) {
              await refused(() => bridge?.write(args), what, error ?? '');
              assertEqual(written, [], 'entries the store received from a refused write');
              return;
            }
            await bridge?.write(args);
            assertEqual(written, [expected], 'entries the store received');
          },
        ),
      ];
    }
    case 'summary': {
      // Deliberately unchecked: the refused case holds null.
      const content = entry['content'] as string;
      const what = `summarizeContent(${formatValue(content)})`;
      const call = () => conventions.summarizeContent?.(content);
      const stored = {
        id: `${id}.store`,
        section: STORAGE_CONVENTIONS_SECTION,
        level: 'recommended',
        requires: 'writes',
        since,
      } as const;
      if (error !== undefined) {
        return [
          helper('summarizeContent', `${what} refuses with ${error}`, () => refused(call, what, error)),
          {
            ...stored,
            title: `write() of content ${formatValue(content)} refuses with ${error}`,
            run: (ctx) =>
              refused(
                () => ctx.store.write({ content }),
                `write({ content: ${formatValue(content)} })`,
                error,
              ),
          },
        ];
      }
      const summary = readString(entry['summary'], `${location}.summary`);
      return [
        helper('summarizeContent', `${what} is the fixture summary`, () =>
          assertEqual(call(), summary, what),
        ),
        {
          ...stored,
          title: `get() of content written as ${entry.id} carries the fixture summary`,
          run: async (ctx) => {
            const record = await ctx.store.write({ content });
            const item = await ctx.store.get(record.id);
            assertEqual(item?.summary, summary, `get().summary of ${formatValue(content)}`);
          },
        },
      ];
    }
    default:
      return [];
  }
}
