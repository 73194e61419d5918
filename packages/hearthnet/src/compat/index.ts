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
export {
  assertReferenceEvent,
  contractEventToReference,
  contractTimestampToReference,
  type DecodedReferenceEventId,
  decodeReferenceEventId,
  isReferenceEventId,
  type ReferenceEvent,
  type ReferenceEventFailureReason,
  type ReferenceEventVerification,
  referenceEventIdToUlid,
  referenceEventToContract,
  referenceSigningBytes,
  referenceTimestampToContract,
  signReferenceEvent,
  type UnsignedReferenceEvent,
  ulidToReferenceEventId,
  type VerifyReferenceEventOptions,
  verifyReferenceEvent,
} from './reference-event.js';
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
export {
  encodeReferenceSseFrame,
  type PythonAsciiJsonOptions,
  PythonFloat,
  parseReferenceJson,
  pythonAsciiJson,
  pythonAsciiString,
  pythonFloatRepr,
} from './reference-json.js';
export {
  type ContractNodeManifestFields,
  parseReferenceServedManifest,
  type ReferenceCommunityManifest,
  type ReferenceManifestCapability,
  type ReferenceManifestCidInput,
  type ReferenceManifestConversionOptions,
  type ReferenceManifestFailureReason,
  type ReferenceManifestVerification,
  type ReferenceNodeManifest,
  type ReferenceServedManifest,
  referenceCommunityManifestSchema,
  referenceManifestCapabilitySchema,
  referenceManifestCid,
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
