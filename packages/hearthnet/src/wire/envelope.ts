import { canonicalJson } from '../canonical-json/canonical-json.js';
import type { KeyPair } from '../crypto/key-pair.js';
import {
  type PayloadVerification,
  signPayload,
  type VerifyPayloadOptions,
  verifyPayload,
} from '../crypto/payload-signature.js';
import { HearthNetLocalError } from '../errors.js';
import { encodeUlid, MAX_ULID_TIME, ULID_RANDOM_BYTES } from '../events/ulid.js';

/** What a request signature covers (contract §5.1), before it becomes the envelope object. */
export interface RequestEnvelopeFields {
  /** `X-HearthNet-Capability`, e.g. `llm.chat`. */
  readonly capability: string;
  /** `X-HearthNet-Capability-Version`, `major.minor`. */
  readonly version: string;
  /** `X-HearthNet-Request-Id`. */
  readonly requestId: string;
  /** `X-HearthNet-From`: the caller's full node id; its key checks the signature. */
  readonly from: string;
  /** `X-HearthNet-Community`: the full community id. */
  readonly community: string;
  /** `X-HearthNet-Timestamp`, RFC 3339 UTC. */
  readonly timestamp: string;
  /** The request body, as parsed JSON. */
  readonly body: unknown;
}

/** The synthetic object of contract §5.1 whose canonical JSON a request signature covers. */
export interface RequestEnvelope {
  readonly capability: string;
  readonly version: string;
  readonly request_id: string;
  readonly from: string;
  readonly community: string;
  readonly timestamp: string;
  readonly body: unknown;
}

/**
 * What a response signature covers (contract §5.2 says "ed25519 over response" and leaves the rest
 * open). Our rule: the request's `capability`, `version` and `request_id` (binding the answer to the
 * question, so an old response cannot be replayed), the responder's `from` and `timestamp`, the HTTP
 * `status` and the body. The `status` key keeps a response envelope from ever reading as a request
 * envelope, so a response signature can never pass as a request signature.
 */
export interface ResponseEnvelopeFields {
  readonly capability: string;
  readonly version: string;
  readonly requestId: string;
  /** `X-HearthNet-From` of the response: the responding node's full node id. */
  readonly from: string;
  /** `X-HearthNet-Timestamp` of the response. */
  readonly timestamp: string;
  /** The HTTP status. */
  readonly status: number;
  /** The response body, as parsed JSON. */
  readonly body: unknown;
}

/** The object whose canonical JSON a response signature covers; see {@link ResponseEnvelopeFields}. */
export interface ResponseEnvelope {
  readonly capability: string;
  readonly version: string;
  readonly request_id: string;
  readonly from: string;
  readonly timestamp: string;
  readonly status: number;
  readonly body: unknown;
}

/**
 * The result of signing an envelope: the `X-HearthNet-Signature` value and the body with every number
 * replaced by its canonical value. Send that body (e.g. as `canonicalJsonString(body)`): it is what
 * the signature covers, byte for byte after the receiver re-canonicalises it.
 */
export interface SignedEnvelope {
  readonly signature: string;
  readonly body: unknown;
}

/**
 * The envelope object of contract §5.1 for a request's fields.
 *
 * @throws {HearthNetLocalError} `invalid_envelope` when a field is missing or not a string.
 */
export function requestEnvelope(fields: RequestEnvelopeFields): RequestEnvelope {
  const text = (name: keyof RequestEnvelopeFields) => requireString(fields, name);
  return {
    capability: text('capability'),
    version: text('version'),
    request_id: text('requestId'),
    from: text('from'),
    community: text('community'),
    timestamp: text('timestamp'),
    body: requireBody(fields),
  };
}

/**
 * The envelope object of a response; see {@link ResponseEnvelopeFields}.
 *
 * @throws {HearthNetLocalError} `invalid_envelope` when a field is missing or of the wrong type.
 */
export function responseEnvelope(fields: ResponseEnvelopeFields): ResponseEnvelope {
  const text = (name: keyof ResponseEnvelopeFields) => requireString(fields, name);
  const status = (fields as Partial<ResponseEnvelopeFields>)?.status;
  if (!Number.isSafeInteger(status) || (status as number) < 100 || (status as number) > 599) {
    throw new HearthNetLocalError(
      'invalid_envelope',
      `status must be an HTTP status code, got ${String(status)}`,
    );
  }
  return {
    capability: text('capability'),
    version: text('version'),
    request_id: text('requestId'),
    from: text('from'),
    timestamp: text('timestamp'),
    status: status as number,
    body: requireBody(fields),
  };
}

/**
 * The bytes a request signature covers: canonical JSON (contract §1.2) of the §5.1 envelope.
 *
 * @throws {HearthNetLocalError} `invalid_envelope` for a malformed field; a canonical JSON code for a body
 *   canonical JSON cannot write.
 * @example
 * new TextDecoder().decode(requestEnvelopeBytes({ capability: 'market.post', version: '1.0', … }));
 * // '{"body":{…},"capability":"market.post","community":"ed25519:…","from":"ed25519:…",…}'
 */
export function requestEnvelopeBytes(fields: RequestEnvelopeFields): Uint8Array {
  return canonicalJson(requestEnvelope(fields));
}

/** The bytes a response signature covers: canonical JSON of `{capability, version, request_id, from, timestamp, status, body}`. */
export function responseEnvelopeBytes(fields: ResponseEnvelopeFields): Uint8Array {
  return canonicalJson(responseEnvelope(fields));
}

/**
 * Signs a request (contract §5.1, §10): Ed25519 over the canonical JSON of the synthetic envelope,
 * numbers normalised first (see `signPayload`). `fields.from` must be the signer's node id when a
 * key pair is given, and `fields.timestamp` an RFC 3339 UTC timestamp.
 *
 * @throws {HearthNetLocalError} `invalid_envelope`; `invalid_key`; a canonical JSON code.
 * @example
 * const { signature, body } = signRequestEnvelope(
 *   { capability: 'market.post', version: '1.0', requestId: newRequestId(), from: me.nodeId,
 *     community, timestamp: formatWireTimestamp(Date.now()), body: { params: {}, input } },
 *   me,
 * );
 */
export function signRequestEnvelope(
  fields: RequestEnvelopeFields,
  key: KeyPair | Uint8Array,
): SignedEnvelope {
  const envelope = requestEnvelope(fields);
  checkSigner(envelope.from, envelope.timestamp, key);
  return signEnvelope(envelope, key);
}

/**
 * Verifies a request signature against the key of `fields.from` (contract §5.1: "servers verify by
 * reconstructing this object"). Never throws: a malformed envelope is `{ valid: false, reason:
 * 'not_an_object' }`; see `verifyPayload` for the other reasons. Timestamp window and replay checks
 * are separate (see `RequestVerifier`).
 */
export function verifyRequestEnvelope(
  fields: RequestEnvelopeFields,
  signature: string,
  options: VerifyPayloadOptions = {},
): PayloadVerification {
  let envelope: RequestEnvelope;
  try {
    envelope = requestEnvelope(fields);
  } catch (error) {
    return { valid: false, reason: 'not_an_object', detail: (error as Error).message };
  }
  return verifyPayload({ ...envelope, signature }, envelope.from, options);
}

/** Signs a response (contract §5.2) as {@link signRequestEnvelope} signs a request. */
export function signResponseEnvelope(
  fields: ResponseEnvelopeFields,
  key: KeyPair | Uint8Array,
): SignedEnvelope {
  const envelope = responseEnvelope(fields);
  checkSigner(envelope.from, envelope.timestamp, key);
  return signEnvelope(envelope, key);
}

/** Verifies a response signature against the key of `fields.from`; never throws (see {@link verifyRequestEnvelope}). */
export function verifyResponseEnvelope(
  fields: ResponseEnvelopeFields,
  signature: string,
  options: VerifyPayloadOptions = {},
): PayloadVerification {
  let envelope: ResponseEnvelope;
  try {
    envelope = responseEnvelope(fields);
  } catch (error) {
    return { valid: false, reason: 'not_an_object', detail: (error as Error).message };
  }
  return verifyPayload({ ...envelope, signature }, envelope.from, options);
}

function signEnvelope(
  envelope: RequestEnvelope | ResponseEnvelope,
  key: KeyPair | Uint8Array,
): SignedEnvelope {
  const signed = signPayload(envelope as unknown as Readonly<Record<string, unknown>>, key);
  return { signature: signed.signature, body: signed['body'] };
}

function checkSigner(from: string, timestamp: string, key: KeyPair | Uint8Array): void {
  if (parseWireTimestamp(timestamp) === undefined) {
    throw new HearthNetLocalError(
      'invalid_envelope',
      `timestamp must be RFC 3339 UTC with Z, got ${JSON.stringify(timestamp)}`,
    );
  }
  if (!(key instanceof Uint8Array) && typeof key === 'object' && key !== null && key.nodeId !== from) {
    throw new HearthNetLocalError(
      'invalid_envelope',
      `from (${from}) is not the signing key's node id (${key.nodeId})`,
    );
  }
}

function requireString<T extends object>(fields: T, name: keyof T & string): string {
  const value = fields === null || typeof fields !== 'object' ? undefined : fields[name];
  if (typeof value !== 'string')
    throw new HearthNetLocalError('invalid_envelope', `${name} must be a string`);
  return value;
}

function requireBody(fields: object): unknown {
  if (fields === null || typeof fields !== 'object' || !('body' in fields) || fields.body === undefined) {
    throw new HearthNetLocalError('invalid_envelope', 'body is required');
  }
  return fields.body;
}

/** The path every capability call is POSTed to (contract §5.1). */
export const BUS_CALL_PATH = '/bus/v1/call';

/**
 * The `X-HearthNet-*` headers of contract §5.1 (requests) and §5.2–§5.4 (responses). Header names
 * are case-insensitive on the wire; these are the spellings we send.
 */
export const WIRE_HEADERS = {
  capability: 'X-HearthNet-Capability',
  capabilityVersion: 'X-HearthNet-Capability-Version',
  requestId: 'X-HearthNet-Request-Id',
  from: 'X-HearthNet-From',
  community: 'X-HearthNet-Community',
  timestamp: 'X-HearthNet-Timestamp',
  signature: 'X-HearthNet-Signature',
} as const;

/**
 * Sent with a client stream: the number of server frames the client lets be unacknowledged
 * (contract §5.3 `ack`). The server then waits for `ack` frames once that many are outstanding.
 * Not a contract header: an agentwire extension for client streams.
 */
export const ACK_WINDOW_HEADER = 'X-HearthNet-Ack-Window';

/** `Content-Type` of JSON bodies (contract §5.1, §5.2, §5.4). */
export const JSON_CONTENT_TYPE = 'application/json';
/** `Content-Type` of stream responses (contract §5.3). */
export const EVENT_STREAM_CONTENT_TYPE = 'text/event-stream';

/** Whether a `Content-Type` (parameters such as `; charset=utf-8` allowed) names `mediaType`. */
export function isMediaType(contentType: string | null, mediaType: string): boolean {
  if (contentType === null) return false;
  return contentType.split(';')[0]?.trim().toLowerCase() === mediaType;
}

/** Whether an `Accept` header lists `mediaType` (or `*\/*`), ignoring quality parameters. */
export function accepts(accept: string | null, mediaType: string): boolean {
  if (accept === null) return false;
  return accept.split(',').some((part) => {
    const type = part.split(';')[0]?.trim().toLowerCase();
    return type === mediaType || type === '*/*';
  });
}

/** What we accept as a request id from a peer: printable ASCII without spaces, 1–128 characters. */
const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * A fresh request id: a ULID (48-bit millisecond time + 80 random bits, Crockford base32, 26
 * characters), the `<trace_id_ulid>` of contract §5.1.
 *
 * @example
 * newRequestId(); // '01JH4Z3Q8M9X2V7K5T1C0RWEYD'
 */
export function newRequestId(epochMs: number = Date.now()): string {
  const time = Math.min(MAX_ULID_TIME, Math.max(0, Math.floor(epochMs)));
  return encodeUlid(time, globalThis.crypto.getRandomValues(new Uint8Array(ULID_RANDOM_BYTES)));
}

/**
 * Whether a peer's request id is acceptable: 1–128 printable ASCII characters without spaces. Any
 * such string is taken, not only ULIDs: the reference client sends 16 hex characters.
 */
export function isAcceptableRequestId(value: unknown): value is string {
  return typeof value === 'string' && REQUEST_ID.test(value);
}

/** RFC 3339 UTC with `Z`, whole seconds or milliseconds (contract §1.1). */
const WIRE_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z$/;

/**
 * The `X-HearthNet-Timestamp` of a moment (contract §1.1, §5.1): RFC 3339 UTC with `Z`, whole
 * seconds, e.g. `2026-05-26T08:14:22Z` (the form the reference client sends too).
 *
 * @example
 * formatWireTimestamp(Date.UTC(2026, 4, 26, 8, 14, 22, 281)); // '2026-05-26T08:14:22Z'
 */
export function formatWireTimestamp(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19)}Z`;
}

/**
 * The epoch milliseconds of a wire timestamp, or `undefined` when it is not RFC 3339 UTC with `Z`
 * and at most millisecond precision (contract §1.1: no offsets) or names no real date.
 */
export function parseWireTimestamp(text: string): number | undefined {
  const match = WIRE_TIMESTAMP.exec(text);
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[];
  const ms = match[7] === undefined ? 0 : Number(match[7].padEnd(3, '0'));
  const epochMs = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!, ms);
  const check = new Date(epochMs);
  const sameFields =
    check.getUTCFullYear() === year &&
    check.getUTCMonth() === month! - 1 &&
    check.getUTCDate() === day &&
    check.getUTCHours() === hour &&
    check.getUTCMinutes() === minute &&
    check.getUTCSeconds() === second;
  return sameFields ? epochMs : undefined;
}

/** Capability name endings whose responses must be verified (contract §5.2). */
const MUTATING_SUFFIXES = ['post', 'invite', 'revoke', 'ingest', 'expire'] as const;

/**
 * Whether a client must verify the response signature of a capability (contract §5.2): every
 * `*.post`, `*.invite`, `*.revoke`, `*.ingest`, `*.expire`, and `chat.send`. Clients may ignore the
 * signature of the others.
 *
 * @example
 * isResponseSignatureMandatory('market.post'); // true
 * isResponseSignatureMandatory('market.list'); // false
 */
export function isResponseSignatureMandatory(capability: string): boolean {
  if (capability === 'chat.send') return true;
  const last = capability.slice(capability.lastIndexOf('.') + 1);
  return capability.includes('.') && (MUTATING_SUFFIXES as readonly string[]).includes(last);
}
