import { RelayError } from '../../errors.js';
import type { GatewaySecretRecord, GatewaySecretStore } from '../../secrets/index.js';
import type { EdgeHandler } from '../http/edge-handler.js';
import { jsonResponse } from '../http/json-response.js';
import type { CallerIdentity, CallerIdentityVerifier } from './caller-identity.js';
import { answerFailure, type EnrollmentHandlerBaseOptions, resolveBaseOptions } from './handler-options.js';
import { identifyCaller } from './identify-caller.js';
import type { ProvisionRegistration, ProvisionRegistry } from './provision-registry.js';
import { gatewayIdConflict, provisionRevokedGateway } from './refusals.js';
import { type ProvisionRequest, provisionRequestSchema } from './request-bodies.js';
import { assertPost, readJsonBody } from './request-reading.js';
import { credentialsBody } from './secret-response.js';

/** Options of {@link createProvisionHandler}. */
export interface ProvisionHandlerOptions extends EnrollmentHandlerBaseOptions {
  /** Checks the caller's identity bearer token. */
  readonly verifyIdentity: CallerIdentityVerifier;
  /** Where the gateway's credentials are created or read. */
  readonly secrets: GatewaySecretStore;
  /** Where each fronted platform's registration is stored. */
  readonly registry: ProvisionRegistry;
}

/**
 * The `POST /relay/provision` endpoint (a managed gateway's self-provisioning at boot, one call per
 * fronted platform): checks the caller's identity bearer token (401), reads
 * `{gatewayId, platform, botId, gatewayEndpoint, routeKeys[], instanceId?, wakeUrl?, displayName?}`
 * (400; `displayName` at most 64 characters, `wakeUrl` an http(s) URL), then finds the gateway in
 * the secret store or creates it (409 `gateway_conflict` when another tenant holds the id, 403
 * `gateway_revoked` when it was revoked: provisioning never lifts a revocation), registers the
 * platform and answers `200 {secret, deliveryKey, tenant, gatewayId, routeKeys}` with the route keys
 * the registry granted. A live gateway keeps its secret, so every platform's call (and every boot)
 * answers the same credentials.
 *
 * @example
 * ```ts
 * const provision = createProvisionHandler({
 *   verifyIdentity,
 *   secrets,
 *   registry: new InMemoryProvisionRegistry(),
 * });
 * ```
 * @throws {RelayError} `invalid_enrollment_argument`: a missing store or verifier, or unusable base options.
 */
export function createProvisionHandler(options: ProvisionHandlerOptions): EdgeHandler {
  const { onError, maxBodyBytes } = resolveBaseOptions(options, {
    verifyIdentity: 'function',
    secrets: 'object',
    registry: 'object',
  });
  const { verifyIdentity, secrets, registry } = options;
  return async (request) => {
    try {
      assertPost(request);
      const identity = await identifyCaller(request, verifyIdentity);
      const body = await readJsonBody(request, provisionRequestSchema, maxBodyBytes);
      const record = await tenantGateway(secrets, body.gatewayId, identity.tenant);
      const credentials = credentialsBody(record, 'the secret store');
      const routeKeys = await registry.register(registration(identity, body));
      return jsonResponse(200, { ...credentials, routeKeys });
    } catch (error) {
      return answerFailure(error, onError);
    }
  };
}

/**
 * The tenant's live gateway, created when absent.
 *
 * @throws {RelayError} `enrollment_gateway_conflict`: another tenant holds the id.
 * @throws {RelayError} `enrollment_gateway_revoked`: the gateway is revoked.
 */
async function tenantGateway(
  secrets: GatewaySecretStore,
  gatewayId: string,
  tenant: string,
): Promise<GatewaySecretRecord> {
  let record = await secrets.get(gatewayId);
  if (record === null) {
    try {
      record = await secrets.create(gatewayId, tenant);
    } catch (error) {
      // Another call (this gateway's next platform) created it first: use what it created.
      if (!(error instanceof RelayError && error.code === 'gateway_exists')) throw error;
      record = await secrets.get(gatewayId);
    }
  }
  if (record === null || record.tenant !== tenant) throw gatewayIdConflict();
  if (record.revoked) throw provisionRevokedGateway();
  return record;
}

function registration(identity: CallerIdentity, body: ProvisionRequest): ProvisionRegistration {
  const { instanceId, wakeUrl, displayName } = body;
  return {
    tenant: identity.tenant,
    subject: identity.subject,
    gatewayId: body.gatewayId,
    platform: body.platform,
    botId: body.botId,
    gatewayEndpoint: body.gatewayEndpoint,
    routeKeys: body.routeKeys,
    ...(instanceId !== undefined && { instanceId }),
    ...(wakeUrl !== undefined && { wakeUrl }),
    ...(displayName !== undefined && { displayName }),
  };
}
