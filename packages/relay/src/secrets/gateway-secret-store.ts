import type { GatewaySecretRecord } from './gateway-secret-record.js';

/** Options of {@link GatewaySecretStore.rotate}. */
export interface RotateGatewaySecretOptions {
  /**
   * How long the previous primary secret stays accepted, in milliseconds (≥ 0), so a running gateway
   * can reconnect until it has picked up the new one. `0` refuses it at once.
   */
  readonly graceMs: number;
}

/**
 * Holds the per-gateway channel secrets (contract §6.1): one record per gateway id with its tenant,
 * its verify list (primary first, plus the previous secret during a rotation window), its delivery
 * key, and whether it is revoked. Secrets are random (`newGatewaySecret`); a store never logs them
 * nor puts them in an error message.
 *
 * Rules every implementation keeps (the behaviour tests check them):
 * - gateway ids are global: one id belongs to one tenant;
 * - `create` makes a new gateway and refuses an id the store holds (`gateway_exists`);
 * - `issue` makes a new gateway or gives an existing one of the same tenant fresh credentials
 *   (ending any rotation window and lifting a revocation); another tenant's id is refused
 *   (`gateway_tenant_mismatch`);
 * - `rotate` makes a new primary; the old primary stays in the verify list until `graceMs` has passed
 *   on the store's clock (a secret older than that is dropped at once);
 * - `revoke` wipes the secrets and delivery key and marks the gateway revoked; `get` keeps returning
 *   the revoked record, which {@link authenticatorFor} answers as unknown;
 * - every mutation is atomic with respect to the others.
 */
export interface GatewaySecretStore {
  /**
   * @throws {RelayError} `gateway_exists`: the id is taken.
   * @throws {RelayError} `invalid_gateway_secret_argument`: a malformed gateway id or tenant.
   */
  create(gatewayId: string, tenant: string): Promise<GatewaySecretRecord>;
  /**
   * @throws {RelayError} `gateway_tenant_mismatch`: the id belongs to another tenant.
   * @throws {RelayError} `invalid_gateway_secret_argument`: a malformed gateway id or tenant.
   */
  issue(gatewayId: string, tenant: string): Promise<GatewaySecretRecord>;
  /**
   * @throws {RelayError} `gateway_not_found`: an unknown id.
   * @throws {RelayError} `gateway_revoked`: a revoked gateway.
   * @throws {RelayError} `invalid_gateway_secret_argument`: a malformed gateway id or options.
   */
  rotate(gatewayId: string, options: RotateGatewaySecretOptions): Promise<GatewaySecretRecord>;
  /** `true` when a live gateway was revoked now; `false` for an unknown or already revoked id. */
  revoke(gatewayId: string): Promise<boolean>;
  /** The record as of now (an ended rotation window no longer lists the old secret), or `null`. */
  get(gatewayId: string): Promise<GatewaySecretRecord | null>;
  /** Releases connections; the store is unusable afterwards. */
  close(): Promise<void>;
}

/** What {@link GatewayAuthenticator} answers for a live gateway: the server's `GatewayCredentials`. */
export interface GatewaySecretCredentials {
  readonly tenant: string;
  /** The verify list, primary first. */
  readonly secrets: readonly string[];
}

/**
 * The `authenticate` option of `createRelayServer` (and of `authenticateUpgrade`): looks a gateway
 * up by id and answers its tenant and verify list, or `null` when it is unknown or revoked.
 */
export type GatewayAuthenticator = (gatewayId: string) => Promise<GatewaySecretCredentials | null>;
