import { canonicalJsonString } from '../canonical-json/canonical-json.js';
import { parseStrictJsonBytes } from '../canonical-json/strict-json.js';
import { asHearthNetError, errorFromBody, toErrorBody } from '../capabilities/error-body.js';
import {
  BadRequestError,
  InvalidSignatureError,
  NotFoundError,
  PartitionError,
} from '../capabilities/hearthnet-errors.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { HearthNetLocalError } from '../errors.js';
import {
  buildNodeManifest,
  MANIFEST_REPUBLISH_INTERVAL_MS,
  NODE_MANIFEST_LIFETIME_MS,
  type NodeManifestInput,
  type NodeManifestVerifier,
  nodeManifestError,
  parseTimestamp,
  rejectManifest,
  type SignedNodeManifest,
  verifyNodeManifest,
} from './node-manifest.js';

/** The path a node serves its signed manifest at (`GET /manifest`, as the reference node). */
export const NODE_MANIFEST_PATH = '/manifest';

/**
 * How much lifetime a served manifest has left at least: one with less is re-signed first. 10 s, the
 * reference's `MANIFEST_REFRESH_BEFORE_EXPIRY_SECONDS` (with the 30 s lifetime: re-signed every 20 s).
 */
export const MANIFEST_REFRESH_BEFORE_EXPIRY_MS = 10_000;

/** The node's own fields of its manifest, at the time `now` (milliseconds since the epoch). */
export type NodeManifestSource = (now: number) => NodeManifestInput | Promise<NodeManifestInput>;

/** Options of {@link createManifestHandler}. */
export interface ManifestHandlerOptions {
  /** The node's device key: it signs every manifest, and its node id is the manifest's `node_id`. */
  readonly key: KeyPair;
  /**
   * The node's fields (`display_name`, `community_id`, `profile`, `endpoints`, `capabilities`, …), or a
   * function that gives them at signing time — for a live `load`, `uptime_seconds` or capability list.
   */
  readonly input: NodeManifestInput | NodeManifestSource;
  /**
   * A served manifest has at least this many milliseconds of its 30 s lifetime left; one with less is
   * re-signed before it is served. 0 to 29 000; default `MANIFEST_REFRESH_BEFORE_EXPIRY_MS`.
   */
  readonly refreshBeforeExpiryMs?: number;
  /** The current time in milliseconds since the epoch (default `Date.now`). */
  readonly clock?: () => number;
}

/**
 * Serves this node's signed manifest (contract §6.1) at `GET /manifest` as a web-standard
 * `Request → Response` handler: `200`, `application/json`, the manifest as canonical JSON (the bytes
 * its signature covers, plus `signature`), `Cache-Control: no-store`. A manifest is signed once and
 * served until less than `refreshBeforeExpiryMs` of its lifetime is left; concurrent requests at that
 * moment share one signing. Unlike the reference node, whose `/manifest` is unsigned and has no
 * timestamps or endpoints, what this serves passes `verifyNodeManifest`.
 *
 * Another method answers 400 `bad_request`, another path 404 `not_found`, a failing `input` function
 * 500 `internal_error` (its message is not leaked) — all with the §5.4 body. Mount it with
 * `routeByPath({ [NODE_MANIFEST_PATH]: handler, … })` beside the bus.
 *
 * @throws {HearthNetLocalError} `invalid_manifest_handler_options` for a missing key or input, or a bad
 *   `refreshBeforeExpiryMs`.
 * @throws {HearthNetLocalError} `invalid_node_manifest` when a fixed `input` does not make a valid manifest
 *   (checked at once).
 * @example
 * const node = routeByPath({
 *   '/bus/v1/call': createBusHandler(busOptions),
 *   [NODE_MANIFEST_PATH]: createManifestHandler({
 *     key: deviceKey,
 *     input: () => ({ display_name: 'garage-pc', community_id, profile: 'hearth', endpoints, capabilities: registry.manifestEntries() }),
 *   }),
 * });
 */
export function createManifestHandler(
  options: ManifestHandlerOptions,
): (request: Request) => Promise<Response> {
  const {
    key,
    input,
    refreshBeforeExpiryMs = MANIFEST_REFRESH_BEFORE_EXPIRY_MS,
    clock = Date.now,
  } = options ?? ({} as Partial<ManifestHandlerOptions>);
  if (
    key === null ||
    typeof key !== 'object' ||
    typeof key.nodeId !== 'string' ||
    !(key.secretKey instanceof Uint8Array)
  ) {
    throw new HearthNetLocalError('invalid_manifest_handler_options', 'key must be the node’s KeyPair');
  }
  if (input === null || (typeof input !== 'object' && typeof input !== 'function')) {
    throw new HearthNetLocalError(
      'invalid_manifest_handler_options',
      'input must be the manifest fields or a function giving them',
    );
  }
  if (
    typeof refreshBeforeExpiryMs !== 'number' ||
    !Number.isFinite(refreshBeforeExpiryMs) ||
    refreshBeforeExpiryMs < 0 ||
    refreshBeforeExpiryMs >= NODE_MANIFEST_LIFETIME_MS
  ) {
    throw new HearthNetLocalError(
      'invalid_manifest_handler_options',
      `refreshBeforeExpiryMs must be at least 0 and less than ${NODE_MANIFEST_LIFETIME_MS}, got ${String(refreshBeforeExpiryMs)}`,
    );
  }
  if (typeof clock !== 'function')
    throw new HearthNetLocalError('invalid_manifest_handler_options', 'clock must be a function');
  // A fixed input is checked now, so a broken manifest fails at start-up rather than on the first request.
  if (typeof input !== 'function') buildNodeManifest(input, key, { now: clock() });

  let served:
    | { readonly manifest: SignedNodeManifest; readonly body: string; readonly expiresAt: number }
    | undefined;
  let signing: Promise<NonNullable<typeof served>> | undefined;

  const sign = async (now: number): Promise<NonNullable<typeof served>> => {
    const fields = typeof input === 'function' ? await input(now) : input;
    const manifest = buildNodeManifest(fields, key, { now });
    return { manifest, body: canonicalJsonString(manifest), expiresAt: parseTimestamp(manifest.expires_at) };
  };

  const current = async (): Promise<NonNullable<typeof served>> => {
    const now = clock();
    if (served !== undefined && served.expiresAt - now >= refreshBeforeExpiryMs) return served;
    signing ??= sign(now).then(
      (fresh) => {
        served = fresh;
        signing = undefined;
        return fresh;
      },
      (error: unknown) => {
        signing = undefined;
        throw error;
      },
    );
    return signing;
  };

  return async (request) => {
    try {
      const path = new URL(request.url).pathname;
      if (path !== NODE_MANIFEST_PATH) throw new NotFoundError(`no manifest is served at ${path}`);
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        throw new BadRequestError(`use GET here, not ${request.method}`);
      }
      const { body } = await current();
      return new Response(request.method === 'HEAD' ? null : body, {
        status: 200,
        headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
      });
    } catch (error) {
      const converted = asHearthNetError(error);
      return new Response(JSON.stringify(toErrorBody(converted)), {
        status: converted.status,
        headers: { 'Content-Type': 'application/json' },
      });
    }
  };
}

/** Options of {@link fetchNodeManifest}. */
export interface FetchNodeManifestOptions {
  /**
   * Judges the manifest and pins its key (a {@link NodeManifestVerifier} shared by everything that
   * talks to peers). Default: {@link verifyNodeManifest} at the current time, pinning nothing.
   */
  readonly verifier?: NodeManifestVerifier;
  /** The node id the peer must be; another one is refused with `invalid_signature`. */
  readonly expectNodeId?: string;
  /** The `fetch` to use. Default: the global one. */
  readonly fetch?: typeof fetch;
  readonly signal?: AbortSignal;
}

/**
 * Fetches a peer's manifest from `GET <baseUrl>/manifest` and returns it verified by every rule of
 * contract §6.1 (shape, versions, 30 s lifetime, signature, expiry — and the pinned key when a
 * `verifier` is given).
 *
 * @throws {PartitionError} when the peer cannot be reached.
 * @throws the contract error of an error answer (`errorFromBody`: e.g. `NotFoundError` for a node that
 *   serves no manifest), or of a refused manifest (`nodeManifestError`: `BadRequestError`,
 *   `SchemaMismatchError`, `InvalidSignatureError`, `ExpiredError`); `InvalidSignatureError` when the
 *   manifest is another node's than `expectNodeId`.
 * @throws {HearthNetLocalError} `invalid_manifest_handler_options` when `baseUrl` is not an absolute URL.
 * @example
 * const manifest = await fetchNodeManifest('http://192.168.188.25:7080', { verifier });
 * manifest.capabilities.map((capability) => capability.name);
 */
export async function fetchNodeManifest(
  baseUrl: string | URL,
  options: FetchNodeManifestOptions = {},
): Promise<SignedNodeManifest> {
  let url: URL;
  try {
    url = new URL(NODE_MANIFEST_PATH, baseUrl);
  } catch (error) {
    throw new HearthNetLocalError(
      'invalid_manifest_handler_options',
      `baseUrl must be an absolute URL, got ${String(baseUrl)}`,
      {
        cause: error,
      },
    );
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  let response: Response;
  let bytes: Uint8Array;
  try {
    response = await fetchImpl(url, {
      headers: { Accept: 'application/json' },
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (options.signal?.aborted === true) throw error;
    throw new PartitionError(`${url.origin} is unreachable`, { cause: error });
  }
  // The manifest is signed: read it as strictly as a signed call body (see parseStrictJson).
  const read = parseStrictJsonBytes(bytes);
  if (!response.ok)
    throw errorFromBody(read.ok || read.problem !== 'syntax' ? read.value : {}, response.status);
  if (!read.ok) {
    throw nodeManifestError(
      read.problem === 'syntax'
        ? rejectManifest('malformed', `${url.href} answered a body that is not UTF-8 JSON`)
        : rejectManifest(
            'malformed',
            `${url.href} answered a manifest that holds a ${read.message}`,
            read.path,
          ),
    );
  }
  const value = read.value;
  const manifest = options.verifier === undefined ? verified(value) : await options.verifier.accept(value);
  if (options.expectNodeId !== undefined && manifest.node_id !== options.expectNodeId) {
    throw new InvalidSignatureError(
      `${url.origin} serves the manifest of ${manifest.node_id}, not of ${options.expectNodeId}`,
    );
  }
  return manifest;
}

function verified(value: unknown): SignedNodeManifest {
  const verdict = verifyNodeManifest(value, { now: Date.now() });
  if (!verdict.valid) throw nodeManifestError(verdict);
  return verdict.manifest;
}

/** The interval timer functions a republisher uses (default: the global ones). */
export interface IntervalTimers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** Options of {@link startManifestRepublisher}. */
export interface ManifestRepublisherOptions<Manifest> {
  /** Milliseconds between two manifests: more than 0, less than the 30 s lifetime. Default 20 000 (contract §6.1). */
  readonly every?: number;
  /** Builds a fresh signed manifest for the time `now` (e.g. with `buildNodeManifest(…, { now })`). */
  readonly build: (now: number) => Manifest | Promise<Manifest>;
  /** Hands a manifest to peers. */
  readonly publish: (manifest: Manifest) => void | Promise<void>;
  /** Receives what `build` or `publish` threw; the next tick tries again. */
  readonly onError: (error: unknown) => void;
  /** The current time in milliseconds since the epoch (default `Date.now`). */
  readonly clock?: () => number;
  /** Timer functions (default `globalThis.setInterval` / `clearInterval`); tests pass fakes. */
  readonly timers?: IntervalTimers;
}

/**
 * Re-issues and publishes this node's manifest now and then every `every` ms (20 s by default, so a
 * fresh manifest is out before the previous one's 30 s run out). A tick that comes while the previous
 * build or publish is still running is skipped rather than queued. Returns `stop`, which cancels the
 * timer and resolves once a run in progress has finished; nothing is published after it resolves.
 *
 * @throws {HearthNetLocalError} `invalid_republisher_options` for an `every` outside (0, 30 000) or missing
 *   callbacks.
 * @example
 * const stop = startManifestRepublisher({
 *   build: (now) => buildNodeManifest(input, deviceKey, { now }),
 *   publish: (manifest) => bus.publish('node.manifest.updated', manifest),
 *   onError: (error) => log.warn('manifest republish failed', error),
 * });
 * // on shutdown
 * await stop();
 */
export function startManifestRepublisher<Manifest>(
  options: ManifestRepublisherOptions<Manifest>,
): () => Promise<void> {
  const every = options.every ?? MANIFEST_REPUBLISH_INTERVAL_MS;
  if (
    typeof every !== 'number' ||
    !Number.isFinite(every) ||
    every <= 0 ||
    every >= NODE_MANIFEST_LIFETIME_MS
  ) {
    throw new HearthNetLocalError(
      'invalid_republisher_options',
      `every must be more than 0 and less than ${NODE_MANIFEST_LIFETIME_MS} ms, got ${String(every)}`,
    );
  }
  for (const name of ['build', 'publish', 'onError'] as const) {
    if (typeof options[name] !== 'function') {
      throw new HearthNetLocalError('invalid_republisher_options', `${name} must be a function`);
    }
  }
  const { build, publish, onError } = options;
  const clock = options.clock ?? Date.now;
  const timers: IntervalTimers = options.timers ?? {
    setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
    clearInterval: (handle) =>
      globalThis.clearInterval(handle as Parameters<typeof globalThis.clearInterval>[0]),
  };

  let stopped = false;
  let running: Promise<void> | undefined;
  const run = async (): Promise<void> => {
    try {
      const manifest = await build(clock());
      if (!stopped) await publish(manifest);
    } catch (error) {
      onError(error);
    }
  };
  const tick = (): void => {
    if (stopped || running !== undefined) return;
    running = run().finally(() => {
      running = undefined;
    });
  };

  const handle = timers.setInterval(tick, every);
  tick();
  return async () => {
    if (!stopped) {
      stopped = true;
      timers.clearInterval(handle);
    }
    await running;
  };
}
