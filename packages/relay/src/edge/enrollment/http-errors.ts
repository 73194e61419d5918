import { EdgeHttpError } from '../http/errors.js';
import type { EnrollmentTokenRefusal } from './enrollment-token-store.js';

/**
 * The body is not UTF-8 JSON (`invalid_json`) or not of the endpoint's shape (`invalid_body`); the
 * message names the refused field and what is wrong with it, never its value. Answered 400.
 */
export class EnrollmentRequestBodyError extends EdgeHttpError {
  override readonly name = 'EnrollmentRequestBodyError';
  readonly code = 'enrollment_invalid_body';
  readonly status = 400;
  readonly responseCode: 'invalid_json' | 'invalid_body';

  constructor(responseCode: 'invalid_json' | 'invalid_body', message: string, path = 'body') {
    super(message, path);
    this.responseCode = responseCode;
  }
}

const TOKEN_REFUSALS: Readonly<Record<EnrollmentTokenRefusal, string>> = {
  unknown: 'the enrollment token is not valid',
  used: 'the enrollment token was already used',
  expired: 'the enrollment token has expired',
  tenant_mismatch: "the enrollment token was not issued to the caller's tenant",
};

/** The one-time enrollment token is unknown, used, expired or another tenant's. Answered 403. */
export class EnrollmentTokenRejectedError extends EdgeHttpError {
  override readonly name = 'EnrollmentTokenRejectedError';
  readonly code = 'enrollment_token_rejected';
  readonly status = 403;
  readonly responseCode = 'enrollment_token_rejected';

  constructor(readonly reason: EnrollmentTokenRefusal) {
    super(TOKEN_REFUSALS[reason], 'body.enrollmentToken');
  }
}

/** The gateway id belongs to another tenant. Answered 409. */
export class GatewayIdConflictError extends EdgeHttpError {
  override readonly name = 'GatewayIdConflictError';
  readonly code = 'enrollment_gateway_conflict';
  readonly status = 409;
  readonly responseCode = 'gateway_conflict';

  constructor() {
    super('the gateway id belongs to another tenant', 'body.gatewayId');
  }
}

/** `/relay/provision` for a revoked gateway: only a new enrollment lifts a revocation. Answered 403. */
export class ProvisionRevokedGatewayError extends EdgeHttpError {
  override readonly name = 'ProvisionRevokedGatewayError';
  readonly code = 'enrollment_gateway_revoked';
  readonly status = 403;
  readonly responseCode = 'gateway_revoked';

  constructor() {
    super('the gateway was revoked; enroll it again', 'body.gatewayId');
  }
}
