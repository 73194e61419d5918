import { HearthNetLocalError } from '../../errors.js';
import { contentId, type ParsedContentId, parseContentId } from '../../hashing/content-id.js';
import { blake3Hasher, type Hasher, sha256Hasher } from '../../hashing/hasher.js';

/** A prefixed content id taken apart: what a blob store files things under. */
export type StoreContentId = ParsedContentId & { readonly form: 'prefixed' };

/**
 * Takes apart a CID handed to a blob store: `blake3:<64 hex>` or `sha256:<64 hex>` only (the bare
 * ids of the reference file service name no algorithm and are refused).
 *
 * @throws {HearthNetLocalError} `invalid_blob_store_input` for anything else, naming `argument`.
 */
export function parseStoreContentId(value: unknown, argument: string): StoreContentId {
  let parsed: ParsedContentId;
  try {
    parsed = parseContentId(value as string);
  } catch (error) {
    throw new HearthNetLocalError(
      'invalid_blob_store_input',
      `invalid ${argument}: ${(error as Error).message}`,
      { cause: error, path: argument },
    );
  }
  if (parsed.form !== 'prefixed') {
    throw new HearthNetLocalError(
      'invalid_blob_store_input',
      `invalid ${argument}: a blob store takes prefixed ids (blake3:<hex> or sha256:<hex>)`,
      { path: argument },
    );
  }
  return parsed as StoreContentId;
}

/**
 * The hasher that checks ids of `algorithm`: `preferred` when it implements that algorithm (an
 * injected BLAKE3, say), else the built-in BLAKE3 or SHA-256.
 */
export function hasherForAlgorithm(algorithm: ParsedContentId['algorithm'], preferred?: Hasher): Hasher {
  if (preferred?.algorithm === algorithm) return preferred;
  return algorithm === 'sha256' ? sha256Hasher : blake3Hasher;
}

/**
 * Checks that chunk bytes hash to their CID, with the algorithm the CID names (what a `file.read`
 * client does with every chunk it receives before storing it).
 *
 * @param hasher - used when it implements the CID's algorithm; the built-in one of that algorithm otherwise.
 * @throws {HearthNetLocalError} `invalid_blob_store_input` when `cid` is not a prefixed content id or `bytes`
 *   is not a `Uint8Array`.
 * @throws {HearthNetLocalError} `chunk_mismatch` when the bytes hash to another CID.
 * @example
 * ```ts
 * verifyChunkBytes(contentId('hi'), new TextEncoder().encode('hi')); // passes
 * ```
 */
export function verifyChunkBytes(cid: string, bytes: Uint8Array, hasher?: Hasher): void {
  const { algorithm } = parseStoreContentId(cid, 'cid');
  if (!(bytes instanceof Uint8Array))
    throw new HearthNetLocalError('invalid_blob_store_input', `invalid bytes: must be a Uint8Array`, {
      path: 'bytes',
    });
  const actual = contentId(bytes, hasherForAlgorithm(algorithm, hasher));
  if (actual !== cid)
    throw new HearthNetLocalError('chunk_mismatch', `chunk bytes hash to ${actual}, not ${cid}`, {
      details: { expectedCid: cid, actualCid: actual },
    });
}

/** The 64 hex digits of a checked prefixed content id: what the store files the chunk or blob under. */
export function digestHexOf(cid: string): string {
  return cid.slice(cid.indexOf(':') + 1);
}
