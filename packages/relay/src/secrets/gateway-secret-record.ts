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
