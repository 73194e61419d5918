import {
  peekRelayTokenGatewayId,
  RELAY_CLOSE_REASON_EXPIRED,
  RELAY_CLOSE_REASON_UNAUTHORIZED,
  type RelayAuthCloseReason,
  type RelayTokenVerification,
  readBearerToken,
  verifyRelayToken,
} from '../auth/index.js';
import { RelayError } from '../errors.js';
import { callbackError } from './errors.js';
import type { GatewayCredentials } from './options.js';

/** An upgrade whose bearer token verified against its gateway's secrets. */
export interface UpgradeAccepted {
  readonly ok: true;
  readonly gatewayId: string;
  readonly tenant: string;
}

/** A refused upgrade: the close reason to send with 4401, and a sentence for logs. */
export interface UpgradeRefused {
  readonly ok: false;
  readonly reason: RelayAuthCloseReason;
  readonly detail: string;
}

/** What {@link authenticateUpgrade} needs besides the header. */
export interface UpgradeAuthSettings {
  readonly authenticate: (
    gatewayId: string,
  ) => GatewayCredentials | null | Promise<GatewayCredentials | null>;
  /** Unix seconds. */
  readonly nowSeconds: number;
  readonly skewSeconds: number;
}

/**
 * Authenticates a `/relay` upgrade from its `Authorization` header: reads the bearer token, peeks the
 * gateway id, looks the gateway up with `authenticate`, and verifies the token against that
 * gateway's secret list. Only a validly signed token past its expiry is refused as `expired`; no
 * token, a malformed or forged one, an unknown or revoked gateway are all `unauthorized`.
 *
 * @throws {RelayError} `relay_server_callback_failed`: `authenticate` threw, or returned no tenant or an
 * unusable secret list.
 */
export async function authenticateUpgrade(
  authorization: string | undefined,
  settings: UpgradeAuthSettings,
): Promise<UpgradeAccepted | UpgradeRefused> {
  let gatewayId: string;
  let token: string | undefined;
  try {
    token = readBearerToken(authorization);
    if (token === undefined) return refused(RELAY_CLOSE_REASON_UNAUTHORIZED, 'no bearer token');
    gatewayId = peekRelayTokenGatewayId(token);
  } catch (error) {
    if (error instanceof RelayError && error.code === 'relay_token_malformed')
      return refused(RELAY_CLOSE_REASON_UNAUTHORIZED, error.message);
    throw error;
  }
  let credentials: GatewayCredentials | null;
  try {
    credentials = await settings.authenticate(gatewayId);
  } catch (error) {
    throw callbackError('authenticate', error);
  }
  if (credentials === null)
    return refused(RELAY_CLOSE_REASON_UNAUTHORIZED, `unknown gateway ${JSON.stringify(gatewayId)}`);
  if (
    typeof credentials !== 'object' ||
    typeof credentials.tenant !== 'string' ||
    credentials.tenant === ''
  ) {
    throw callbackError('authenticate', 'returned no non-empty tenant string');
  }
  let result: RelayTokenVerification;
  try {
    result = verifyRelayToken(token, credentials.secrets, {
      now: settings.nowSeconds,
      skewSeconds: settings.skewSeconds,
    });
  } catch (error) {
    throw callbackError('authenticate', error);
  }
  if (!result.valid) {
    const reason = result.reason === 'expired' ? RELAY_CLOSE_REASON_EXPIRED : RELAY_CLOSE_REASON_UNAUTHORIZED;
    return refused(reason, result.detail);
  }
  return { ok: true, gatewayId, tenant: credentials.tenant };
}

function refused(reason: RelayAuthCloseReason, detail: string): UpgradeRefused {
  return { ok: false, reason, detail };
}
