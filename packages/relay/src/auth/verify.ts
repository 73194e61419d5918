import { hexToBytes } from '@noble/hashes/utils.js';
import { RelayError } from '../errors.js';
import { assertSafeInteger, describe } from './arguments.js';
import { unixSeconds } from './clock.js';
import { constantTimeEqual } from './constant-time.js';
import { hmacSha256 } from './hmac-sha256.js';
import { type ParsedRelayToken, parseRelayToken } from './parse.js';
import { utf8Strict } from './utf8.js';

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
      `secrets must be an array of strings, got ${describe(secrets)}`,
      { path: 'secrets' },
    );
  }
  return secrets.map((secret: unknown, i) => {
    const path = `secrets[${i}]`;
    if (typeof secret !== 'string') {
      throw new RelayError(
        'relay_token_invalid_argument',
        `${path} must be a string, got ${describe(secret)}`,
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
