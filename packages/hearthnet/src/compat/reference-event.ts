import { formatJsonPath } from '../canonical-json/json-path.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { HearthNetLocalError } from '../errors.js';
import { EVENT_TYPES } from '../events/event-types.js';
import { pythonAsciiJson } from './python-ascii-json.js';
import { checkReferenceSignature, referenceSignature } from './reference-signature.js';

/**
 * A community event as the Python reference writes it (`events/log.py`, the sync wire): `payload`
 * instead of `data`, `issued_at` with microseconds instead of `wall_clock`, a base32 `event_id`.
 * Real reference nodes never sign: `signature` is then `""`.
 */
export interface ReferenceEvent {
  readonly schema_version: number;
  /** 26 RFC 4648 base32 characters (or an opaque id such as `evt:…` from a reference service). */
  readonly event_id: string;
  readonly event_type: string;
  readonly community_id: string;
  readonly author: string;
  readonly lamport: number;
  readonly payload: { readonly [key: string]: unknown };
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
  readonly issued_at: string;
  /** `ed25519:<base64url>` over {@link referenceSigningBytes}, or `""`. */
  readonly signature: string;
}

/** A reference event before signing. */
export type UnsignedReferenceEvent = Omit<ReferenceEvent, 'signature'>;

/** The eight signed fields, in the order Python's `sort_keys` puts them. */
const SIGNED_FIELDS = [
  'author',
  'community_id',
  'event_id',
  'event_type',
  'issued_at',
  'lamport',
  'payload',
  'schema_version',
] as const;

const STRING_FIELDS = ['event_id', 'event_type', 'community_id', 'author', 'issued_at'] as const;

/**
 * Checks that `value` has the reference envelope's fields with their JSON types (the signature may be
 * absent when `signed` is false), and returns it typed. Values inside `payload` are not judged.
 *
 * @throws {HearthNetLocalError} `malformed_reference_event` with the path of the first bad field.
 */
export function assertReferenceEvent(value: unknown, signed: boolean): asserts value is ReferenceEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HearthNetLocalError('malformed_reference_event', 'a reference event must be a JSON object', {
      path: '$',
    });
  }
  const event = value as Record<string, unknown>;
  const fail = (field: string, expected: string): never => {
    throw new HearthNetLocalError(
      'malformed_reference_event',
      `${formatJsonPath([field])} must be ${expected}`,
      { path: formatJsonPath([field]) },
    );
  };
  for (const field of ['schema_version', 'lamport'] as const) {
    const number = event[field];
    if (!(typeof number === 'number' && Number.isSafeInteger(number) && number >= 0)) {
      fail(field, 'a non-negative integer');
    }
  }
  for (const field of STRING_FIELDS) if (typeof event[field] !== 'string') fail(field, 'a string');
  const payload = event.payload;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    fail('payload', 'a JSON object');
  if (signed && typeof event.signature !== 'string') fail('signature', 'a string');
}

/**
 * The bytes the reference signs for an event (`EventLog._canonical_bytes`): Python
 * `json.dumps(…, sort_keys=True, separators=(",", ":"), ensure_ascii=True)` of the eight fields
 * other than `signature`, with Python float `repr` ("B-form", not the contract's canonical JSON).
 * Use `parseReferenceJson` on received text so `1.0` stays a float.
 *
 * @throws {HearthNetLocalError} `malformed_reference_event` for a value without the envelope's fields.
 * @throws {HearthNetLocalError} `python_json_unencodable` for a payload JSON cannot carry.
 * @example
 * referenceSigningBytes(event); // UTF-8 of '{"author":"ed25519:…","community_id":…,"schema_version":1}'
 */
export function referenceSigningBytes(event: UnsignedReferenceEvent): Uint8Array {
  assertReferenceEvent(event, false);
  const unsigned: Record<string, unknown> = {};
  for (const field of SIGNED_FIELDS) unsigned[field] = event[field];
  return new TextEncoder().encode(pythonAsciiJson(unsigned, { sortKeys: true }));
}

/**
 * Signs a reference event as the reference library means to (`append_local` with a key whose
 * `.sign` returns the 64-byte Ed25519 signature): `"ed25519:" + base64url(signature)` over
 * {@link referenceSigningBytes}. `author` should be the key's node id.
 *
 * @throws {HearthNetLocalError} `malformed_reference_event`
 * @throws {HearthNetLocalError} `python_json_unencodable`
 */
export function signReferenceEvent(event: UnsignedReferenceEvent, key: KeyPair): ReferenceEvent {
  return { ...event, signature: referenceSignature(referenceSigningBytes(event), key) };
}

/** Why {@link verifyReferenceEvent} refused an event. */
export type ReferenceEventFailureReason =
  /** Not an object with the envelope's fields, or a payload JSON cannot carry. */
  | 'malformed_event'
  /**
   * `event_type` is outside the reference log's closed set (the contract's 19 types plus
   * `community.member.left`, `community.member.removed`, `file.advertised`): its `schema_unknown`.
   */
  | 'schema_unknown'
  /** `signature` is `""`: the reference accepts it, this check does only with `acceptUnsigned`. */
  | 'unsigned'
  /** `author` is not a full node id. */
  | 'invalid_author'
  /** The signature does not decode to 64 bytes. */
  | 'malformed_signature'
  /** The signature does not verify under `author`. */
  | 'signature_mismatch';

/** The verdict of {@link verifyReferenceEvent}. */
export type ReferenceEventVerification =
  | { readonly valid: true; readonly event: ReferenceEvent; readonly signed: boolean }
  | { readonly valid: false; readonly reason: ReferenceEventFailureReason; readonly message: string };

/** Options of {@link verifyReferenceEvent}. */
export interface VerifyReferenceEventOptions {
  /** Accept `signature: ""` as the reference does (`signed: false` in the verdict). Default false. */
  readonly acceptUnsigned?: boolean;
}

/**
 * Verifies a reference event's signature under its `author`, over the reference's signing bytes
 * ({@link referenceSigningBytes}), decoding as leniently as the reference (a missing `ed25519:`
 * prefix, `=` padding, the `+/` alphabet). Never throws.
 *
 * Checks run in the reference's order (`sync._dict_to_event`, then `EventLog.append_received`): the
 * fields without a default must be present (`malformed_event`), then the event type (`schema_unknown`),
 * then the field types (`malformed_event`, where the reference checks none), then the signature. Like the
 * sync wire, an absent `schema_version` is `1`, an absent `payload` `{}` and an absent `signature` `""`;
 * the verdict's `event` carries those defaults.
 *
 * @example
 * const verdict = verifyReferenceEvent(parseReferenceJson(text));
 * if (verdict.valid) store(referenceEventToContract(verdict.event));
 */
export function verifyReferenceEvent(
  value: unknown,
  options: VerifyReferenceEventOptions = {},
): ReferenceEventVerification {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return refuse('malformed_event', 'a reference event must be a JSON object');
  }
  const received = value as Record<string, unknown>;
  const absent = FIELDS_WITHOUT_DEFAULT.find((field) => !Object.hasOwn(received, field));
  if (absent !== undefined) return refuse('malformed_event', `the event has no ${absent}`);
  if (!REFERENCE_EVENT_TYPES.has(received.event_type as string)) {
    return refuse(
      'schema_unknown',
      `the reference log knows no event type ${JSON.stringify(received.event_type)}`,
    );
  }
  const event = withWireDefaults(received);
  let message: Uint8Array;
  try {
    assertReferenceEvent(event, true);
    message = referenceSigningBytes(event);
  } catch (error) {
    return refuse('malformed_event', error instanceof Error ? error.message : String(error));
  }
  if (event.signature === '') {
    return options.acceptUnsigned === true
      ? { valid: true, event, signed: false }
      : refuse('unsigned', 'the event carries no signature');
  }
  const failure = checkReferenceSignature(event.signature, event.author, message);
  if (failure !== undefined) return refuse(failure.reason, failure.message);
  return { valid: true, event, signed: true };
}

/** The fields `sync._dict_to_event` reads without a default (a `KeyError` there). */
const FIELDS_WITHOUT_DEFAULT = [
  'event_id',
  'event_type',
  'community_id',
  'author',
  'lamport',
  'issued_at',
] as const;

/** The event with the sync wire's defaults for absent fields: `schema_version` 1, `payload` {}, `signature` "". */
function withWireDefaults(received: Record<string, unknown>): unknown {
  const defaults: Record<string, unknown> = { schema_version: 1, payload: {}, signature: '' };
  const missing = Object.keys(defaults).filter((field) => !Object.hasOwn(received, field));
  if (missing.length === 0) return received;
  const event: Record<string, unknown> = { ...received };
  for (const field of missing) event[field] = defaults[field];
  return event;
}

/** The event types the reference log accepts (a closed set of 22). */
const REFERENCE_EVENT_TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);

function refuse(reason: ReferenceEventFailureReason, message: string): ReferenceEventVerification {
  return { valid: false, reason, message };
}
