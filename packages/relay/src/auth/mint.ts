import { base64UrlEncodeNoPad } from '../encoding/base64.js';
import { RelayError } from '../errors.js';
import { assertSafeInteger, assertString } from './arguments.js';
import { unixSeconds } from './clock.js';
import { relaySign } from './hmac-sha256.js';
import { utf8Strict } from './utf8.js';

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
  return base64UrlEncodeNoPad(utf8Strict(`${signed}:${relaySign(signed, secret)}`, 'payload'));
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
