import { RelayError } from '../../errors.js';
import { authenticatorFor, type GatewaySecretStore } from '../../secrets/index.js';
import { authenticateUpgrade } from '../../server/upgrade-auth.js';
import type { EdgeHandler } from '../http/edge-handler.js';
import { jsonResponse } from '../http/json-response.js';
import { edgeUnauthorized } from '../http/refusals.js';
import { answerFailure, type EnrollmentHandlerBaseOptions, resolveBaseOptions } from './handler-options.js';
import type { PolicyStore } from './policy-store.js';
import { policyRequestSchema } from './request-bodies.js';
import { assertPost, readJsonBody } from './request-reading.js';

/** Options of {@link createPolicyHandler}. */
export interface PolicyHandlerOptions extends EnrollmentHandlerBaseOptions {
  /** The gateways' secrets, which verify the channel token. */
  readonly secrets: GatewaySecretStore;
  /** Where the policies are stored. */
  readonly policies: PolicyStore;
  /** The clock tokens are judged by, in milliseconds. Default `Date.now`. */
  readonly now?: () => number;
  /** Seconds a token stays acceptable past its expiry. Default 0, as on the WebSocket upgrade. */
  readonly tokenSkewSeconds?: number;
}

/**
 * The `POST /relay/policy` endpoint (the gateway declares its relevance policy at boot, one call per
 * fronted platform): the bearer is the gateway's channel token, verified exactly as a `/relay`
 * upgrade (401 `expired` for a validly signed token past its expiry; 401 `unauthorized` for no,
 * malformed or forged tokens and unknown or revoked gateways); the body
 * `{platform, requireAddress, freeResponseScopes[], allowOtherBots}` (400; a missing key reads as
 * its default, as earlier gateways sent only non-default keys) replaces the `(gatewayId, platform)`
 * policy, stored with the gateway's tenant; answers `200 {}`.
 *
 * @example
 * ```ts
 * const policy = createPolicyHandler({ secrets, policies: new InMemoryPolicyStore() });
 * ```
 * @throws {RelayError} `invalid_enrollment_argument`: a missing store, or an unusable clock, skew or base
 *   option.
 */
export function createPolicyHandler(options: PolicyHandlerOptions): EdgeHandler {
  const { onError, maxBodyBytes } = resolveBaseOptions(options, { secrets: 'object', policies: 'object' });
  const { policies, now = Date.now, tokenSkewSeconds = 0 } = options;
  if (typeof now !== 'function') {
    throw new RelayError('invalid_enrollment_argument', 'options.now must be a function', {
      path: 'options.now',
    });
  }
  if (!Number.isSafeInteger(tokenSkewSeconds) || tokenSkewSeconds < 0) {
    throw new RelayError(
      'invalid_enrollment_argument',
      'options.tokenSkewSeconds must be a non-negative integer',
      { path: 'options.tokenSkewSeconds' },
    );
  }
  const authenticate = authenticatorFor(options.secrets);
  return async (request) => {
    try {
      assertPost(request);
      const auth = await authenticateUpgrade(request.headers.get('authorization') ?? undefined, {
        authenticate,
        nowSeconds: Math.floor(now() / 1000),
        skewSeconds: tokenSkewSeconds,
      });
      if (!auth.ok) throw edgeUnauthorized(auth.reason, auth.detail);
      const policy = await readJsonBody(request, policyRequestSchema, maxBodyBytes);
      await policies.put({ ...policy, tenant: auth.tenant, gatewayId: auth.gatewayId });
      return jsonResponse(200, {});
    } catch (error) {
      return answerFailure(error, onError);
    }
  };
}
