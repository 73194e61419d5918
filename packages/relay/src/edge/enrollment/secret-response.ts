import type { GatewaySecretRecord } from '../../secrets/index.js';
import { EnrollmentCallbackError } from './errors.js';

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
 * @throws {EnrollmentCallbackError} the record is revoked or holds no secret (`source` broke its contract).
 */
export function credentialsBody(record: GatewaySecretRecord, source: string): GatewayCredentialsBody {
  const [secret] = record.secrets;
  if (secret === undefined || record.revoked) {
    throw new EnrollmentCallbackError(`${source} answered a record without a live secret`, 'secrets');
  }
  return { secret, deliveryKey: record.deliveryKey, tenant: record.tenant, gatewayId: record.gatewayId };
}
