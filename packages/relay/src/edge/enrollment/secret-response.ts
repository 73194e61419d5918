import { RelayError } from '../../errors.js';
import type { GatewaySecretRecord } from '../../secrets/index.js';

/** What enroll and provision answer about the gateway's credentials. */
export interface GatewayCredentialsBody {
  readonly secret: string;
  readonly deliveryKey: string;
  readonly tenant: string;
  readonly gatewayId: string;
}

/**
 * The credentials part of an enroll or provision answer.
 *
 * @throws {RelayError} `enrollment_callback_failed`: the record is revoked or holds no secret (`source` broke
 *   its contract).
 */
export function credentialsBody(record: GatewaySecretRecord, source: string): GatewayCredentialsBody {
  const [secret] = record.secrets;
  if (secret === undefined || record.revoked) {
    throw new RelayError('enrollment_callback_failed', `${source} answered a record without a live secret`, {
      path: 'secrets',
    });
  }
  return { secret, deliveryKey: record.deliveryKey, tenant: record.tenant, gatewayId: record.gatewayId };
}
