import { canonicalBufferedFrameJson, checkBufferTenant, checkReadLimit } from './buffer.js';
import type { RelayBusMessage } from './bus.js';
import {
  checkRelayBusMessage,
  checkRelayBusTenant,
  logRelayBusListenerError,
  type RelayBusErrorHandler,
} from './bus.js';
import {
  checkGatewayKey,
  checkRotateOptions,
  checkSecretStoreClock,
  freshGatewaySecrets,
  type GatewaySecretRecord,
  gatewaySecretRecordAt,
  type StoredGatewaySecrets,
} from './secrets.js';
import {
  type CapabilityAddress,
  type CapabilityBinding,
  checkCapabilityAddress,
  checkCapabilityBinding,
} from './vault.js';

/**
 * What {@link relayStoreKit} holds: the argument checks and shared rules of the relay's store
 * interfaces, grouped by store. Each check throws the same `RelayError` code and `path` as the
 * in-memory store does for the same argument.
 */
export interface RelayStoreKit {
  /**
   * `InboundBuffer`: checks a tenant, a non-empty string of well-formed Unicode.
   *
   * @throws {RelayError} `invalid_buffer_argument`, path `tenant`.
   */
  checkBufferTenant(tenant: unknown): string;
  /**
   * `InboundBuffer`: checks the `limit` of a `read`, a positive safe integer.
   *
   * @throws {RelayError} `invalid_buffer_argument`, path `limit`.
   */
  checkReadLimit(limit: unknown): number;
  /**
   * `InboundBuffer`: checks stored text a buffer cannot trust (a shared store other writers reach) and
   * returns it as `encodeBufferedFrame` writes it: the text itself when it already is, else re-encoded.
   *
   * @throws {RelayError} `corrupt_buffered_frame`: the text is not a buffered frame.
   */
  canonicalBufferedFrameJson(text: string): string;
  /**
   * `RelayBus`: checks a tenant, a non-empty string of well-formed Unicode.
   *
   * @throws {RelayError} `invalid_bus_argument`, path `tenant`.
   */
  checkRelayBusTenant(tenant: unknown): string;
  /**
   * `RelayBus`: checks a message and returns a frozen copy holding only the fields of its type. Call
   * it on `publish`, and on what a shared backend delivers.
   *
   * @throws {RelayError} `invalid_bus_argument`, path `message` or `message.<field>`.
   */
  checkRelayBusMessage(message: unknown): RelayBusMessage;
  /** `RelayBus`: the default handler of what a listener throws — `console.error`, then go on. */
  readonly logRelayBusListenerError: RelayBusErrorHandler;
  /**
   * `CapabilityVault`: checks a binding and returns a copy with only its five fields (`tenant`,
   * `session_key`, `kind`, `credential` well-formed non-empty strings, `ttl_ms` positive and finite).
   *
   * @throws {RelayError} `invalid_vault_argument`, path `binding` or `binding.<field>`.
   */
  checkCapabilityBinding(binding: unknown): CapabilityBinding;
  /**
   * `CapabilityVault`: checks the arguments of `resolve` and `revoke`, non-empty well-formed strings.
   *
   * @throws {RelayError} `invalid_vault_argument`, path `tenant`, `sessionKey` or `kind`.
   */
  checkCapabilityAddress(tenant: unknown, sessionKey: unknown, kind: unknown): CapabilityAddress;
  /**
   * `GatewaySecretStore`: checks a gateway id or tenant, a non-empty well-formed string.
   *
   * @throws {RelayError} `invalid_gateway_secret_argument`, with `path`.
   */
  checkGatewayKey(value: unknown, path: 'gatewayId' | 'tenant'): string;
  /**
   * `GatewaySecretStore`: checks the options of `rotate` and returns the grace window in
   * milliseconds, a finite number ≥ 0.
   *
   * @throws {RelayError} `invalid_gateway_secret_argument`, path `options` or `options.graceMs`.
   */
  checkRotateOptions(options: unknown): number;
  /**
   * `GatewaySecretStore`: checks a clock option — a function, or `undefined` for `Date.now`.
   *
   * @throws {RelayError} `invalid_gateway_secret_argument`, path `options.now`.
   */
  checkSecretStoreClock(now: unknown): () => number;
  /** `GatewaySecretStore`: a new live gateway of `tenant`, with a fresh secret and delivery key. */
  freshGatewaySecrets(tenant: string): StoredGatewaySecrets;
  /**
   * `GatewaySecretStore`: the record of a stored gateway as of clock reading `now` (ms). The previous
   * secret is listed only while `now < rotationEndsAt`; a revoked gateway lists no secret.
   */
  gatewaySecretRecordAt(gatewayId: string, stored: StoredGatewaySecrets, now: number): GatewaySecretRecord;
}

/**
 * The argument checks and shared rules for implementing a relay store (`InboundBuffer`, `RelayBus`,
 * `CapabilityVault`, `GatewaySecretStore`) on another backend, as `@agentwire/redis` does: call the
 * checks before touching the backend, so that every implementation refuses the same arguments with
 * the same `RelayError` code and `path` as the in-memory stores, and the behaviour suites of
 * `@agentwire/conformance` pass.
 *
 * @example
 * ```ts
 * import { type InboundBuffer, relayStoreKit } from '@agentwire/relay';
 *
 * class MyBuffer implements InboundBuffer {
 *   async read(tenant: string, afterId: string | null, limit: number) {
 *     const key = relayStoreKit.checkBufferTenant(tenant);
 *     const count = relayStoreKit.checkReadLimit(limit);
 *     // … read up to `count` entries of `key`, each through relayStoreKit.canonicalBufferedFrameJson
 *   }
 *   // …
 * }
 * ```
 */
export const relayStoreKit: Readonly<RelayStoreKit> = /* @__PURE__ */ Object.freeze({
  checkBufferTenant,
  checkReadLimit,
  canonicalBufferedFrameJson,
  checkRelayBusTenant,
  checkRelayBusMessage,
  logRelayBusListenerError,
  checkCapabilityBinding,
  checkCapabilityAddress,
  checkGatewayKey,
  checkRotateOptions,
  checkSecretStoreClock,
  freshGatewaySecrets,
  gatewaySecretRecordAt,
});
