import { RelayError } from '../errors.js';
import { checkGatewayKey, checkRotateOptions, checkSecretStoreClock } from './check-arguments.js';
import type { GatewaySecretRecord } from './gateway-secret-record.js';
import type { GatewaySecretStore, RotateGatewaySecretOptions } from './gateway-secret-store.js';
import { newGatewaySecret } from './new-gateway-secret.js';
import {
  freshGatewaySecrets,
  gatewaySecretRecordAt,
  type StoredGatewaySecrets,
} from './stored-gateway-secrets.js';

/** Options of {@link InMemoryGatewaySecretStore}. */
export interface InMemoryGatewaySecretStoreOptions {
  /** The clock rotation windows are measured with, in milliseconds. Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * A {@link GatewaySecretStore} for a connector that runs as one process: records live in memory and
 * are lost on restart. Every operation completes synchronously inside its promise, so operations
 * never interleave. Runtime-neutral.
 *
 * @example
 * ```ts
 * const secrets = new InMemoryGatewaySecretStore();
 * const record = await secrets.create('gw-host-1', 'tenant-a'); // record.secrets[0]: the gateway's secret
 * await secrets.rotate('gw-host-1', { graceMs: 10 * 60_000 }); // the old secret works 10 more minutes
 * await secrets.revoke('gw-host-1'); // the next upgrade is closed with 4401 unauthorized
 * ```
 */
export class InMemoryGatewaySecretStore implements GatewaySecretStore {
  readonly #gateways = new Map<string, StoredGatewaySecrets>();
  readonly #now: () => number;
  #closed = false;

  /** @throws {RelayError} `invalid_gateway_secret_argument`: `now` is not a function. */
  constructor(options: InMemoryGatewaySecretStoreOptions = {}) {
    this.#now = checkSecretStoreClock(options.now);
  }

  async create(gatewayId: string, tenant: string): Promise<GatewaySecretRecord> {
    this.#assertOpen();
    const id = checkGatewayKey(gatewayId, 'gatewayId');
    const owner = checkGatewayKey(tenant, 'tenant');
    if (this.#gateways.has(id))
      throw new RelayError('gateway_exists', `gateway ${JSON.stringify(id)} already exists`, {
        path: 'gatewayId',
        details: { gatewayId: id },
      });
    return this.#record(id, this.#store(id, freshGatewaySecrets(owner)));
  }

  async issue(gatewayId: string, tenant: string): Promise<GatewaySecretRecord> {
    this.#assertOpen();
    const id = checkGatewayKey(gatewayId, 'gatewayId');
    const owner = checkGatewayKey(tenant, 'tenant');
    const existing = this.#gateways.get(id);
    if (existing !== undefined && existing.tenant !== owner)
      throw new RelayError(
        'gateway_tenant_mismatch',
        `gateway ${JSON.stringify(id)} belongs to another tenant`,
        { path: 'gatewayId', details: { gatewayId: id } },
      );
    return this.#record(id, this.#store(id, freshGatewaySecrets(owner)));
  }

  async rotate(gatewayId: string, options: RotateGatewaySecretOptions): Promise<GatewaySecretRecord> {
    this.#assertOpen();
    const id = checkGatewayKey(gatewayId, 'gatewayId');
    const graceMs = checkRotateOptions(options);
    const existing = this.#gateways.get(id);
    if (existing === undefined)
      throw new RelayError('gateway_not_found', `gateway ${JSON.stringify(id)} is unknown`, {
        path: 'gatewayId',
        details: { gatewayId: id },
      });
    if (existing.revoked)
      throw new RelayError('gateway_revoked', `gateway ${JSON.stringify(id)} is revoked`, {
        path: 'gatewayId',
        details: { gatewayId: id },
      });
    const rotated: StoredGatewaySecrets =
      graceMs > 0
        ? {
            ...existing,
            primary: newGatewaySecret(),
            previous: existing.primary,
            rotationEndsAt: this.#now() + graceMs,
          }
        : { ...existing, primary: newGatewaySecret(), previous: null, rotationEndsAt: null };
    return this.#record(id, this.#store(id, rotated));
  }

  async revoke(gatewayId: string): Promise<boolean> {
    this.#assertOpen();
    const id = checkGatewayKey(gatewayId, 'gatewayId');
    const existing = this.#gateways.get(id);
    if (existing === undefined || existing.revoked) return false;
    this.#store(id, {
      tenant: existing.tenant,
      primary: '',
      previous: null,
      rotationEndsAt: null,
      deliveryKey: '',
      revoked: true,
    });
    return true;
  }

  async get(gatewayId: string): Promise<GatewaySecretRecord | null> {
    this.#assertOpen();
    const id = checkGatewayKey(gatewayId, 'gatewayId');
    const stored = this.#gateways.get(id);
    return stored === undefined ? null : this.#record(id, stored);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#gateways.clear();
  }

  #store(gatewayId: string, gateway: StoredGatewaySecrets): StoredGatewaySecrets {
    this.#gateways.set(gatewayId, gateway);
    return gateway;
  }

  #record(gatewayId: string, stored: StoredGatewaySecrets): GatewaySecretRecord {
    return gatewaySecretRecordAt(gatewayId, stored, this.#now());
  }

  #assertOpen(): void {
    if (this.#closed)
      throw new RelayError('gateway_secret_store_closed', 'the gateway secret store is closed');
  }
}
