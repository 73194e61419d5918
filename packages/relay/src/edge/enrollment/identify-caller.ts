import { isKeyString } from '../../buffer/key-string.js';
import { EdgeUnauthorizedError } from '../http/errors.js';
import type { CallerIdentity, CallerIdentityVerifier } from './caller-identity.js';
import { EnrollmentCallbackError } from './errors.js';
import { requestBearerToken } from './request-reading.js';

/**
 * The identity behind the request's bearer token.
 *
 * @throws {EdgeUnauthorizedError} no bearer token, or the verifier refused it (401 `unauthorized`).
 * @throws {EnrollmentCallbackError} the verifier answered something other than an identity or `null`.
 */
export async function identifyCaller(
  request: Request,
  verifyIdentity: CallerIdentityVerifier,
): Promise<CallerIdentity> {
  const token = requestBearerToken(request);
  if (token === undefined) throw new EdgeUnauthorizedError('unauthorized', 'no identity bearer token');
  const identity: unknown = await verifyIdentity(token);
  if (identity === null) {
    throw new EdgeUnauthorizedError('unauthorized', 'the identity verifier refused the token');
  }
  const { subject, tenant } = (identity ?? {}) as Partial<CallerIdentity>;
  if (!isKeyString(subject) || !isKeyString(tenant)) {
    throw new EnrollmentCallbackError(
      'verifyIdentity must answer null or {subject, tenant} with non-empty strings',
      'verifyIdentity',
    );
  }
  return { subject, tenant };
}
