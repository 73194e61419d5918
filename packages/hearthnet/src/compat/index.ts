/**
 * `@agentwire/hearthnet/compat` — reading and writing what the Python reference implementation
 * produces: its community events (`payload`, `issued_at` in µs, RFC 4648 base32 ids) converted to
 * and from contract events, their signatures (Python `json.dumps` with `ensure_ascii` and float
 * `repr`, "B-form"), its signed view snapshots, its SSE frames, `hn1:` invite blobs, its node and
 * community manifests and its blob `manifest_cid`.
 *
 * @example
 * ```ts
 * import { parseReferenceJson, referenceEventToContract, verifyReferenceEvent } from '@agentwire/hearthnet/compat';
 *
 * const verdict = verifyReferenceEvent(parseReferenceJson(text), { acceptUnsigned: true });
 * if (verdict.valid) {
 *   const unsigned = referenceEventToContract(verdict.event); // contract field names, ULID ids
 * }
 * ```
 *
 * @packageDocumentation
 */
export {
  type EventConversionReason,
  HearthNetLocalError,
  type HearthNetLocalErrorCode,
  type HearthNetLocalErrorDetails,
  type HearthNetLocalErrorOptions,
  type InvalidInviteReason,
} from '../errors.js';
export { contractEventToReference, referenceEventToContract } from './convert-event.js';
export { type PythonAsciiJsonOptions, pythonAsciiJson, pythonAsciiString } from './python-ascii-json.js';
export { PythonFloat, pythonFloatRepr } from './python-float.js';
export {
  assertReferenceEvent,
  type ReferenceEvent,
  type ReferenceEventFailureReason,
  type ReferenceEventVerification,
  referenceSigningBytes,
  signReferenceEvent,
  type UnsignedReferenceEvent,
  type VerifyReferenceEventOptions,
  verifyReferenceEvent,
} from './reference-event.js';
export {
  type DecodedReferenceEventId,
  decodeReferenceEventId,
  isReferenceEventId,
  referenceEventIdToUlid,
  ulidToReferenceEventId,
} from './reference-event-id.js';
export {
  decodeReferenceInvite,
  encodeReferenceInvite,
  INVITE_BLOB_PREFIX,
  makeReferenceInvite,
  type ReferenceInvite,
  type ReferenceInviteFailureReason,
  type ReferenceInviteInput,
  type ReferenceInviteVerification,
  type VerifyReferenceInviteOptions,
  verifyReferenceInvite,
} from './reference-invite.js';
export { parseReferenceJson } from './reference-json.js';
export { type ReferenceManifestCidInput, referenceManifestCid } from './reference-manifest-cid.js';
export {
  type ContractNodeManifestFields,
  parseReferenceServedManifest,
  type ReferenceCommunityManifest,
  type ReferenceManifestCapability,
  type ReferenceManifestConversionOptions,
  type ReferenceManifestFailureReason,
  type ReferenceManifestVerification,
  type ReferenceNodeManifest,
  type ReferenceServedManifest,
  referenceCommunityManifestSchema,
  referenceManifestCapabilitySchema,
  referenceNodeManifestSchema,
  referenceNodeManifestToContract,
  referenceServedManifestSchema,
  type VerifyReferenceManifestOptions,
  verifyReferenceCommunityManifest,
  verifyReferenceNodeManifest,
} from './reference-manifests.js';
export {
  assertReferenceSnapshot,
  type ReferenceSnapshot,
  type ReferenceSnapshotFailureReason,
  type ReferenceSnapshotVerification,
  referenceSnapshotSigningBytes,
  signReferenceSnapshot,
  type UnsignedReferenceSnapshot,
  type VerifyReferenceSnapshotOptions,
  verifyReferenceSnapshot,
} from './reference-snapshot.js';
export { encodeReferenceSseFrame } from './reference-sse-frame.js';
export { contractTimestampToReference, referenceTimestampToContract } from './reference-timestamp.js';
