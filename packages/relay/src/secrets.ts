import { encodeBase64Url } from '@agentwire/internal';
import { describeKeyString, isKeyString } from './buffer.js';
import { RelayError } from './errors.js';

/**
 * The `authenticate` callback of `createRelayServer` backed by a {@link GatewaySecretStore}: the
 * gateway's tenant and current verify list, or `null` for an id that is unknown, revoked or not a
 * well-formed name (so the upgrade is closed with 4401 `unauthorized`). Store failures propagate (the
 * server closes with 1011).
 *
 * @example
 * ```ts
 * const secrets = new InMemoryGatewaySecretStore();
 * const server = await createRelayServer({ authenticate: authenticatorFor(secrets), platforms });
 * ```
 */
export function authenticatorFor(store: GatewaySecretStore): GatewayAuthenticator {
  return async (gatewayId) => {
    if (!isKeyString(gatewayId)) return null;
    const record = await store.get(gatewayId);
    if (record === null || record.revoked || record.secrets.length === 0) return null;
    return { tenant: record.tenant, secrets: record.secrets };
  };
}

/**
 * Checks a gateway id or tenant: a non-empty, well-formed string. For store implementations, which
 * call it before touching their backend.
 *
 * @throws {RelayError} `invalid_gateway_secret_argument`, with `path`.
 */
export function checkGatewayKey(value: unknown, path: 'gatewayId' | 'tenant'): string {
  if (isKeyString(value)) return value;
  throw new RelayError(
    'invalid_gateway_secret_argument',
    `${path} must be a non-empty, well-formed string, got ${describeKeyString(value)}`,
    { path },
  );
}

/**
 * Checks the options of `rotate` and returns the grace window in milliseconds: a finite number ≥ 0.
 *
 * @throws {RelayError} `invalid_gateway_secret_argument`, path `options` or `options.graceMs`.
 */
export function checkRotateOptions(options: unknown): number {
  if (typeof options !== 'object' || options === null) {
    throw new RelayError('invalid_gateway_secret_argument', 'options must be an object with graceMs', {
      path: 'options',
    });
  }
  const { graceMs } = options as Partial<RotateGatewaySecretOptions>;
  if (typeof graceMs !== 'number' || !Number.isFinite(graceMs) || graceMs < 0) {
    throw new RelayError(
      'invalid_gateway_secret_argument',
      `options.graceMs must be a finite number of milliseconds ≥ 0, got ${typeof graceMs === 'number' ? String(graceMs) : typeof graceMs}`,
      { path: 'options.graceMs' },
    );
  }
  return graceMs;
}

/**
 * Checks a clock option: a function, or `undefined` for `Date.now`.
 *
 * @throws {RelayError} `invalid_gateway_secret_argument`, path `options.now`.
 */
export function checkSecretStoreClock(now: unknown): () => number {
  if (now === undefined) return Date.now;
  if (typeof now === 'function') return now as () => number;
  throw new RelayError('invalid_gateway_secret_argument', 'options.now must be a function', {
    path: 'options.now',
  });
}

/** The fields of a {@link GatewaySecretRecord}. */
export interface GatewaySecretRecordFields {
  readonly gatewayId: string;
  readonly tenant: string;
  /** The verify list: the primary secret first, then the previous one while a rotation window lasts. */
  readonly secrets: readonly string[];
  /** The per-gateway delivery key handed out at enroll/provision (kept for forward compatibility). */
  readonly deliveryKey: string;
  readonly revoked: boolean;
  /** Clock reading (ms) from which the previous secret is refused; `null` when there is none. */
  readonly rotationEndsAt: number | null;
}

/** What `JSON.stringify`, `toString` and Node's `inspect` show of a record: every secret redacted. */
export interface RedactedGatewaySecretRecord {
  readonly gatewayId: string;
  readonly tenant: string;
  readonly secrets: readonly '[redacted]'[];
  readonly deliveryKey: '[redacted]' | '';
  readonly revoked: boolean;
  readonly rotationEndsAt: number | null;
}

const REDACTED = '[redacted]';
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * One gateway as a {@link GatewaySecretStore} holds it: its tenant, its verify list (primary first,
 * then the previous secret during a rotation window), its delivery key and whether it is revoked. A
 * revoked record holds no secrets and an empty delivery key.
 *
 * The secrets and the delivery key are readable only through their getters: they are not own
 * properties, and `JSON.stringify`, `String()` and Node's `util.inspect` show them redacted, so a
 * record can be logged safely.
 */
export class GatewaySecretRecord {
  readonly gatewayId: string;
  readonly tenant: string;
  readonly revoked: boolean;
  /** Clock reading (ms) from which the previous secret is refused; `null` when only the primary is live. */
  readonly rotationEndsAt: number | null;
  readonly #secrets: readonly string[];
  readonly #deliveryKey: string;

  constructor(fields: GatewaySecretRecordFields) {
    this.gatewayId = fields.gatewayId;
    this.tenant = fields.tenant;
    this.revoked = fields.revoked;
    this.rotationEndsAt = fields.rotationEndsAt;
    this.#secrets = Object.freeze([...fields.secrets]);
    this.#deliveryKey = fields.deliveryKey;
  }

  /** The verify list, primary first; empty for a revoked gateway. */
  get secrets(): readonly string[] {
    return this.#secrets;
  }

  /** The delivery key; `''` for a revoked gateway. */
  get deliveryKey(): string {
    return this.#deliveryKey;
  }

  toJSON(): RedactedGatewaySecretRecord {
    return {
      gatewayId: this.gatewayId,
      tenant: this.tenant,
      secrets: this.#secrets.map(() => REDACTED),
      deliveryKey: this.#deliveryKey === '' ? '' : REDACTED,
      revoked: this.revoked,
      rotationEndsAt: this.rotationEndsAt,
    };
  }

  toString(): string {
    const state = this.revoked ? 'revoked' : `${this.#secrets.length} secret(s) [redacted]`;
    return `GatewaySecretRecord(${JSON.stringify(this.gatewayId)}, tenant ${JSON.stringify(this.tenant)}, ${state})`;
  }

  [INSPECT](): RedactedGatewaySecretRecord {
    return this.toJSON();
  }
}

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
 * Rules every implementation keeps (`gatewaySecretStoreSuite` of `@agentwire/conformance` checks them):
 * - gateway ids are global: one id belongs to one tenant;
 * - `create` makes a new gateway and refuses an id the store holds (`gateway_exists`);
 * - `issue` makes a new gateway or gives an existing one of the same tenant fresh credentials
 *   (ending any rotation window and lifting a revocation); another tenant's id is refused
 *   (`gateway_tenant_mismatch`);
 * - `rotate` makes a new primary; the old primary stays in the verify list until `graceMs` has passed
 *   on the store's clock (a secret older than that is dropped at once);
 * - `revoke` wipes the secrets and delivery key and marks the gateway revoked; `get` keeps returning
 *   the revoked record, which {@link authenticatorFor} answers as unknown;
 * - every mutation is atomic with respect to the others;
 * - a refusal about a gateway names it: `path` `'gatewayId'` and `details.gatewayId`.
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

/** Random bytes in every generated secret, delivery key and enrollment token (256 bits). */
export const GATEWAY_SECRET_BYTES = 32;

/**
 * A fresh random secret: `GATEWAY_SECRET_BYTES` bytes from the Web Crypto
 * `crypto.getRandomValues`, as unpadded base64url (43 characters). Serves as gateway secret, delivery
 * key and one-time enrollment token.
 *
 * @example
 * newGatewaySecret(); // 'q3Jx…' (43 characters of [A-Za-z0-9_-])
 */
export function newGatewaySecret(): string {
  return encodeBase64Url(crypto.getRandomValues(new Uint8Array(GATEWAY_SECRET_BYTES)));
}

/** How a store keeps one gateway, whatever its backend. */
export interface StoredGatewaySecrets {
  readonly tenant: string;
  /** The primary secret; `''` once revoked. */
  readonly primary: string;
  /** The secret `rotate` replaced, accepted until `rotationEndsAt`; `null` when there is none. */
  readonly previous: string | null;
  /** Clock reading (ms) from which `previous` is refused; `null` when there is none. */
  readonly rotationEndsAt: number | null;
  /** `''` once revoked. */
  readonly deliveryKey: string;
  readonly revoked: boolean;
}

/** A new live gateway of `tenant`, with a fresh secret and delivery key. */
export function freshGatewaySecrets(tenant: string): StoredGatewaySecrets {
  return {
    tenant,
    primary: newGatewaySecret(),
    previous: null,
    rotationEndsAt: null,
    deliveryKey: newGatewaySecret(),
    revoked: false,
  };
}

/**
 * The record of a stored gateway as of clock reading `now` (ms): the previous secret is listed only
 * while `now < rotationEndsAt`; a revoked gateway lists no secret. For store implementations.
 */
export function gatewaySecretRecordAt(
  gatewayId: string,
  stored: StoredGatewaySecrets,
  now: number,
): GatewaySecretRecord {
  const { previous, rotationEndsAt, revoked } = stored;
  const windowOpen = previous !== null && rotationEndsAt !== null && now < rotationEndsAt;
  const secrets = revoked ? [] : [stored.primary, ...(windowOpen ? [previous] : [])];
  return new GatewaySecretRecord({
    gatewayId,
    tenant: stored.tenant,
    secrets,
    deliveryKey: stored.deliveryKey,
    revoked,
    rotationEndsAt: windowOpen && !revoked ? rotationEndsAt : null,
  });
}

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
