import { RelayError } from '../../errors.js';

/**
 * An argument the enrollment endpoints or their stores refuse: a handler option that is missing or
 * of the wrong type, or a tenant, token, gateway id or TTL a store cannot use. `path` names it.
 */
export class InvalidEnrollmentArgumentError extends RelayError {
  override readonly name = 'InvalidEnrollmentArgumentError';
  readonly code = 'invalid_enrollment_argument';
}

/**
 * A pluggable verifier or store broke its contract: the identity verifier answered something other
 * than `{subject, tenant}` or `null`, or the secret store answered a live record without a secret.
 * The endpoint answers 500 and hands this error to `onError`.
 */
export class EnrollmentCallbackError extends RelayError {
  override readonly name = 'EnrollmentCallbackError';
  readonly code = 'enrollment_callback_failed';
}
