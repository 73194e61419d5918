import { HearthNetError, type HearthNetErrorOptions } from '../../capabilities/hearthnet-errors.js';

/**
 * Thrown when an argument of a blob store call is malformed: a CID that is not `blake3:<hex>` or
 * `sha256:<hex>`, chunk bytes that are not a `Uint8Array`, a prefix that is not a string, a negative
 * target size. `bad_request` on the wire.
 */
export class InvalidBlobStoreInputError extends HearthNetError {
  override readonly name = 'InvalidBlobStoreInputError';
  readonly code = 'bad_request';
  /** Which argument, e.g. `'cid'` or `'bytes'`. */
  readonly argument: string;

  constructor(argument: string, message: string, options?: HearthNetErrorOptions) {
    super(`invalid ${argument}: ${message}`, options);
    this.argument = argument;
  }
}

/** Thrown when chunk bytes do not hash to the CID they were offered under. `bad_request` on the wire. */
export class ChunkMismatchError extends HearthNetError {
  override readonly name = 'ChunkMismatchError';
  readonly code = 'bad_request';
  /** The CID the bytes were offered under. */
  readonly expectedCid: string;
  /** The CID the bytes really have. */
  readonly actualCid: string;

  constructor(expectedCid: string, actualCid: string) {
    super(`chunk bytes hash to ${actualCid}, not ${expectedCid}`);
    this.expectedCid = expectedCid;
    this.actualCid = actualCid;
  }
}

/**
 * Thrown when a manifest is malformed (a field missing or mistyped, indexes out of order, sizes that do
 * not add up) or its CID is not the blob CID of its chunks. `bad_request` on the wire.
 */
export class InvalidBlobManifestError extends HearthNetError {
  override readonly name = 'InvalidBlobManifestError';
  readonly code = 'bad_request';
  /** Where in the manifest, e.g. `'chunks[2].size_bytes'`, or `'cid'`. */
  readonly field: string;

  constructor(field: string, message: string) {
    super(`invalid blob manifest at ${field}: ${message}`);
    this.field = field;
  }
}

/** Thrown when a manifest is stored before all of its chunks are held. `bad_request` on the wire. */
export class MissingChunksError extends HearthNetError {
  override readonly name = 'MissingChunksError';
  readonly code = 'bad_request';
  readonly blobCid: string;
  /** Indexes of the chunks not held, ascending. */
  readonly missing: readonly number[];

  constructor(blobCid: string, missing: readonly number[]) {
    super(`blob ${blobCid} is missing ${missing.length} chunk(s): ${missing.slice(0, 10).join(', ')}`);
    this.blobCid = blobCid;
    this.missing = Object.freeze([...missing]);
  }
}

/**
 * Thrown when stored chunk bytes no longer hash to their CID (a damaged file). The store treats the
 * chunk as not held, so putting it again heals it. `internal_error` on the wire.
 */
export class CorruptChunkError extends HearthNetError {
  override readonly name = 'CorruptChunkError';
  readonly code = 'internal_error';
  readonly cid: string;
  /** The CID the stored bytes have now. */
  readonly actualCid: string;

  constructor(cid: string, actualCid: string) {
    super(`stored chunk ${cid} is corrupt: its bytes hash to ${actualCid}`);
    this.cid = cid;
    this.actualCid = actualCid;
  }
}

/** Thrown by a blob store constructor when an option is unusable (see the message for which). */
export class InvalidBlobStoreOptionsError extends Error {
  override readonly name = 'InvalidBlobStoreOptionsError';
  readonly code = 'invalid_blob_store_options';
}
