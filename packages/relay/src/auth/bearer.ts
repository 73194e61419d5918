import { RelayError } from '../errors.js';
import { assertString, describe } from './arguments.js';
import { type MintRelayTokenOptions, mintRelayToken } from './mint.js';
import {
  prepareVerification,
  type RelayTokenVerification,
  rejected,
  type VerifyRelayTokenOptions,
  verifyPrepared,
} from './verify.js';

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
      `the Authorization header must be a string, got ${describe(authorization)}`,
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
