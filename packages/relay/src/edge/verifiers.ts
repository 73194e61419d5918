import {
  createHash,
  createHmac,
  createPublicKey,
  type KeyObject,
  timingSafeEqual,
  verify,
} from 'node:crypto';
import {
  compareCodePoints,
  decodeBase64 as decodeBase64OrRefuse,
  decodeHex as decodeHexOrRefuse,
  describeType,
  isRefusal,
} from '@agentwire/internal';

import { RelayError } from '../errors.js';

/** Default and documented allowance between a signed timestamp and the clock: five minutes. */
export const DEFAULT_MAX_SKEW_SECONDS = 300;

/** Throws `invalid_argument` unless `value` is an object (the options bag). */
export function assertOptions(value: unknown): asserts value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RelayError('invalid_argument', `options must be an object, got ${describeType(value)}`, {
      path: 'options',
    });
  }
}

/** Throws `invalid_argument` unless `value` is a non-empty string. */
export function assertNonEmptyString(value: unknown, path: string): asserts value is string {
  if (typeof value !== 'string' || value === '') {
    const got = typeof value === 'string' ? 'an empty string' : describeType(value);
    throw new RelayError('invalid_argument', `${path} must be a non-empty string, got ${got}`, { path });
  }
}

/** The allowed skew in whole seconds: `value`, or {@link DEFAULT_MAX_SKEW_SECONDS} when undefined. */
export function maxSkewSeconds(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_SKEW_SECONDS;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new RelayError(
      'invalid_argument',
      `maxSkewSeconds must be a safe integer ≥ 0, got ${typeof value === 'number' ? value : describeType(value)}`,
      { path: 'maxSkewSeconds' },
    );
  }
  return value;
}

/** Whole unix seconds: `now` truncated, or the current time when undefined (`path` names the option). */
export function unixSeconds(now: unknown, path = 'now'): number {
  if (now === undefined) return Math.floor(Date.now() / 1000);
  if (typeof now !== 'number' || !Number.isFinite(now) || now < 0 || now > Number.MAX_SAFE_INTEGER) {
    throw new RelayError(
      'invalid_argument',
      `${path} must be a finite, non-negative number of unix seconds, got ${typeof now === 'number' ? now : describeType(now)}`,
      { path },
    );
  }
  return Math.floor(now);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes of a hex text (either case) of exactly `length` bytes, or `undefined`. */
export function decodeHex(text: string, length: number): Uint8Array | undefined {
  if (text.length !== length * 2) return undefined;
  const bytes = decodeHexOrRefuse(text);
  return isRefusal(bytes) ? undefined : bytes;
}

/**
 * The bytes of a text in canonical padded standard base64 (RFC 4648 §4, unused bits zero), or
 * `undefined` for anything else: no whitespace, no URL-safe alphabet, no missing padding.
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  const bytes = decodeBase64OrRefuse(text);
  return isRefusal(bytes) ? undefined : bytes;
}

/** The text of well-formed UTF-8 `bytes` (a leading BOM is kept as U+FEFF), or `undefined`. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Whether two byte strings are equal, in time that depends only on their lengths. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The JSON value of a UTF-8 body; throws `malformed_body` for anything else (a BOM included). */
export function parseJsonBody(body: Uint8Array): unknown {
  const text = decodeUtf8(body);
  if (text === undefined)
    throw new RelayError('malformed_body', 'the body is not well-formed UTF-8', { path: 'body' });
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RelayError('malformed_body', 'the body is not JSON', { path: 'body', cause: error });
  }
}

/**
 * An inbound webhook request exactly as it reached the edge. `url` is the absolute URL the provider
 * called, as the provider wrote it (scheme, public host, path and raw query string — behind a
 * proxy, rebuild the public URL, not the internal one); `body` holds the raw bytes, unparsed.
 */
export interface EdgeRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly body: Uint8Array;
}

/**
 * Checks the shape of `request` and returns its parsed URL. Throws `invalid_argument`
 * for a request that is not an {@link EdgeRequest} or whose `url` is not absolute.
 */
export function parseEdgeRequest(request: unknown): URL {
  if (typeof request !== 'object' || request === null) {
    throw new RelayError('invalid_argument', `request must be an object, got ${describeType(request)}`, {
      path: 'request',
    });
  }
  const { method, url, headers, body } = request as Partial<Record<keyof EdgeRequest, unknown>>;
  if (typeof method !== 'string' || method === '') {
    throw new RelayError('invalid_argument', 'request.method must be a non-empty string', {
      path: 'request.method',
    });
  }
  if (!(headers instanceof Headers)) {
    throw new RelayError(
      'invalid_argument',
      `request.headers must be a Headers instance, got ${describeType(headers)}`,
      { path: 'request.headers' },
    );
  }
  if (!(body instanceof Uint8Array)) {
    throw new RelayError('invalid_argument', `request.body must be a Uint8Array, got ${describeType(body)}`, {
      path: 'request.body',
    });
  }
  if (typeof url !== 'string') {
    throw new RelayError('invalid_argument', `request.url must be a string, got ${describeType(url)}`, {
      path: 'request.url',
    });
  }
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed === undefined) {
    throw new RelayError('invalid_argument', 'request.url must be an absolute URL', { path: 'request.url' });
  }
  return parsed;
}

/** The value of a header, or `undefined` when it is absent or empty. */
export function headerValue(headers: Headers, name: string): string | undefined {
  const value = headers.get(name);
  return value === null || value === '' ? undefined : value;
}

const UNIX_SECONDS = /^[0-9]{1,15}$/;

/**
 * The unix seconds a signed timestamp text names, once checked to be within `maxSkew` seconds of
 * `now` either way (the bounds included). Throws `malformed_timestamp` for anything but
 * 1 to 15 decimal digits and `stale_timestamp` outside the window.
 */
export function freshTimestamp(text: string, now: number, maxSkew: number, path: string): number {
  if (!UNIX_SECONDS.test(text)) {
    throw new RelayError('malformed_timestamp', `${path} must be unix seconds in decimal digits`, { path });
  }
  const timestamp = Number(text);
  if (Math.abs(now - timestamp) > maxSkew) {
    throw new RelayError(
      'stale_timestamp',
      `${path} ${timestamp} is more than ${maxSkew} s away from the clock (${now})`,
      { path },
    );
  }
  return timestamp;
}

/** The header holding the hex Ed25519 signature of a Discord interaction. */
export const DISCORD_SIGNATURE_HEADER = 'X-Signature-Ed25519';
/** The header holding the signed unix-seconds timestamp of a Discord interaction. */
export const DISCORD_TIMESTAMP_HEADER = 'X-Signature-Timestamp';

/** Options of {@link verifyDiscordInteraction}. */
export interface DiscordVerifierOptions {
  /** The application's public key from the Developer Portal: 64 hex characters (32 bytes). */
  readonly publicKey: string;
  /** Seconds the signed timestamp may be away from `now`, either way; default 300. */
  readonly maxSkewSeconds?: number | undefined;
  /** The clock in unix seconds (fractions are truncated); the current time when absent. */
  readonly now?: number | undefined;
}

/** A Discord interaction object: `type` 1 is a PING, which must be answered with `{ type: 1 }`. */
export interface DiscordInteraction {
  readonly type: number;
  readonly [field: string]: unknown;
}

/** A Discord interaction whose signature and timestamp checked out. */
export interface VerifiedDiscordInteraction {
  /** The parsed body. It still holds the interaction `token`: strip it before it leaves the edge. */
  readonly interaction: DiscordInteraction;
  /** The raw body, exactly the bytes that were signed. */
  readonly body: Uint8Array;
  /** The signed timestamp, in unix seconds. */
  readonly timestamp: number;
}

/**
 * Verifies a Discord interaction webhook: the `X-Signature-Ed25519` header must be the Ed25519
 * signature, under the application's public key, of the `X-Signature-Timestamp` header's bytes
 * followed by the raw body. Then the timestamp must be within `maxSkewSeconds` of the clock, and
 * only then is the body parsed: it must be a UTF-8 JSON object with an integer `type`.
 *
 * Throws a `RelayError` with code `missing_signature`, `malformed_signature` (not 128 hex
 * characters), `bad_signature`, `missing_timestamp`, `malformed_timestamp`, `stale_timestamp`,
 * `malformed_body`, or `invalid_argument` for unusable options. Answer every refusal
 * with 401: Discord probes endpoints with bad signatures.
 *
 * @example
 * const { interaction } = verifyDiscordInteraction(
 *   { method: 'POST', url, headers: request.headers, body: new Uint8Array(await request.arrayBuffer()) },
 *   { publicKey: process.env.DISCORD_PUBLIC_KEY! },
 * );
 * if (interaction.type === 1) return Response.json({ type: 1 });
 */
export function verifyDiscordInteraction(
  request: EdgeRequest,
  options: DiscordVerifierOptions,
): VerifiedDiscordInteraction {
  assertOptions(options);
  const key = discordPublicKey(options.publicKey);
  const maxSkew = maxSkewSeconds(options.maxSkewSeconds);
  const now = unixSeconds(options.now);
  parseEdgeRequest(request);
  const { headers, body } = request;

  const signatureText = headerValue(headers, DISCORD_SIGNATURE_HEADER);
  if (signatureText === undefined) {
    throw new RelayError('missing_signature', `no ${DISCORD_SIGNATURE_HEADER} header`, {
      path: DISCORD_SIGNATURE_HEADER,
    });
  }
  const timestampText = headerValue(headers, DISCORD_TIMESTAMP_HEADER);
  if (timestampText === undefined) {
    throw new RelayError('missing_timestamp', `no ${DISCORD_TIMESTAMP_HEADER} header`, {
      path: DISCORD_TIMESTAMP_HEADER,
    });
  }
  const signature = decodeHex(signatureText, 64);
  if (signature === undefined) {
    throw new RelayError('malformed_signature', `${DISCORD_SIGNATURE_HEADER} must be 128 hex characters`, {
      path: DISCORD_SIGNATURE_HEADER,
    });
  }
  const signed = Buffer.concat([Buffer.from(timestampText, 'utf8'), body]);
  if (!verify(null, signed, key, signature)) {
    throw new RelayError('bad_signature', 'the interaction is not signed by this application', {
      path: DISCORD_SIGNATURE_HEADER,
    });
  }
  const timestamp = freshTimestamp(timestampText, now, maxSkew, DISCORD_TIMESTAMP_HEADER);
  return { interaction: interactionOf(parseJsonBody(body)), body, timestamp };
}

/** The Ed25519 public key of a 64-hex-character application key. */
function discordPublicKey(publicKey: unknown): KeyObject {
  assertNonEmptyString(publicKey, 'publicKey');
  const raw = decodeHex(publicKey, 32);
  if (raw === undefined) {
    throw new RelayError('invalid_argument', 'publicKey must be 64 hex characters (32 bytes)', {
      path: 'publicKey',
    });
  }
  try {
    const x = Buffer.from(raw).toString('base64url');
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
  } catch (error) {
    throw new RelayError('invalid_argument', 'publicKey is not an Ed25519 public key', {
      path: 'publicKey',
      cause: error,
    });
  }
}

/** The parsed body as an interaction: a JSON object whose `type` is an integer. */
function interactionOf(value: unknown): DiscordInteraction {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RelayError('malformed_body', 'the interaction is not a JSON object', { path: 'body' });
  }
  if (!Number.isSafeInteger((value as { type?: unknown }).type)) {
    throw new RelayError('malformed_body', 'the interaction has no integer type', { path: 'body.type' });
  }
  return value as DiscordInteraction;
}

/** One decoded form parameter, in the order it came. */
export type TwilioParam = readonly [name: string, value: string];

/**
 * The parameters of an `application/x-www-form-urlencoded` body as the WHATWG form parser decodes
 * them (`+` is a space, percent-escapes are UTF-8, malformed sequences become U+FFFD), in order.
 */
export function parseFormParams(body: Uint8Array): readonly TwilioParam[] {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1');
  // Latin-1 keeps each byte as one code unit; re-encoding it as UTF-8 would change raw bytes, so
  // escape every non-ASCII byte and let the parser decode the escapes as UTF-8.
  const escaped = text.replace(/[\u0080-\u00ff]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return [...new URLSearchParams(escaped)];
}

/**
 * The text Twilio signs: the URL, then for every parameter name in code-point order, and for each of
 * its distinct values in code-point order, the name immediately followed by the value (Twilio's
 * validators drop repeated equal values and sort the rest).
 */
export function twilioSignedText(url: string, params: readonly TwilioParam[]): string {
  const valuesByName = new Map<string, Set<string>>();
  for (const [name, value] of params) {
    const values = valuesByName.get(name) ?? new Set<string>();
    values.add(value);
    valuesByName.set(name, values);
  }
  let text = url;
  for (const name of [...valuesByName.keys()].sort(compareCodePoints)) {
    for (const value of [...valuesByName.get(name)!].sort(compareCodePoints)) text += name + value;
  }
  return text;
}

const HIERARCHICAL = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([\s\S]*)$/;

/**
 * The texts of `url` that Twilio may have signed, as Twilio's own validators try them: the URL
 * without a port, then with one (the scheme's default port, 443 for https and 80 otherwise, when the
 * URL names none). Twilio's signing back end is inconsistent about the port, so a signature over
 * either is genuine. Nothing else is normalized: host case, percent-encoding and the query string
 * stay exactly as written.
 */
export function twilioUrlVariants(url: string): readonly string[] {
  const match = HIERARCHICAL.exec(url);
  if (match === null) return [url];
  const [, scheme = '', authority = '', rest = ''] = match;
  const at = authority.lastIndexOf('@');
  const userinfo = authority.slice(0, at + 1);
  const { host, port } = splitPort(authority.slice(at + 1));
  const prefix = `${scheme}://${userinfo}${host}`;
  const defaultPort = scheme.toLowerCase() === 'https' ? '443' : '80';
  const without = `${prefix}${rest}`;
  const withPort = `${prefix}:${port === undefined || port === '' ? defaultPort : port}${rest}`;
  return without === withPort ? [without] : [without, withPort];
}

/** A `host[:port]` split in two; `port` is undefined when there is no colon after the host. */
function splitPort(hostPort: string): { host: string; port: string | undefined } {
  const hostEnd = hostPort.startsWith('[') ? hostPort.indexOf(']') + 1 : 0;
  const colon = hostPort.indexOf(':', hostEnd);
  if (colon < 0 || !/^[0-9]*$/.test(hostPort.slice(colon + 1))) return { host: hostPort, port: undefined };
  return { host: hostPort.slice(0, colon), port: hostPort.slice(colon + 1) };
}

/** The header holding Twilio's base64 HMAC-SHA1 request signature. */
export const TWILIO_SIGNATURE_HEADER = 'X-Twilio-Signature';
/** The query parameter through which Twilio signs a JSON body's SHA-256. */
export const TWILIO_BODY_HASH_PARAM = 'bodySHA256';

const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/** Options of {@link verifyTwilioWebhook}. */
export interface TwilioVerifierOptions {
  /** The account's (primary) Auth Token, the HMAC key, used as its UTF-8 bytes. */
  readonly authToken: string;
}

/** A Twilio webhook whose signature checked out. */
export type VerifiedTwilioWebhook = VerifiedTwilioFormWebhook | VerifiedTwilioJsonWebhook;

/** A form-encoded (or bodiless) webhook: every parameter was covered by the signature. */
export interface VerifiedTwilioFormWebhook {
  readonly kind: 'form';
  /** The body's parameters in the order they came; empty for a bodiless request. */
  readonly params: readonly TwilioParam[];
  readonly body: Uint8Array;
  /** The URL text the signature covers (the request URL, with or without its port). */
  readonly signedUrl: string;
}

/** A JSON webhook: the signed `bodySHA256` query parameter matched the body. */
export interface VerifiedTwilioJsonWebhook {
  readonly kind: 'json';
  readonly json: unknown;
  readonly body: Uint8Array;
  /** The URL text the signature covers (the request URL, with or without its port). */
  readonly signedUrl: string;
}

/**
 * Verifies a Twilio webhook. `X-Twilio-Signature` must be the base64 HMAC-SHA1, keyed with the Auth
 * Token, of the request URL followed, for each parameter name in code-point order and each of its
 * distinct values in code-point order, by name + value. As Twilio's validators do, the URL both
 * without and with its port is tried. `request.url` must be
 * the URL configured in Twilio, query string included, exactly as written there.
 *
 * - URL with a `bodySHA256` query parameter (Twilio's JSON webhooks): the signature covers the URL
 *   alone, the parameter must equal the lowercase hex SHA-256 of the raw body, and the body must be
 *   JSON (`kind: 'json'`).
 * - Otherwise a non-empty body must be `application/x-www-form-urlencoded` and its decoded
 *   parameters are signed (`kind: 'form'`); a bodiless request (GET) signs the URL alone. A body
 *   of another type is refused, since no signature covers it.
 *
 * Throws a `RelayError` with code `missing_signature`, `malformed_signature` (not base64 of 20
 * bytes), `bad_signature`, `body_hash_mismatch`, `malformed_body`, or `invalid_argument` for
 * unusable options or a relative URL. Webhooks signed with a
 * Webhooks Rule's shared key (`X-Twilio-Webhooks-Signature-Settings`) are not supported.
 *
 * @example
 * const hook = verifyTwilioWebhook(
 *   { method: 'POST', url: 'https://edge.example.com/twilio/sms', headers, body },
 *   { authToken: process.env.TWILIO_AUTH_TOKEN! },
 * );
 * if (hook.kind === 'form') console.log(new Map(hook.params).get('Body'));
 */
export function verifyTwilioWebhook(
  request: EdgeRequest,
  options: TwilioVerifierOptions,
): VerifiedTwilioWebhook {
  assertOptions(options);
  assertNonEmptyString(options.authToken, 'authToken');
  const url = parseEdgeRequest(request);
  const { headers, body } = request;

  const signatureText = headerValue(headers, TWILIO_SIGNATURE_HEADER);
  if (signatureText === undefined) {
    throw new RelayError('missing_signature', `no ${TWILIO_SIGNATURE_HEADER} header`, {
      path: TWILIO_SIGNATURE_HEADER,
    });
  }
  const signature = decodeBase64(signatureText);
  if (signature?.length !== 20) {
    throw new RelayError(
      'malformed_signature',
      `${TWILIO_SIGNATURE_HEADER} must be the base64 of a 20-byte HMAC-SHA1`,
      { path: TWILIO_SIGNATURE_HEADER },
    );
  }

  const bodyHash = url.searchParams.get(TWILIO_BODY_HASH_PARAM);
  const params = bodyHash === null ? formParams(headers, body) : [];
  const signedUrl = matchingUrl(request.url, params, options.authToken, signature);
  if (signedUrl === undefined) {
    throw new RelayError('bad_signature', 'the request is not signed with this Auth Token', {
      path: TWILIO_SIGNATURE_HEADER,
    });
  }
  if (bodyHash === null) return { kind: 'form', params, body, signedUrl };

  const actual = createHash('sha256').update(body).digest('hex');
  if (!bytesEqual(Buffer.from(bodyHash, 'utf8'), Buffer.from(actual, 'utf8'))) {
    throw new RelayError(
      'body_hash_mismatch',
      `the body's SHA-256 is not the signed ${TWILIO_BODY_HASH_PARAM}`,
      { path: TWILIO_BODY_HASH_PARAM },
    );
  }
  return { kind: 'json', json: parseJsonBody(body), body, signedUrl };
}

/** The signed parameters of a request without `bodySHA256`: its form body's, or none. */
function formParams(headers: Headers, body: Uint8Array): readonly TwilioParam[] {
  if (body.length === 0) return [];
  const mediaType = (headers.get('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (mediaType !== FORM_MEDIA_TYPE) {
    throw new RelayError(
      'malformed_body',
      `a ${mediaType || 'untyped'} body without ${TWILIO_BODY_HASH_PARAM} is covered by no signature`,
      { path: 'body' },
    );
  }
  return parseFormParams(body);
}

/** The URL variant whose signature equals `signature`, or undefined; every variant is checked. */
function matchingUrl(
  url: string,
  params: readonly TwilioParam[],
  authToken: string,
  signature: Uint8Array,
): string | undefined {
  let match: string | undefined;
  for (const variant of twilioUrlVariants(url)) {
    const expected = createHmac('sha1', authToken).update(twilioSignedText(variant, params), 'utf8').digest();
    if (bytesEqual(expected, signature) && match === undefined) match = variant;
  }
  return match;
}
