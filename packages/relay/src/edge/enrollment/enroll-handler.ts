import { RelayError } from '../../errors.js';
import type { GatewaySecretStore } from '../../secrets/index.js';
import type { EdgeHandler } from '../http/edge-handler.js';
import { jsonResponse } from '../http/json-response.js';
import type { CallerIdentityVerifier } from './caller-identity.js';
import type { EnrollmentTokenStore } from './enrollment-token-store.js';
import { answerFailure, type EnrollmentHandlerBaseOptions, resolveBaseOptions } from './handler-options.js';
import { identifyCaller } from './identify-caller.js';
import { enrollmentTokenRejected, gatewayIdConflict } from './refusals.js';
import { enrollRequestSchema } from './request-bodies.js';
import { assertPost, readJsonBody } from './request-reading.js';
import { credentialsBody } from './secret-response.js';

/** Options of {@link createEnrollHandler}. */
export interface EnrollHandlerOptions extends EnrollmentHandlerBaseOptions {
  /** Checks the caller's identity bearer token. */
  readonly verifyIdentity: CallerIdentityVerifier;
  /** The one-time enrollment tokens operators hand out. */
  readonly enrollmentTokens: EnrollmentTokenStore;
  /** Where the gateway's credentials are issued. */
  readonly secrets: GatewaySecretStore;
}

/**
 * The `POST /relay/enroll` endpoint (`hermes gateway enroll --token <t>`): checks the caller's
 * identity bearer token (401 `unauthorized` when absent or refused), reads
 * `{enrollmentToken, gatewayId}` (400 `invalid_json` / `invalid_body`, 413), consumes the one-time
 * token for the caller's tenant (403 `enrollment_token_rejected` when unknown, used, expired or
 * issued to another tenant), then issues the gateway fresh credentials in the secret store —
 * creating it, or replacing the credentials of the tenant's existing gateway of that id and lifting
 * its revocation (409 `gateway_conflict` when another tenant holds the id; the token is spent) — and
 * answers `200 {secret, deliveryKey, tenant, gatewayId}`. Other methods get 405; a throwing verifier
 * or store gets 500 `internal_error` and is reported to `onError`.
 *
 * @example
 * ```ts
 * const enroll = createEnrollHandler({
 *   verifyIdentity: async (token) => portal.introspect(token), // → { subject, tenant } | null
 *   enrollmentTokens: new InMemoryEnrollmentTokenStore(),
 *   secrets,
 * });
 * const response = await enroll(request); // a Fetch API Request
 * ```
 * @throws {RelayError} `invalid_enrollment_argument`: a missing store or verifier, or unusable base options.
 */
export function createEnrollHandler(options: EnrollHandlerOptions): EdgeHandler {
  const { onError, maxBodyBytes } = resolveBaseOptions(options, {
    verifyIdentity: 'function',
    enrollmentTokens: 'object',
    secrets: 'object',
  });
  const { verifyIdentity, enrollmentTokens, secrets } = options;
  return async (request) => {
    try {
      assertPost(request);
      const identity = await identifyCaller(request, verifyIdentity);
      const { enrollmentToken, gatewayId } = await readJsonBody(request, enrollRequestSchema, maxBodyBytes);
      const redemption = await enrollmentTokens.redeem(enrollmentToken, identity.tenant);
      if (!redemption.redeemed) throw enrollmentTokenRejected(redemption.reason);
      const record = await secrets.issue(gatewayId, identity.tenant).catch((error: unknown) => {
        throw error instanceof RelayError && error.code === 'gateway_tenant_mismatch'
          ? gatewayIdConflict()
          : error;
      });
      return jsonResponse(200, credentialsBody(record, 'secrets.issue'));
    } catch (error) {
      return answerFailure(error, onError);
    }
  };
}
