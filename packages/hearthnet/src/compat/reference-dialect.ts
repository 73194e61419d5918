import {
  contractEventToReference,
  contractTimestampToReference,
  referenceEventIdToUlid,
  referenceEventToContract,
  referenceSigningBytes,
  referenceTimestampToContract,
  signReferenceEvent,
  ulidToReferenceEventId,
  verifyReferenceEvent,
} from './reference-event.js';
import {
  decodeReferenceInvite,
  encodeReferenceInvite,
  makeReferenceInvite,
  verifyReferenceInvite,
} from './reference-invite.js';
import { encodeReferenceSseFrame, parseReferenceJson } from './reference-json.js';
import {
  parseReferenceServedManifest,
  referenceManifestCid,
  referenceNodeManifestToContract,
  verifyReferenceCommunityManifest,
  verifyReferenceNodeManifest,
} from './reference-manifests.js';
import {
  referenceSnapshotSigningBytes,
  signReferenceSnapshot,
  verifyReferenceSnapshot,
} from './reference-snapshot.js';

/**
 * The Python reference's JSON as its nodes write it: read with its number types, and its SSE frames.
 *
 * @example
 * const event = referenceJson.parse(body); // `1.0` stays a float, so the reference's signature verifies
 * referenceJson.encodeSseFrame({ done: true }, 'done'); // 'event: done\ndata: {"done":true}\n\n'
 */
export const referenceJson = /* @__PURE__ */ Object.freeze({
  /**
   * Parses JSON text as Python's `json.loads` types its numbers: an integral float (`1.0`, `1e16`)
   * stays a float (a `PythonFloat` wrapper), an integer beyond 2⁵³ a `bigint`; duplicate keys keep the
   * last value; `NaN` and `Infinity` are refused (`reference_json_syntax`). Read a reference node's
   * events and snapshots with it before verifying them.
   */
  parse: parseReferenceJson,
  /**
   * One SSE frame as the reference's `encode_sse_frame(data, event)` writes it: an `event:` line for
   * a non-empty name, `data:` with compact `ensure_ascii` JSON in insertion order and Python float
   * `repr`, then an empty line (`invalid_reference_sse_frame` for a name with a line break).
   */
  encodeSseFrame: encodeReferenceSseFrame,
});

/**
 * The reference's community events (`payload`, `issued_at` in µs, RFC 4648 base32 ids), checked,
 * signed and converted to and from contract events.
 *
 * @example
 * const verdict = referenceEvents.verify(referenceJson.parse(text), { acceptUnsigned: true });
 * if (verdict.valid) {
 *   const unsigned = referenceEvents.toContract(verdict.event); // contract field names, ULID ids
 * }
 */
export const referenceEvents = /* @__PURE__ */ Object.freeze({
  /**
   * Verifies a reference event in the reference's order (fields, event type, field types, then the
   * signature over its B-form bytes). Never throws: `{ valid: true, event, signed }` or a reason
   * (`malformed_event`, `schema_unknown`, `unsigned`, …). `acceptUnsigned` lets `signature: ""` pass.
   */
  verify: verifyReferenceEvent,
  /** Signs a reference event with its author's key: `"ed25519:" + base64url` over its B-form bytes. */
  sign: signReferenceEvent,
  /** The bytes the reference signs for an event (Python `json.dumps`, sorted keys, ASCII, float `repr`). */
  signingBytes: referenceSigningBytes,
  /** A reference event as an unsigned contract event (`payload` → `data`, µs → ms, base32 id → ULID). */
  toContract: referenceEventToContract,
  /** A contract event as an unsigned reference event (the inverse of `toContract`). */
  fromContract: contractEventToReference,
  /** A reference `issued_at` (`…22.281734Z`) as a contract timestamp (`…22.281Z`). */
  timestampToContract: referenceTimestampToContract,
  /** A contract timestamp as the reference writes it (six fraction digits). */
  timestampFromContract: contractTimestampToReference,
  /** The ULID of a reference event id: the same millisecond, the id's 50 random bits on top. */
  idToUlid: referenceEventIdToUlid,
  /** The reference event id of a ULID (its low 30 random bits are lost). */
  idFromUlid: ulidToReferenceEventId,
});

/**
 * The reference's signed view snapshots (`events/snapshot.py`): `{schema_version, community_id,
 * at_lamport, views, issued_at, author, signature}`, not the contract's §7.5 snapshot.
 *
 * @example
 * const signed = referenceSnapshots.sign(unsigned, anchorKey);
 * referenceSnapshots.verify(signed); // { valid: true, snapshot, signed: true }
 */
export const referenceSnapshots = /* @__PURE__ */ Object.freeze({
  /**
   * Checks a reference snapshot's shape and signature. Never throws: `{ valid, snapshot, signed }` or a
   * reason (`malformed_snapshot`, `unsigned`, `invalid_author`, `malformed_signature`,
   * `signature_mismatch`). `acceptUnsigned` lets `signature: ""` pass.
   */
  verify: verifyReferenceSnapshot,
  /** Signs a reference snapshot with Ed25519 (`"ed25519:" + base64url`). */
  sign: signReferenceSnapshot,
  /** The B-form bytes of the six fields other than `signature`. */
  signingBytes: referenceSnapshotSigningBytes,
});

/**
 * The reference's node and community manifests (library-signed, checked by its own rules), the
 * unsigned manifest a reference node serves, and its blob `manifest_cid`.
 *
 * @example
 * const served = referenceManifests.parseServed(await (await fetch(`${peer}/manifest`)).json());
 * const fields = referenceManifests.toContract(served, { schemaHash }); // contract §6.1 fields, unsigned
 */
export const referenceManifests = /* @__PURE__ */ Object.freeze({
  /** Checks a library-signed reference node manifest as its `verify_node_manifest` does. Never throws. */
  verifyNode: verifyReferenceNodeManifest,
  /** Checks a library-signed reference community manifest as its `verify_community_manifest` does. Never throws. */
  verifyCommunity: verifyReferenceCommunityManifest,
  /** Reads the unsigned manifest a reference node serves on `GET /manifest` (`malformed_reference_manifest`). */
  parseServed: parseReferenceServedManifest,
  /** The contract §6.1 fields a node fills in, taken from a reference manifest (signed or served). */
  toContract: referenceNodeManifestToContract,
  /** The reference's `manifest_cid` of a blob manifest (BLAKE3 by default; pass `sha256Hasher` for SHA-256). */
  cid: referenceManifestCid,
});

/**
 * The reference's `hn1:` invite blobs (`ui/onboarding`).
 *
 * @example
 * const invite = referenceInvites.decode(blob); // checks neither signature nor expiry
 * referenceInvites.verify(invite); // { valid: true, … } or a reason; pass `now` to check expiry too
 */
export const referenceInvites = /* @__PURE__ */ Object.freeze({
  /** Makes and signs an invite with the inviter's key, as `make_invite` does. */
  make: makeReferenceInvite,
  /** Writes an invite as an `hn1:` blob. */
  encode: encodeReferenceInvite,
  /** Reads an `hn1:` blob (`invalid_invite`); it checks neither signature nor expiry: call `verify`. */
  decode: decodeReferenceInvite,
  /** Checks the signature under `inviter_node_id`, then — with `now` — expiry. */
  verify: verifyReferenceInvite,
});
