import { canonicalJsonString } from '../canonical-json/canonical-json.js';
import { asHearthNetError, toErrorBody } from '../capabilities/error-body.js';
import { BadRequestError, NotFoundError } from '../capabilities/hearthnet-errors.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { HearthNetLocalError } from '../errors.js';
import { buildNodeManifest } from './build-node-manifest.js';
import {
  NODE_MANIFEST_LIFETIME_MS,
  type NodeManifestInput,
  type SignedNodeManifest,
} from './node-manifest-schema.js';
import { parseTimestamp } from './timestamps.js';

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
   * re-signed before it is served. 0 to 29 000; default {@link MANIFEST_REFRESH_BEFORE_EXPIRY_MS}.
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
