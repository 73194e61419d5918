import { RelayError } from '../../errors.js';
import type { EnrollmentTokenRefusal } from './enrollment-token-store.js';

/**
 * `enrollment_invalid_body` (400): the body is not UTF-8 JSON (`invalid_json`) or not of the
 * endpoint's shape (`invalid_body`), the answer's `error`; the message names the refused field and
 * what is wrong with it, never its value.
 */
export function enrollmentBodyRefused(
  refusal: 'invalid_json' | 'invalid_body',
  message: string,
  path = 'body',
): RelayError {
  return new RelayError('enrollment_invalid_body', message, { path, details: { bodyRefusal: refusal } });
}

const TOKEN_REFUSALS: Readonly<Record<EnrollmentTokenRefusal, string>> = {
  unknown: 'the enrollment token is not valid',
  used: 'the enrollment token was already used',
  expired: 'the enrollment token has expired',
  tenant_mismatch: "the enrollment token was not issued to the caller's tenant",
};

/** `enrollment_token_rejected` (403): the one-time token is unknown, used, expired or another tenant's. */
export function enrollmentTokenRejected(refusal: EnrollmentTokenRefusal): RelayError {
  return new RelayError('enrollment_token_rejected', TOKEN_REFUSALS[refusal], {
    path: 'body.enrollmentToken',
    details: { tokenRefusal: refusal },
  });
}

/** `enrollment_gateway_conflict` (409): the gateway id belongs to another tenant. */
export function gatewayIdConflict(): RelayError {
  return new RelayError('enrollment_gateway_conflict', 'the gateway id belongs to another tenant', {
    path: 'body.gatewayId',
  });
}

/**
 * `enrollment_gateway_revoked` (403): `/relay/provision` for a revoked gateway; only a new enrollment
 * lifts a revocation.
 */
export function provisionRevokedGateway(): RelayError {
  return new RelayError('enrollment_gateway_revoked', 'the gateway was revoked; enroll it again', {
    path: 'body.gatewayId',
  });
}
