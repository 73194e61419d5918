import type { ProvisionedRoute, ProvisionRegistration, ProvisionRegistry } from './provision-registry.js';
import { checkEdgeName, checkProvisionRegistration } from './store-arguments.js';

/**
 * A {@link ProvisionRegistry} for a connector that runs as one process: registrations and route keys
 * live in memory. Each `register` completes in one synchronous step.
 *
 * @example
 * ```ts
 * const registry = new InMemoryProvisionRegistry();
 * await registry.route('discord', '123456789'); // { tenant: 'tenant-a', gatewayId: 'gw-host-1' } once provisioned
 * ```
 */
export class InMemoryProvisionRegistry implements ProvisionRegistry {
  /** Registrations by `[gatewayId, platform]` as JSON text. */
  readonly #registrations = new Map<string, ProvisionRegistration>();
  /** Route owners by `[platform, routeKey]` as JSON text. */
  readonly #routes = new Map<string, ProvisionedRoute>();

  /**
   * @throws {RelayError} `invalid_enrollment_argument`: a registration without the interface's fields, or
   *   with an empty tenant, gateway id, platform or route key, or text that is not well-formed Unicode.
   */
  async register(registration: ProvisionRegistration): Promise<readonly string[]> {
    const checked = checkProvisionRegistration(registration);
    const { tenant, gatewayId, platform } = checked;
    const previous = this.#registrations.get(pairKey(gatewayId, platform));
    for (const key of previous?.routeKeys ?? []) {
      const route = pairKey(platform, key);
      if (this.#routes.get(route)?.gatewayId === gatewayId) this.#routes.delete(route);
    }
    const held: string[] = [];
    for (const key of new Set(checked.routeKeys)) {
      const route = pairKey(platform, key);
      const owner = this.#routes.get(route);
      if (owner !== undefined && owner.tenant !== tenant) continue;
      this.#routes.set(route, { tenant, gatewayId });
      held.push(key);
    }
    this.#registrations.set(pairKey(gatewayId, platform), { ...checked, routeKeys: held });
    return [...held];
  }

  /** @throws {RelayError} `invalid_enrollment_argument`: an empty or malformed gateway id or platform. */
  async get(gatewayId: string, platform: string): Promise<ProvisionRegistration | null> {
    const stored = this.#registrations.get(
      pairKey(checkEdgeName(gatewayId, 'gatewayId'), checkEdgeName(platform, 'platform')),
    );
    return stored === undefined ? null : { ...stored, routeKeys: [...stored.routeKeys] };
  }

  /** @throws {RelayError} `invalid_enrollment_argument`: an empty or malformed platform or route key. */
  async route(platform: string, routeKey: string): Promise<ProvisionedRoute | null> {
    const owner = this.#routes.get(
      pairKey(checkEdgeName(platform, 'platform'), checkEdgeName(routeKey, 'routeKey')),
    );
    return owner === undefined ? null : { ...owner };
  }
}

function pairKey(first: string, second: string): string {
  return JSON.stringify([first, second]);
}
