import { isKeyString } from '../../buffer/key-string.js';
import { RelayError } from '../../errors.js';
import { edgeUnauthorized } from '../http/refusals.js';
import type { CallerIdentity, CallerIdentityVerifier } from './caller-identity.js';
import { requestBearerToken } from './request-reading.js';

/**
 * The identity behind the request's bearer token.
 *
 * @throws {RelayError} `edge_http_unauthorized`: no bearer token, or the verifier refused it (401
 *   `unauthorized`).
 * @throws {RelayError} `enrollment_callback_failed`: the verifier answered something other than an identity
 *   or `null`.
 */
export async function identifyCaller(
  request: Request,
  verifyIdentity: CallerIdentityVerifier,
): Promise<CallerIdentity> {
  const token = requestBearerToken(request);
  if (token === undefined) throw edgeUnauthorized('unauthorized', 'no identity bearer token');
  const identity: unknown = await verifyIdentity(token);
  if (identity === null) {
    throw edgeUnauthorized('unauthorized', 'the identity verifier refused the token');
  }
  const { subject, tenant } = (identity ?? {}) as Partial<CallerIdentity>;
  if (!isKeyString(subject) || !isKeyString(tenant)) {
    throw new RelayError(
      'enrollment_callback_failed',
      'verifyIdentity must answer null or {subject, tenant} with non-empty strings',
      { path: 'verifyIdentity' },
    );
  }
  return { subject, tenant };
}
