import { decodeBase64Url, describeType, encodeBase64Url } from '@agentwire/internal';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { RelayError } from './errors.js';

/** Throws a `RelayError` `relay_token_invalid_argument` unless `value` is a string. */

export function assertString(value: unknown, path: string): asserts value is string {
  if (typeof value !== 'string') {
    throw new RelayError(
      'relay_token_invalid_argument',
      `${path} must be a string, got ${describeType(value)}`,
      {
        path,
      },
    );
  }
}

/**
 * Throws a `RelayError` `relay_token_invalid_argument` unless `value` is a safe integer (at least `min` when
 * given).
 */
export function assertSafeInteger(value: unknown, path: string, min?: number): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || (min !== undefined && value < min)) {
    const range = min === undefined ? 'a safe integer' : `a safe integer ≥ ${min}`;
    throw new RelayError(
      'relay_token_invalid_argument',
      `${path} must be ${range}, got ${typeof value === 'number' ? value : describeType(value)}`,
      { path },
    );
  }
}

/**
 * Whole unix seconds: `now` truncated (Python's `int(time.time())`), or the current time when `now` is
 * undefined. Throws a `RelayError` `relay_token_invalid_argument` for a negative, non-finite or non-number
 * `now`.
 */
export function unixSeconds(now: number | undefined): number {
  if (now === undefined) return Math.floor(Date.now() / 1000);
  if (typeof now !== 'number' || !Number.isFinite(now) || now < 0 || now > Number.MAX_SAFE_INTEGER) {
    throw new RelayError(
      'relay_token_invalid_argument',
      `now must be a finite, non-negative number of unix seconds, got ${typeof now === 'number' ? now : describeType(now)}`,
      { path: 'now' },
    );
  }
  return Math.floor(now);
}

const encoder = new TextEncoder();
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * UTF-8 bytes of `text`; throws a `RelayError` `relay_token_unpaired_surrogate` (at `path`) for an unpaired
 * surrogate.
 */
export function utf8Strict(text: string, path: string): Uint8Array {
  const match = UNPAIRED_SURROGATE.exec(text);
  if (match !== null) {
    throw new RelayError(
      'relay_token_unpaired_surrogate',
      `${path} holds an unpaired surrogate at index ${match.index}, which has no UTF-8 form`,
      { path },
    );
  }
  return encoder.encode(text);
}

/** HMAC-SHA-256 (RFC 2104 over FIPS 180-4) of `message` under `key`: 32 bytes. */
export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  return hmac(sha256, key, message);
}

/**
 * The gateway's and connector's `sign`: lowercase hex HMAC-SHA-256 of the UTF-8 bytes of `message`,
 * keyed with the UTF-8 bytes of `secret` exactly as written. A secret that looks like hex is not
 * hex-decoded.
 *
 * @example
 * relaySign('gw-1:0', 'secret'); // 64 lowercase hex characters
 */
export function relaySign(message: string, secret: string): string {
  assertString(message, 'message');
  assertString(secret, 'secret');
  return bytesToHex(hmacSha256(utf8Strict(secret, 'secret'), utf8Strict(message, 'message')));
}

/** The lifetime of a WS-upgrade token when none is given (the gateway's `make_upgrade_token` default). */
export const RELAY_UPGRADE_TOKEN_TTL_SECONDS = 300;

/** Options of {@link makeToken}. */
export interface MakeTokenOptions {
  /** The clock in unix seconds (fractions are truncated); the current time when absent. */
  readonly now?: number | undefined;
}

/** Options of {@link mintRelayToken}. */
export interface MintRelayTokenOptions extends MakeTokenOptions {
  /** Seconds until expiry; `0` or less makes a token that never expires. Default 300. */
  readonly ttlSeconds?: number | undefined;
}

/**
 * Builds a signed, optionally expiring token exactly as the gateway's `make_token` and the
 * connector's `makeToken` do: `exp` is `now + ttlSeconds` in whole unix seconds when
 * `ttlSeconds > 0`, else `0` (never expires); the token is base64url without padding of the UTF-8
 * text `payload:exp:sig`, where `sig` is {@link relaySign} of `payload:exp`. A payload may contain
 * `:` (verifiers split from the right). An empty secret is accepted here, as the gateway accepts it,
 * though no verifier will accept the token.
 *
 * @example
 * makeToken('gw-instance-1', '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff', 0);
 * // 'Z3ctaW5zdGFuY2UtMTowOjM3YWE3YjE0NWU4NzY0ZDQwM2JhOWM2MzlmMjMwZGQ2M2RlOGVkOTliODhmZWQzNmFhMDI2MjVhOGE3ZTM1NjQ'
 */
export function makeToken(
  payload: string,
  secret: string,
  ttlSeconds = 0,
  options: MakeTokenOptions = {},
): string {
  assertString(payload, 'payload');
  assertString(secret, 'secret');
  assertSafeInteger(ttlSeconds, 'ttlSeconds');
  utf8Strict(payload, 'payload');
  utf8Strict(secret, 'secret');
  const exp = ttlSeconds > 0 ? unixSeconds(options.now) + ttlSeconds : 0;
  if (exp > Number.MAX_SAFE_INTEGER) {
    throw new RelayError(
      'relay_token_invalid_argument',
      `now + ttlSeconds (${exp}) is beyond the safe integer range`,
      { path: 'ttlSeconds' },
    );
  }
  const signed = `${payload}:${exp}`;
  return encodeBase64Url(utf8Strict(`${signed}:${relaySign(signed, secret)}`, 'payload'));
}

/**
 * Mints the WS-upgrade bearer token a gateway presents on `/relay` (the gateway's
 * `make_upgrade_token`): {@link makeToken} with the gateway id as payload and a 300-second default
 * lifetime. Unlike `makeToken` it refuses an empty secret (`relay_secret_empty`), since the
 * verifier skips empty secrets and the token could never be accepted.
 *
 * @example
 * const token = mintRelayToken('gw-host-1', process.env.GATEWAY_RELAY_SECRET!);
 * headers.Authorization = relayAuthorizationHeader(token);
 */
export function mintRelayToken(
  gatewayId: string,
  secret: string,
  options: MintRelayTokenOptions = {},
): string {
  assertString(gatewayId, 'gatewayId');
  assertString(secret, 'secret');
  if (secret === '')
    throw new RelayError('relay_secret_empty', 'secret is empty; no verifier accepts such a token', {
      path: 'secret',
    });
  const ttlSeconds = options.ttlSeconds ?? RELAY_UPGRADE_TOKEN_TTL_SECONDS;
  return makeToken(gatewayId, secret, ttlSeconds, { now: options.now });
}

/**
 * Whether two byte strings are equal, in time that depends only on their lengths (every byte is
 * read, whatever the first difference).
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/** The parts of a channel token, as {@link parseRelayToken} reads them. No signature has been checked. */
export interface ParsedRelayToken {
  /** Everything before the last two `:` — the gateway id for an upgrade token. */
  readonly payload: string;
  /** Expiry in unix seconds; `0` means never. */
  readonly expiresAt: number;
  /** The HMAC-SHA-256 as 64 lowercase hex characters. */
  readonly signature: string;
  /** The text the signature covers: `payload:exp`. */
  readonly signedText: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const CANONICAL_EXP = /^(?:0|[1-9][0-9]{0,15})$/;
const LOWER_HEX_SHA256 = /^[0-9a-f]{64}$/;

/**
 * Reads a channel token in its one canonical form — the form every minter produces — and throws
 * a `RelayError` `relay_token_malformed` for anything else. The token must be strict unpadded base64url of
 * valid UTF-8 `payload:exp:sig`, split from the right; `exp` a decimal integer without sign, leading
 * zeros or whitespace; `sig` 64 lowercase hex characters.
 *
 * The Python mirror (`verify_token`) is more lenient: it also decodes padded or standard-alphabet
 * base64, skips stray characters, reads `exp` with `int()` (`+5`, `007`, ` 5 `) and accepts
 * uppercase hex. Rejecting those keeps one accepted text per token, so changing any character of a
 * token makes it fail.
 *
 * @example
 * parseRelayToken(token); // { payload: 'gw-instance-1', expiresAt: 0, signature: '37aa…3564', signedText: 'gw-instance-1:0' }
 */
export function parseRelayToken(token: string): ParsedRelayToken {
  if (typeof token !== 'string')
    throw new RelayError('relay_token_malformed', 'a token must be a string', { path: 'token' });
  if (token === '') throw new RelayError('relay_token_malformed', 'the token is empty', { path: 'token' });
  const bytes = decodeBase64Url(token);
  if (!(bytes instanceof Uint8Array)) {
    throw new RelayError('relay_token_malformed', `the token is not unpadded base64url: ${bytes.refused}`, {
      path: 'token',
    });
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch (cause) {
    throw new RelayError('relay_token_malformed', 'the decoded token is not valid UTF-8', {
      path: 'token',
      cause,
    });
  }
  const sigColon = text.lastIndexOf(':');
  const expColon = sigColon > 0 ? text.lastIndexOf(':', sigColon - 1) : -1;
  if (expColon < 0) {
    throw new RelayError(
      'relay_token_malformed',
      'the decoded token has fewer than three `:`-separated parts',
      { path: 'token' },
    );
  }
  const payload = text.slice(0, expColon);
  const expText = text.slice(expColon + 1, sigColon);
  const signature = text.slice(sigColon + 1);
  if (!CANONICAL_EXP.test(expText) || Number(expText) > Number.MAX_SAFE_INTEGER) {
    throw new RelayError(
      'relay_token_malformed',
      `exp ${JSON.stringify(expText)} is not a canonical decimal number of unix seconds`,
      { path: 'token.exp' },
    );
  }
  if (!LOWER_HEX_SHA256.test(signature)) {
    throw new RelayError('relay_token_malformed', 'the signature is not 64 lowercase hex characters', {
      path: 'token.signature',
    });
  }
  return { payload, expiresAt: Number(expText), signature, signedText: `${payload}:${expText}` };
}

/**
 * The gateway id (payload) of a channel token, read without checking the signature, so a connector
 * can pick that gateway's secret list before calling `verifyRelayToken`. Throws
 * `relay_token_malformed` like {@link parseRelayToken}. Never trust the id before verifying.
 *
 * @example
 * const secrets = store.secretsFor(peekRelayTokenGatewayId(token));
 * const result = verifyRelayToken(token, secrets);
 */
export function peekRelayTokenGatewayId(token: string): string {
  return parseRelayToken(token).payload;
}

/**
 * Why a token was refused: no token at all (`missing`), not a token in canonical form (`malformed`),
 * no non-empty secret to check it with (`no_usable_secret`), no secret in the list signed it
 * (`bad_signature`), or signed but past its expiry (`expired`).
 */
export type RelayTokenRejectReason =
  | 'missing'
  | 'malformed'
  | 'no_usable_secret'
  | 'bad_signature'
  | 'expired';

/** A token that one of the secrets signed and that has not expired. */
export interface RelayTokenAccepted {
  readonly valid: true;
  /** The token's payload: the gateway id for an upgrade token. */
  readonly gatewayId: string;
  /** Expiry in unix seconds; `0` means never. */
  readonly expiresAt: number;
  /** The index in the verify list of the secret that signed it (lowest if several did). */
  readonly secretIndex: number;
}

/** A refused token. */
export interface RelayTokenRejected {
  readonly valid: false;
  readonly reason: RelayTokenRejectReason;
  /** A sentence for logs; never send it to the peer. */
  readonly detail: string;
}

/** The outcome of {@link verifyRelayToken}. */
export type RelayTokenVerification = RelayTokenAccepted | RelayTokenRejected;

/** Options of {@link verifyRelayToken}. */
export interface VerifyRelayTokenOptions {
  /** The clock in unix seconds (fractions are truncated); the current time when absent. */
  readonly now?: number | undefined;
  /**
   * Seconds a token stays acceptable after its expiry, for clock skew between gateway and connector.
   * Default `0`, as the reference `verify_token`; the real connector's allowance is not known.
   */
  readonly skewSeconds?: number | undefined;
}

/**
 * Verifies a channel token against a rotation list of secrets (primary first, then any secondary;
 * order does not change the outcome). Empty secrets are skipped. Every non-empty secret is checked
 * and compared in constant time, so the time taken does not say which secret matched or where a
 * forged signature differs. The token is valid at `now == exp` and never expires when `exp` is 0.
 *
 * The signature is checked before the expiry (the reference checks expiry first; both refuse the
 * same tokens): a forged, expired token is `bad_signature`, which maps to close reason
 * `unauthorized`, not `expired`. Tokens outside the canonical form are `malformed` (see
 * `parseRelayToken`). Returns a result for every token; throws a `RelayError`
 * `relay_token_invalid_argument` or `relay_token_unpaired_surrogate` only when `secrets` or the
 * options are unusable.
 *
 * @example
 * const result = verifyRelayToken(token, [primarySecret, previousSecret]);
 * if (!result.valid) socket.close(RELAY_CLOSE_UNAUTHORIZED, relayAuthClose(result)!.reason);
 */
export function verifyRelayToken(
  token: string | null | undefined,
  secrets: readonly string[],
  options: VerifyRelayTokenOptions = {},
): RelayTokenVerification {
  return verifyPrepared(token, prepareVerification(secrets, options));
}

/** The checked arguments of a verification. */
export interface PreparedVerification {
  /** The UTF-8 key of each secret, `undefined` for an empty one. */
  readonly keys: readonly (Uint8Array | undefined)[];
  readonly now: number;
  readonly skew: number;
}

/**
 * Checks the verify list and options, throwing `RelayError` `relay_token_invalid_argument` when they are
 * unusable.
 */
export function prepareVerification(
  secrets: readonly string[],
  options: VerifyRelayTokenOptions,
): PreparedVerification {
  const keys = secretKeys(secrets);
  const now = unixSeconds(options.now);
  const skew = options.skewSeconds ?? 0;
  assertSafeInteger(skew, 'skewSeconds', 0);
  return { keys, now, skew };
}

/** {@link verifyRelayToken} with arguments already checked. */
export function verifyPrepared(
  token: string | null | undefined,
  { keys, now, skew }: PreparedVerification,
): RelayTokenVerification {
  if (token === undefined || token === null || token === '') {
    return rejected('missing', 'no token was presented');
  }
  let parsed: ParsedRelayToken;
  try {
    parsed = parseRelayToken(token);
  } catch (error) {
    if (error instanceof RelayError && error.code === 'relay_token_malformed')
      return rejected('malformed', error.message);
    throw error;
  }
  if (!keys.some((key) => key !== undefined)) {
    return rejected('no_usable_secret', 'the verify list holds no non-empty secret');
  }
  const secretIndex = matchingSecret(parsed, keys);
  if (secretIndex < 0) return rejected('bad_signature', 'no secret in the verify list signed this token');
  if (parsed.expiresAt !== 0 && now > parsed.expiresAt + skew) {
    return rejected('expired', `the token expired at ${parsed.expiresAt}; now is ${now}`);
  }
  return { valid: true, gatewayId: parsed.payload, expiresAt: parsed.expiresAt, secretIndex };
}

/** The UTF-8 key of each secret, `undefined` for an empty one. */
function secretKeys(secrets: readonly string[]): readonly (Uint8Array | undefined)[] {
  if (!Array.isArray(secrets)) {
    throw new RelayError(
      'relay_token_invalid_argument',
      `secrets must be an array of strings, got ${describeType(secrets)}`,
      { path: 'secrets' },
    );
  }
  return secrets.map((secret: unknown, i) => {
    const path = `secrets[${i}]`;
    if (typeof secret !== 'string') {
      throw new RelayError(
        'relay_token_invalid_argument',
        `${path} must be a string, got ${describeType(secret)}`,
        { path },
      );
    }
    return secret === '' ? undefined : utf8Strict(secret, path);
  });
}

/** Index of the first key whose HMAC matches, or -1; every key is checked whatever the outcome. */
function matchingSecret(parsed: ParsedRelayToken, keys: readonly (Uint8Array | undefined)[]): number {
  const message = new TextEncoder().encode(parsed.signedText);
  const signature = hexToBytes(parsed.signature);
  let found = -1;
  keys.forEach((key, i) => {
    if (key === undefined) return;
    const equal = constantTimeEqual(hmacSha256(key, message), signature);
    if (equal && found < 0) found = i;
  });
  return found;
}

/** A refusal with its reason and a sentence for logs. */
export function rejected(reason: RelayTokenRejectReason, detail: string): RelayTokenRejected {
  return { valid: false, reason, detail };
}

const BEARER = /^Bearer +([^ ]+) *$/i;

/**
 * The `Authorization` header value carrying a channel token: `Bearer <token>`.
 *
 * @example
 * relayAuthorizationHeader(token); // 'Bearer Z3ct…'
 */
export function relayAuthorizationHeader(token: string): string {
  assertString(token, 'token');
  return `Bearer ${token}`;
}

/**
 * The token of an `Authorization: Bearer <token>` header (scheme matched case-insensitively), or
 * `undefined` when the header is absent or empty. Throws a `RelayError` `relay_token_malformed` (path
 * `authorization`) for a header in any other form. The token itself is not checked here.
 */
export function readBearerToken(authorization: string | null | undefined): string | undefined {
  if (authorization === undefined || authorization === null || authorization === '') return undefined;
  if (typeof authorization !== 'string') {
    throw new RelayError(
      'relay_token_malformed',
      `the Authorization header must be a string, got ${describeType(authorization)}`,
      { path: 'authorization' },
    );
  }
  const match = BEARER.exec(authorization);
  if (match === null) {
    throw new RelayError('relay_token_malformed', 'the Authorization header is not `Bearer <token>`', {
      path: 'authorization',
    });
  }
  return match[1];
}

/**
 * Verifies the `Authorization` header of a `/relay` upgrade request: `missing` when there is none,
 * `malformed` when it is not a bearer header, otherwise {@link verifyRelayToken} of its token.
 *
 * @example
 * const result = verifyRelayAuthorization(request.headers.authorization, secretsFor(request));
 */
export function verifyRelayAuthorization(
  authorization: string | null | undefined,
  secrets: readonly string[],
  options: VerifyRelayTokenOptions = {},
): RelayTokenVerification {
  const prepared = prepareVerification(secrets, options);
  let token: string | undefined;
  try {
    token = readBearerToken(authorization);
  } catch (error) {
    if (error instanceof RelayError && error.code === 'relay_token_malformed')
      return rejected('malformed', error.message);
    throw error;
  }
  return verifyPrepared(token, prepared);
}

/**
 * The headers a gateway adds to its `/relay` upgrade: `{ Authorization: 'Bearer <token>' }` with a
 * freshly minted token when both the gateway id and the secret are non-empty, else `{}` (an
 * unauthenticated dial, which an enforcing connector refuses with 4401). Mint on every dial.
 *
 * @example
 * new WebSocket(relayWebSocketUrl(base), { headers: relayUpgradeHeaders(gatewayId, secret) });
 */
export function relayUpgradeHeaders(
  gatewayId: string | null | undefined,
  secret: string | null | undefined,
  options: MintRelayTokenOptions = {},
): Record<string, string> {
  if (gatewayId === undefined || gatewayId === null || gatewayId === '') return {};
  if (secret === undefined || secret === null || secret === '') return {};
  return { Authorization: relayAuthorizationHeader(mintRelayToken(gatewayId, secret, options)) };
}

/**
 * The private-use WebSocket close code a connector sends when the upgrade's auth is missing,
 * invalid, expired or revoked. The baseline gateway reads a 4401 after a completed handshake as a
 * revocation and stops reconnecting; newer gateways first re-dial once with a fresh token, and never
 * treat reason {@link RELAY_CLOSE_REASON_EXPIRED} as a revocation.
 */
export const RELAY_CLOSE_UNAUTHORIZED = 4401;

/** Close reason for a token that was validly signed but has expired. */
export const RELAY_CLOSE_REASON_EXPIRED = 'expired';

/** Close reason for every other auth failure: no token, a bad or forged token, a revoked secret. */
export const RELAY_CLOSE_REASON_UNAUTHORIZED = 'unauthorized';

/** A close reason a connector sends with {@link RELAY_CLOSE_UNAUTHORIZED}. */
export type RelayAuthCloseReason = typeof RELAY_CLOSE_REASON_EXPIRED | typeof RELAY_CLOSE_REASON_UNAUTHORIZED;

/** The code and reason to close a refused upgrade with. */
export interface RelayAuthClose {
  readonly code: typeof RELAY_CLOSE_UNAUTHORIZED;
  readonly reason: RelayAuthCloseReason;
}

/**
 * How to close the socket after verifying its token: `undefined` when the token is valid, otherwise
 * code 4401 with reason `expired` for an expired token and `unauthorized` for any other refusal.
 *
 * @example
 * const close = relayAuthClose(verifyRelayToken(token, secrets));
 * if (close !== undefined) ws.close(close.code, close.reason);
 */
export function relayAuthClose(result: RelayTokenRejected): RelayAuthClose;
export function relayAuthClose(result: RelayTokenVerification): RelayAuthClose | undefined;
export function relayAuthClose(result: RelayTokenVerification): RelayAuthClose | undefined {
  if (typeof result !== 'object' || result === null || typeof result.valid !== 'boolean') {
    throw new RelayError(
      'relay_token_invalid_argument',
      `result must be a verification result, got ${describeType(result)}`,
      { path: 'result' },
    );
  }
  if (result.valid) return undefined;
  return {
    code: RELAY_CLOSE_UNAUTHORIZED,
    reason: result.reason === 'expired' ? RELAY_CLOSE_REASON_EXPIRED : RELAY_CLOSE_REASON_UNAUTHORIZED,
  };
}
