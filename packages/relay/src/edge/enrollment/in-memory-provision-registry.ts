import type { ProvisionedRoute, ProvisionRegistration, ProvisionRegistry } from './provision-registry.js';

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

  async register(registration: ProvisionRegistration): Promise<readonly string[]> {
    const { tenant, gatewayId, platform } = registration;
    const previous = this.#registrations.get(pairKey(gatewayId, platform));
    for (const key of previous?.routeKeys ?? []) {
      const route = pairKey(platform, key);
      if (this.#routes.get(route)?.gatewayId === gatewayId) this.#routes.delete(route);
    }
    const held: string[] = [];
    for (const key of new Set(registration.routeKeys)) {
      const route = pairKey(platform, key);
      const owner = this.#routes.get(route);
      if (owner !== undefined && owner.tenant !== tenant) continue;
      this.#routes.set(route, { tenant, gatewayId });
      held.push(key);
    }
    this.#registrations.set(pairKey(gatewayId, platform), { ...registration, routeKeys: held });
    return held;
  }

  async get(gatewayId: string, platform: string): Promise<ProvisionRegistration | null> {
    return this.#registrations.get(pairKey(gatewayId, platform)) ?? null;
  }

  async route(platform: string, routeKey: string): Promise<ProvisionedRoute | null> {
    return this.#routes.get(pairKey(platform, routeKey)) ?? null;
  }
}

function pairKey(first: string, second: string): string {
  return JSON.stringify([first, second]);
}
