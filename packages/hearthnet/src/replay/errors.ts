/** Thrown by `replay` and the community-manifest helpers for unusable options (a bad community id, time or head). */
export class InvalidReplayOptionsError extends Error {
  override readonly name = 'InvalidReplayOptionsError';
  readonly code = 'invalid_replay_options';
}

/** Thrown by `buildCommunityManifest` when the events hold no valid `community.created` up to the head. */
export class CommunityNotCreatedError extends Error {
  override readonly name = 'CommunityNotCreatedError';
  readonly code = 'community_not_created';
}

/** Thrown by `buildCommunityManifest` when the signing key is neither the root key nor an anchor at the head. */
export class CommunityManifestSignerError extends Error {
  override readonly name = 'CommunityManifestSignerError';
  readonly code = 'unauthorized_signer';
  /** The node id of the refused key. */
  readonly nodeId: string;

  constructor(nodeId: string) {
    super(`${nodeId} is neither the root key nor an anchor of the community`);
    this.nodeId = nodeId;
  }
}
