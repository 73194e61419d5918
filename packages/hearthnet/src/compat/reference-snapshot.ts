import { isPlainObject } from '@agentwire/internal';
import { formatJsonPath } from '../canonical-json/strict-json.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { HearthNetLocalError } from '../errors.js';
import { checkReferenceSignature, referenceSignature } from './reference-event.js';
import { pythonAsciiJson } from './reference-json.js';

/**
 * A community snapshot as the Python reference writes it (`events/snapshot.py`, `SnapshotStore`): the
 * state of each materialised view at `at_lamport`, signed by its `author`. It is not the contract's
 * §7.5 snapshot (`lamport`, `wall_clock`, `state`, `covers_events_up_to`). Real reference nodes never
 * sign: `signature` is then `""`.
 */
export interface ReferenceSnapshot {
  /** `1` in every snapshot the reference writes. */
  readonly schema_version: number;
  readonly community_id: string;
  /** The snapshot covers the events with `lamport <= at_lamport`. */
  readonly at_lamport: number;
  /** View name (`marketplace`, `chat`) → that view's `snapshot_state()`. */
  readonly views: { readonly [name: string]: { readonly [key: string]: unknown } };
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
  readonly issued_at: string;
  readonly author: string;
  /** `ed25519:<base64url>` over `referenceSnapshots.signingBytes`, or `""`. */
  readonly signature: string;
}

/** A reference snapshot before signing. */
export type UnsignedReferenceSnapshot = Omit<ReferenceSnapshot, 'signature'>;

/** The six signed fields, in the order Python's `sort_keys` puts them. */
const SIGNED_FIELDS = [
  'at_lamport',
  'author',
  'community_id',
  'issued_at',
  'schema_version',
  'views',
] as const;

/**
 * Checks that `value` has the reference snapshot's fields with their JSON types (the signature may be
 * absent when `signed` is false) and that every view state is a JSON object, and returns it typed.
 * Values inside the view states are not judged; `issued_at` is not parsed.
 *
 * @throws {HearthNetLocalError} `malformed_reference_snapshot` with the path of the first bad field.
 */
export function assertReferenceSnapshot(value: unknown, signed: boolean): asserts value is ReferenceSnapshot {
  if (!isPlainObject(value)) {
    throw new HearthNetLocalError(
      'malformed_reference_snapshot',
      'a reference snapshot must be a JSON object',
      { path: '$' },
    );
  }
  const fail = (path: (string | number)[], expected: string): never => {
    throw new HearthNetLocalError(
      'malformed_reference_snapshot',
      `${formatJsonPath(path)} must be ${expected}`,
      { path: formatJsonPath(path) },
    );
  };
  for (const field of ['schema_version', 'at_lamport'] as const) {
    const number = value[field];
    if (!(typeof number === 'number' && Number.isSafeInteger(number) && number >= 0)) {
      fail([field], 'a non-negative integer');
    }
  }
  for (const field of ['community_id', 'issued_at', 'author'] as const) {
    if (typeof value[field] !== 'string') fail([field], 'a string');
  }
  const views = value.views;
  if (!isPlainObject(views)) fail(['views'], 'a JSON object');
  for (const [name, state] of Object.entries(views as object)) {
    if (!isPlainObject(state)) fail(['views', name], 'a JSON object');
  }
  if (signed && typeof value.signature !== 'string') fail(['signature'], 'a string');
}

/**
 * The bytes the reference signs for a snapshot (`_canonical_snap_bytes`): Python
 * `json.dumps(…, sort_keys=True, separators=(",", ":"))` — `ensure_ascii` and float `repr`, the
 * "B-form" — of the six fields other than `signature`. Use `parseReferenceJson` on received text so
 * `1.0` in a view state stays a float.
 *
 * @throws {HearthNetLocalError} `malformed_reference_snapshot` for a value without the snapshot's fields.
 * @throws {HearthNetLocalError} `python_json_unencodable` for a view state JSON cannot carry.
 * @example
 * referenceSnapshotSigningBytes(snapshot); // UTF-8 of '{"at_lamport":42,"author":"ed25519:…",…,"views":{…}}'
 */
export function referenceSnapshotSigningBytes(snapshot: UnsignedReferenceSnapshot): Uint8Array {
  assertReferenceSnapshot(snapshot, false);
  const unsigned: Record<string, unknown> = {};
  for (const field of SIGNED_FIELDS) unsigned[field] = snapshot[field];
  return new TextEncoder().encode(pythonAsciiJson(unsigned, { sortKeys: true }));
}

/**
 * Signs a reference snapshot as the reference library means to (`build_snapshot` with a key whose
 * `.sign` returns the 64-byte Ed25519 signature): `"ed25519:" + base64url(signature)` over
 * `referenceSnapshots.signingBytes`. `author` should be the key's node id. The reference's other
 * signers (an HMAC-SHA256 key, a PyNaCl `SigningKey` that returns signature and message) give strings
 * no Ed25519 verifier accepts, and are not offered.
 *
 * @throws {HearthNetLocalError} `malformed_reference_snapshot`
 * @throws {HearthNetLocalError} `python_json_unencodable`
 * @example
 * const snapshot = signReferenceSnapshot(
 *   { schema_version: 1, community_id, at_lamport: 42, views: { chat: state }, issued_at, author: key.nodeId },
 *   key,
 * );
 */
export function signReferenceSnapshot(snapshot: UnsignedReferenceSnapshot, key: KeyPair): ReferenceSnapshot {
  return { ...snapshot, signature: referenceSignature(referenceSnapshotSigningBytes(snapshot), key) };
}

/** Why {@link verifyReferenceSnapshot} refused a snapshot. */
export type ReferenceSnapshotFailureReason =
  /** Not an object with the snapshot's fields, or a view state JSON cannot carry. */
  | 'malformed_snapshot'
  /** `signature` is `""`: the reference accepts it, this check does only with `acceptUnsigned`. */
  | 'unsigned'
  /** `author` is not a full node id. */
  | 'invalid_author'
  /** The signature does not decode to 64 bytes. */
  | 'malformed_signature'
  /** The signature does not verify under `author`. */
  | 'signature_mismatch';

/** The verdict of {@link verifyReferenceSnapshot}. */
export type ReferenceSnapshotVerification =
  | { readonly valid: true; readonly snapshot: ReferenceSnapshot; readonly signed: boolean }
  | { readonly valid: false; readonly reason: ReferenceSnapshotFailureReason; readonly message: string };

/** Options of {@link verifyReferenceSnapshot}. */
export interface VerifyReferenceSnapshotOptions {
  /**
   * Accept `signature: ""` as the reference does (`_verify_snapshot` passes an empty signature even
   * with a verifier); the verdict then says `signed: false`. Default false: an unsigned snapshot proves
   * nothing about who made it.
   */
  readonly acceptUnsigned?: boolean;
}

/**
 * Verifies a reference snapshot's signature under its `author`, over
 * `referenceSnapshots.signingBytes`, decoding as leniently as the reference (a missing `ed25519:`
 * prefix, `=` padding, the `+/` alphabet). Like the reference, it checks neither that the author may
 * speak for the community nor that the views match its log. Never throws.
 *
 * @example
 * const verdict = verifyReferenceSnapshot(parseReferenceJson(text), { acceptUnsigned: true });
 * if (verdict.valid) restoreViews(verdict.snapshot.views, verdict.snapshot.at_lamport);
 */
export function verifyReferenceSnapshot(
  value: unknown,
  options: VerifyReferenceSnapshotOptions = {},
): ReferenceSnapshotVerification {
  let message: Uint8Array;
  try {
    assertReferenceSnapshot(value, true);
    message = referenceSnapshotSigningBytes(value);
  } catch (error) {
    return refuse('malformed_snapshot', error instanceof Error ? error.message : String(error));
  }
  if (value.signature === '') {
    return options?.acceptUnsigned === true
      ? { valid: true, snapshot: value, signed: false }
      : refuse('unsigned', 'the snapshot carries no signature');
  }
  const failure = checkReferenceSignature(value.signature, value.author, message);
  if (failure !== undefined) return refuse(failure.reason, failure.message);
  return { valid: true, snapshot: value, signed: true };
}

function refuse(reason: ReferenceSnapshotFailureReason, message: string): ReferenceSnapshotVerification {
  return { valid: false, reason, message };
}
