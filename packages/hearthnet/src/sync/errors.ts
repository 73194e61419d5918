/** Thrown by `buildSnapshot` when the signing key is not an anchor of the community at the snapshot's head. */
export class SnapshotSignerError extends Error {
  override readonly name = 'SnapshotSignerError';
  readonly code = 'unauthorized_signer';
  /** The node id of the refused key. */
  readonly nodeId: string;

  constructor(nodeId: string) {
    super(`${nodeId} is not an anchor of the community at the snapshot's head`);
    this.nodeId = nodeId;
  }
}

/**
 * Thrown by `restoreSnapshot` for a snapshot that `verifySnapshot` refuses; `reason` is the verdict's.
 */
export class InvalidSnapshotError extends Error {
  override readonly name = 'InvalidSnapshotError';
  readonly code = 'invalid_snapshot';
  readonly reason: string;

  constructor(reason: string, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** Thrown by `createSyncHandler` and `syncWith` for unusable options (a missing store, a bad URL, batch size, bucket width or community id). */
export class InvalidSyncOptionsError extends Error {
  override readonly name = 'InvalidSyncOptionsError';
  readonly code = 'invalid_sync_options';
}

/** Thrown by `syncWith` when a peer answers 2xx with a body that is not the sync protocol's. */
export class SyncProtocolError extends Error {
  override readonly name = 'SyncProtocolError';
  readonly code = 'sync_protocol';
  /** The request path that got the bad answer. */
  readonly path: string;

  constructor(path: string, message: string, options?: ErrorOptions) {
    super(`${path}: ${message}`, options);
    this.path = path;
  }
}
