import { isJsonObject, messageOf } from '@agentwire/internal';
import { formatJsonPath } from '../canonical-json/strict-json.js';
import { ed25519Sign, ed25519Verify } from '../crypto/ed25519.js';
import { ED25519_PREFIX, type KeyPair, parseNodeId } from '../crypto/key-pair.js';
import { base64UrlDecodeLenient, base64UrlEncode } from '../encoding.js';
import { HearthNetLocalError } from '../errors.js';
import {
  EVENT_SCHEMA_VERSION,
  EVENT_TYPES,
  type SignedEvent,
  type UnsignedEvent,
  validateEvent,
} from '../events/event.js';
import { decodeUlid, encodeUlid, MAX_ULID_TIME } from '../events/ulid.js';
import { parseTimestamp } from '../manifests/node-manifest.js';
import { PythonFloat, pythonAsciiJson } from './reference-json.js';

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
  /** `ed25519:<base64url>` over `referenceEvents.signingBytes`, or `""`. */
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
 * `referenceEvents.signingBytes`. `author` should be the key's node id.
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
 * (`referenceEvents.signingBytes`), decoding as leniently as the reference (a missing `ed25519:`
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

type JsonObject = { [key: string]: unknown };

/** Payload fields that hold an event id (converted between the two id forms). */
const EVENT_ID_FIELDS = ['target_event_id', 'invite_event_id'] as const;

/**
 * Carries a reference event into the contract envelope (contract §7.1) without a signature — the
 * reference signs other bytes, so only the author can sign the result (`signPayload`).
 *
 * - `payload` → `data`, `issued_at` → `wall_clock` (cut to milliseconds), the base32 `event_id` →
 *   a ULID of the same millisecond ({@link referenceEventIdToUlid}), and so `target_event_id` and
 *   `invite_event_id` inside the payload;
 * - `chat.message.sent`: `to` → `recipient`; market posts: `location.lon` → `location.lng`
 *   (also in `market.post.updated` `fields`);
 * - numbers: integral Python floats become plain numbers (`1.0` → `1`).
 *
 * The result must pass the contract's envelope and `data` schemas. Reference events that do not
 * (authors such as `local-1a2b3c4d`, `community.member.joined` with the reference's payload,
 * `market.post.expired` without `client_id`, `evt:…` ids) are refused.
 *
 * @throws {HearthNetLocalError} `malformed_reference_event` for a value without the reference envelope's
 *   fields.
 * @throws {HearthNetLocalError} `event_conversion` for an event the contract cannot carry (`details.reason`,
 *   `path`).
 * @example
 * const unsigned = referenceEventToContract(received);
 * unsigned.wall_clock; // '2026-05-26T08:14:22.281Z'
 */
export function referenceEventToContract(event: UnsignedReferenceEvent): UnsignedEvent {
  assertReferenceEvent(event, false);
  const eventId = convertId(event.event_id, '$.event_id', referenceEventIdToUlid);
  let wallClock: string;
  try {
    wallClock = referenceTimestampToContract(event.issued_at);
  } catch (error) {
    throw new HearthNetLocalError('event_conversion', messageOf(error), {
      cause: error,
      path: '$.issued_at',
      details: { reason: 'unconvertible_timestamp' },
    });
  }
  const data = plainJson(event.payload, ['payload']) as JsonObject;
  for (const field of EVENT_ID_FIELDS) {
    const id = data[field];
    if (isReferenceEventId(id)) data[field] = convertId(id, `$.payload.${field}`, referenceEventIdToUlid);
  }
  if (event.event_type === 'chat.message.sent') rename(data, 'to', 'recipient');
  for (const location of locationsOf(event.event_type, data)) rename(location, 'lon', 'lng');
  const unsigned = {
    schema_version: event.schema_version,
    event_id: eventId,
    lamport: event.lamport,
    wall_clock: wallClock,
    community_id: event.community_id,
    author: event.author,
    event_type: event.event_type,
    data,
  };
  const verdict = validateEvent({ ...unsigned, signature: '' });
  if (!verdict.valid) {
    throw new HearthNetLocalError('event_conversion', verdict.message, {
      path: fromDataPath(verdict.path),
      details: { reason: 'invalid_contract_event' },
    });
  }
  return unsigned as UnsignedEvent;
}

/**
 * Carries a contract event into the reference envelope, unsigned (sign it with `signReferenceEvent`
 * when you hold the author's key). The inverse of {@link referenceEventToContract}: `data` →
 * `payload`, `wall_clock` → `issued_at` with six fraction digits, ULIDs → reference ids (the low 30
 * of the ULID's 80 random bits are lost), `recipient` → `to`, `lng` → `lon`. A `signature` on the
 * input is dropped.
 *
 * @throws {HearthNetLocalError} `event_conversion` (`invalid_contract_event`) for an event that breaks the
 *   contract's schemas.
 * @example
 * const forReference = signReferenceEvent(contractEventToReference(event), me);
 */
export function contractEventToReference(event: UnsignedEvent | SignedEvent): UnsignedReferenceEvent {
  const verdict = validateEvent({ signature: '', ...event });
  if (!verdict.valid)
    throw new HearthNetLocalError('event_conversion', verdict.message, {
      path: verdict.path,
      details: { reason: 'invalid_contract_event' },
    });
  const payload = structuredClone(event.data) as JsonObject;
  for (const field of EVENT_ID_FIELDS) {
    const id = payload[field];
    if (typeof id === 'string') payload[field] = ulidToReferenceEventId(id);
  }
  if (event.event_type === 'chat.message.sent') rename(payload, 'recipient', 'to');
  for (const location of locationsOf(event.event_type, payload)) rename(location, 'lng', 'lon');
  return {
    schema_version: EVENT_SCHEMA_VERSION,
    event_id: ulidToReferenceEventId(event.event_id),
    event_type: event.event_type,
    community_id: event.community_id,
    author: event.author,
    lamport: event.lamport,
    payload,
    issued_at: contractTimestampToReference(event.wall_clock),
  };
}

function convertId(id: string, path: string, convert: (id: string) => string): string {
  try {
    return convert(id);
  } catch (error) {
    throw new HearthNetLocalError('event_conversion', messageOf(error), {
      cause: error,
      path,
      details: { reason: 'unconvertible_event_id' },
    });
  }
}

/** The `location` objects of a market event's data (reference `lon`, contract `lng`). */
function locationsOf(type: string, data: JsonObject): JsonObject[] {
  const holder =
    type === 'market.post.updated' ? data.fields : type === 'market.post.created' ? data : undefined;
  if (!isJsonObject<JsonObject>(holder)) return [];
  const location = holder.location;
  return isJsonObject<JsonObject>(location) ? [location] : [];
}

function rename(object: JsonObject, from: string, to: string): void {
  if (!Object.hasOwn(object, from) || Object.hasOwn(object, to)) return;
  const entries = Object.entries(object).map(([key, value]) => [key === from ? to : key, value] as const);
  for (const key of Object.keys(object)) delete object[key];
  for (const [key, value] of entries) object[key] = value;
}

/** A deep copy with Python floats as numbers; integers beyond 2⁵³ are refused. */
function plainJson(value: unknown, path: (string | number)[]): unknown {
  if (value instanceof PythonFloat) return value.value;
  if (typeof value === 'bigint') {
    throw new HearthNetLocalError(
      'event_conversion',
      `${formatJsonPath(path)}: the integer ${value} does not fit the contract's 53 bits`,
      { path: formatJsonPath(path), details: { reason: 'unconvertible_number' } },
    );
  }
  if (Array.isArray(value)) return value.map((item, index) => plainJson(item, [...path, index]));
  if (isJsonObject<JsonObject>(value)) {
    const copy: JsonObject = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(copy, key, {
        value: plainJson(item, [...path, key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }
  return value;
}

/** Contract paths name `data`; a reference reader knows the field as `payload`. */
function fromDataPath(path: string): string {
  return path.replace(/^\$\.data\b/, '$.payload');
}

/** RFC 4648 base32, the alphabet of reference event ids. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const REFERENCE_ID = /^[A-Z2-7]{26}$/;
/** Random bits a reference id keeps (its last 10 characters). */
const REFERENCE_RANDOM_BITS = 50n;
/** Random bits of a ULID. */
const ULID_RANDOM_BITS = 80n;
const DROPPED_BITS = ULID_RANDOM_BITS - REFERENCE_RANDOM_BITS;

/** A reference event id taken apart: the time of its first 16 characters and the 50 random bits after. */
export interface DecodedReferenceEventId {
  /** Milliseconds since the epoch (80 bits in the id; a `bigint` because it may pass 2⁵³). */
  readonly timeMs: bigint;
  /** The 50 random bits of the last 10 characters. */
  readonly random: bigint;
}

/**
 * Whether `value` is a reference event id: 26 characters of RFC 4648 base32 (`A–Z 2–7`), the
 * reference's `new_ulid()` (10 bytes of milliseconds and 10 random bytes, base32, cut to 26). Such ids
 * do not sort by time and are not Crockford ULIDs.
 */
export function isReferenceEventId(value: unknown): value is string {
  return typeof value === 'string' && REFERENCE_ID.test(value);
}

/**
 * Takes a reference event id apart.
 *
 * @throws {HearthNetLocalError} `invalid_reference_event_id`
 */
export function decodeReferenceEventId(id: string): DecodedReferenceEventId {
  if (!isReferenceEventId(id)) {
    throw new HearthNetLocalError(
      'invalid_reference_event_id',
      'a reference event id is 26 RFC 4648 base32 characters (A–Z 2–7)',
      { details: { value: id } },
    );
  }
  let bits = 0n;
  for (const char of id) bits = (bits << 5n) | BigInt(ALPHABET.indexOf(char));
  return { timeMs: bits >> REFERENCE_RANDOM_BITS, random: bits & ((1n << REFERENCE_RANDOM_BITS) - 1n) };
}

/**
 * The ULID of a reference event id: the same millisecond, and the id's 50 random bits as the top of
 * the ULID's 80 (the other 30 are zero). {@link ulidToReferenceEventId} gives the reference id back.
 *
 * @throws {HearthNetLocalError} `invalid_reference_event_id` for a malformed id or a time beyond the ULID's
 *   48 bits.
 * @example
 * referenceEventIdToUlid('AAAAAAAZ2PVWLFHBAECAKBQHBA'); // a Crockford ULID of the same millisecond
 */
export function referenceEventIdToUlid(id: string): string {
  const { timeMs, random } = decodeReferenceEventId(id);
  if (timeMs > BigInt(MAX_ULID_TIME)) {
    throw new HearthNetLocalError(
      'invalid_reference_event_id',
      `the id's time ${timeMs} ms does not fit a ULID's 48 bits`,
      { details: { value: id } },
    );
  }
  const randomness = new Uint8Array(10);
  let rest = random << DROPPED_BITS;
  for (let i = randomness.length - 1; i >= 0; i--) {
    randomness[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return encodeUlid(Number(timeMs), randomness);
}

/**
 * The reference event id of a ULID: the same millisecond and the top 50 of the ULID's 80 random bits.
 * The low 30 bits are lost, so only ULIDs where they are zero (those made by
 * {@link referenceEventIdToUlid}) come back unchanged.
 *
 * @throws {HearthNetLocalError} `invalid_ulid` for a string that is not a ULID.
 */
export function ulidToReferenceEventId(ulid: string): string {
  const { timeMs, randomness } = decodeUlid(ulid);
  let random = 0n;
  for (const byte of randomness) random = (random << 8n) | BigInt(byte);
  let bits = (BigInt(timeMs) << REFERENCE_RANDOM_BITS) | (random >> DROPPED_BITS);
  let id = '';
  for (let i = 0; i < 26; i++) {
    id = ALPHABET[Number(bits & 31n)] + id;
    bits >>= 5n;
  }
  return id;
}

/** Why a reference signature (events, snapshots) did not verify. */
export interface ReferenceSignatureFailure {
  /**
   * `invalid_author`: the author is not a full node id; `malformed_signature`: the signature does not
   * decode to 64 bytes; `signature_mismatch`: it does not verify under the author's key.
   */
  readonly reason: 'invalid_author' | 'malformed_signature' | 'signature_mismatch';
  readonly message: string;
}

/**
 * The reference's signature string for `message` (`_sign` / `_sign_snapshot` with a key whose `.sign`
 * returns the 64-byte Ed25519 signature): `"ed25519:" + base64url(signature)`, unpadded.
 */
export function referenceSignature(message: Uint8Array, key: KeyPair): string {
  return ED25519_PREFIX + base64UrlEncode(ed25519Sign(message, key.secretKey));
}

/**
 * Checks a non-empty reference signature over `message` under `author`, decoding as leniently as the
 * reference (`kp_store.verify` after stripping an optional `ed25519:` prefix and re-padding: `=`
 * padding and the `+/` alphabet pass). Returns `undefined` when it verifies. Never throws.
 */
export function checkReferenceSignature(
  signature: string,
  author: string,
  message: Uint8Array,
): ReferenceSignatureFailure | undefined {
  let publicKey: Uint8Array;
  try {
    publicKey = parseNodeId(author, { lenient: true });
  } catch (error) {
    return { reason: 'invalid_author', message: messageOf(error) };
  }
  const encoded = signature.startsWith(ED25519_PREFIX) ? signature.slice(ED25519_PREFIX.length) : signature;
  let decoded: Uint8Array;
  try {
    decoded = base64UrlDecodeLenient(encoded);
  } catch (error) {
    return { reason: 'malformed_signature', message: messageOf(error) };
  }
  if (decoded.length !== 64) {
    return { reason: 'malformed_signature', message: `a signature has 64 bytes, got ${decoded.length}` };
  }
  if (!ed25519Verify(decoded, message, publicKey)) {
    return { reason: 'signature_mismatch', message: "the signature does not verify under the author's key" };
  }
  return undefined;
}

/** The reference's `issued_at`: `%Y-%m-%dT%H:%M:%S.%fZ` (read with 0–6 fraction digits). */
const REFERENCE_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?Z$/;

/**
 * A reference timestamp (`2026-05-26T08:14:22.281734Z`, microseconds) as a contract timestamp:
 * cut to milliseconds, trailing zeros and an empty fraction dropped (`…22.281Z`, `…22.28Z`, `…22Z`).
 * The microseconds beyond the millisecond are lost.
 *
 * @throws {HearthNetLocalError} `invalid_reference_timestamp` for text of another shape or an impossible
 *   date.
 * @example
 * referenceTimestampToContract('2026-05-26T08:14:22.281734Z'); // '2026-05-26T08:14:22.281Z'
 */
export function referenceTimestampToContract(text: string): string {
  const match = typeof text === 'string' ? REFERENCE_TIMESTAMP.exec(text) : null;
  if (match === null) {
    throw new HearthNetLocalError(
      'invalid_reference_timestamp',
      'expected a reference timestamp such as 2026-05-26T08:14:22.281734Z',
      { details: { value: text } },
    );
  }
  const millis = (match[2] ?? '').padEnd(6, '0').slice(0, 3).replace(/0+$/, '');
  const contract = `${match[1]}${millis === '' ? '' : `.${millis}`}Z`;
  try {
    parseTimestamp(contract);
  } catch (error) {
    throw new HearthNetLocalError('invalid_reference_timestamp', `${text} is not a real UTC time`, {
      cause: error,
      details: { value: text },
    });
  }
  return contract;
}

/**
 * A contract timestamp as the reference writes it: microseconds, six fraction digits
 * (`2026-05-26T08:14:22Z` → `2026-05-26T08:14:22.000000Z`).
 *
 * @throws {HearthNetLocalError} `invalid_timestamp` for text that is not a contract timestamp.
 */
export function contractTimestampToReference(text: string): string {
  const iso = new Date(parseTimestamp(text)).toISOString();
  return `${iso.slice(0, 23)}000Z`;
}
