/** Why a blob read from a peer was refused (see {@link BlobTransferError}). */
export type BlobTransferErrorReason =
  /** A chunk's bytes do not hash to the CID the manifest gives for it, or its size differs. */
  | 'chunk_mismatch'
  /** The manifest does not describe the blob asked for, or is malformed. */
  | 'manifest_mismatch'
  /** The stream broke the `file.read` / `file.put` frame order or ended with chunks missing. */
  | 'incomplete';

/**
 * Thrown by `readBlob` / `putBlob` when a peer's frames cannot be trusted or do not add up: nothing
 * of such a transfer is returned (chunks verified before the fault may already be in the local store,
 * which is harmless: they are content-addressed).
 */
export class BlobTransferError extends Error {
  override readonly name: string = 'BlobTransferError';
  readonly code = 'blob_transfer';
  readonly reason: BlobTransferErrorReason;

  constructor(reason: BlobTransferErrorReason, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}

/** A received chunk whose bytes do not hash to the CID the manifest names: it is refused, never stored. */
export class ChunkVerificationError extends BlobTransferError {
  override readonly name = 'ChunkVerificationError';
  /** The chunk's index in the manifest. */
  readonly index: number;
  /** The CID the manifest gives. */
  readonly expectedCid: string;
  /** What the received bytes hash to. */
  readonly actualCid: string;

  constructor(index: number, expectedCid: string, actualCid: string) {
    super('chunk_mismatch', `chunk ${index} hashes to ${actualCid}, the manifest says ${expectedCid}`);
    this.index = index;
    this.expectedCid = expectedCid;
    this.actualCid = actualCid;
  }
}
