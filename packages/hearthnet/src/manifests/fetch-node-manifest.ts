import { parseStrictJsonBytes } from '../canonical-json/strict-json.js';
import { errorFromBody } from '../capabilities/error-body.js';
import { InvalidSignatureError, PartitionError } from '../capabilities/hearthnet-errors.js';
import { HearthNetLocalError } from '../errors.js';
import { NODE_MANIFEST_PATH } from './manifest-handler.js';
import type { SignedNodeManifest } from './node-manifest-schema.js';
import type { NodeManifestVerifier } from './node-manifest-verifier.js';
import { nodeManifestError, rejectManifest, verifyNodeManifest } from './verify-node-manifest.js';

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
