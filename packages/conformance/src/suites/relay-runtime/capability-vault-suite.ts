import type { CapabilityVault } from '@agentwire/relay';
import type { ConformanceSuite } from '../../suite.js';
import { sleep } from './runtime-support.js';
import { CAPABILITY_VAULT_SUITE_VERSION } from './suite-version.js';
import { vaultCases } from './vault-cases.js';

/** Options of {@link capabilityVaultSuite}. */
export interface CapabilityVaultSuiteOptions {
  /** Creates a fresh, open vault. Cases call it once or more and close every vault they create. */
  readonly create: () => CapabilityVault | Promise<CapabilityVault>;
  /**
   * Lets `ms` milliseconds pass for the vaults `create` makes. Give it when they read a clock the
   * caller controls (advance it, resolve at once); without it the expiry cases wait in real time
   * (a few hundred milliseconds each).
   */
  readonly elapse?: (ms: number) => void | Promise<void>;
  /** The short TTL the expiry cases bind with, in milliseconds. Default 100. */
  readonly shortTtlMs?: number;
  /**
   * `true` when vaults from `create` share one backend (e.g. Redis): a binding made through one
   * resolves through another. Capability `shared-backend`.
   */
  readonly sharedBackend?: boolean;
  /** Releases what the caller set up for the run; called after the last case. */
  readonly dispose?: () => void | Promise<void>;
}

/** The context every case of {@link capabilityVaultSuite} receives. */
export interface CapabilityVaultContext {
  readonly create: () => Promise<CapabilityVault>;
  readonly elapse: (ms: number) => Promise<void>;
  readonly shortTtlMs: number;
}

const SUITE_NAME = 'relay-runtime.vault';

/**
 * The `CapabilityVault` rules (contract §4/§6, relay-reference §9): the credential only for the tenant
 * that bound it (`tenant_mismatch` without the secret for another), keyed by `(session_key, kind)`,
 * `bind` replacing the credential and its TTL, expiry reading as `absent`, `revoke` only by the owner,
 * and — with capability `shared-backend` — bindings seen by another instance. Expiry is checked with a
 * short TTL and `elapse` (real waiting by default), polled a bounded number of times.
 *
 * @example
 * ```ts
 * import { InMemoryCapabilityVault } from '@agentwire/relay';
 * let now = 0;
 * const report = await runSuite(
 *   capabilityVaultSuite({
 *     create: () => new InMemoryCapabilityVault({ now: () => now }),
 *     elapse: (ms) => { now += ms; },
 *   }),
 * );
 * ```
 */
export function capabilityVaultSuite(
  options: CapabilityVaultSuiteOptions,
): ConformanceSuite<CapabilityVaultContext> {
  const capabilities = new Set<string>();
  if (options.sharedBackend === true) capabilities.add('shared-backend');
  const elapse = options.elapse;
  return {
    name: SUITE_NAME,
    version: CAPABILITY_VAULT_SUITE_VERSION,
    description:
      'The CapabilityVault rules: tenant-bound resolve without leaking the secret, (tenant, session_key, ' +
      'kind) keys, bind replacing credential and TTL, expiry, owner-only revoke, bindings shared between instances.',
    cases: vaultCases(SUITE_NAME),
    setup: () => ({
      ctx: {
        create: async () => options.create(),
        elapse: elapse === undefined ? sleep : async (ms) => elapse(ms),
        shortTtlMs: options.shortTtlMs ?? 100,
      },
      capabilities,
      ...(options.dispose === undefined ? {} : { dispose: options.dispose }),
    }),
  };
}
