import type { GatewayRelevancePolicy, PolicyStore } from './policy-store.js';

/**
 * A {@link PolicyStore} for a connector that runs as one process: policies live in memory.
 *
 * @example
 * ```ts
 * const policies = new InMemoryPolicyStore();
 * await policies.get('gw-host-1', 'discord'); // the last policy that gateway declared, or null
 * ```
 */
export class InMemoryPolicyStore implements PolicyStore {
  /** Policies by `[gatewayId, platform]` as JSON text. */
  readonly #policies = new Map<string, GatewayRelevancePolicy>();

  async put(policy: GatewayRelevancePolicy): Promise<void> {
    this.#policies.set(JSON.stringify([policy.gatewayId, policy.platform]), {
      ...policy,
      freeResponseScopes: [...policy.freeResponseScopes],
    });
  }

  async get(gatewayId: string, platform: string): Promise<GatewayRelevancePolicy | null> {
    return this.#policies.get(JSON.stringify([gatewayId, platform])) ?? null;
  }
}
