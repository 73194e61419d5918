import type { GatewayRelevancePolicy, PolicyStore } from './policy-store.js';
import { checkEdgeName, checkRelevancePolicy } from './store-arguments.js';

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

  /**
   * @throws {RelayError} `invalid_enrollment_argument`: a policy without the interface's fields, or with an
   *   empty or malformed name.
   */
  async put(policy: GatewayRelevancePolicy): Promise<void> {
    const checked = checkRelevancePolicy(policy);
    this.#policies.set(JSON.stringify([checked.gatewayId, checked.platform]), checked);
  }

  /** @throws {RelayError} `invalid_enrollment_argument`: an empty or malformed gateway id or platform. */
  async get(gatewayId: string, platform: string): Promise<GatewayRelevancePolicy | null> {
    const key = JSON.stringify([checkEdgeName(gatewayId, 'gatewayId'), checkEdgeName(platform, 'platform')]);
    const stored = this.#policies.get(key);
    return stored === undefined ? null : { ...stored, freeResponseScopes: [...stored.freeResponseScopes] };
  }
}
