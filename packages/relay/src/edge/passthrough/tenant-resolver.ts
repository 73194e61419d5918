import { RelayError } from '../../errors.js';
import type { ProvisionRegistry } from '../enrollment/index.js';

/**
 * Maps a route key of an event — the event's own discriminator (a Discord guild id, a DM channel or
 * user id, a called phone number, a WeCom corp id) — to the tenant whose gateway receives it, or
 * `null` when none does. Never resolve from which process or socket received the request (contract
 * Appendix A): one shared bot fronts many tenants.
 */
export type TenantResolver = (
  platform: string,
  routeKey: string,
) => string | null | undefined | Promise<string | null | undefined>;

/** A tenant found for an event, and the route key that found it. */
export interface ResolvedTenant {
  readonly tenant: string;
  readonly routeKey: string;
}

/**
 * A {@link TenantResolver} backed by the route keys gateways provision (`/relay/provision`): the
 * tenant of the gateway holding `routeKey` on `platform`.
 *
 * @example
 * const tenantOf = tenantResolverFromRegistry(registry);
 * await tenantOf('discord', '123456789012345678'); // 'tenant-a' once a gateway of tenant-a provisioned that guild
 */
export function tenantResolverFromRegistry(registry: Pick<ProvisionRegistry, 'route'>): TenantResolver {
  if (typeof registry !== 'object' || registry === null || typeof registry.route !== 'function') {
    throw new RelayError(
      'edge_passthrough_invalid_argument',
      'registry must have a route(platform, routeKey) method',
      { path: 'registry' },
    );
  }
  return async (platform, routeKey) => (await registry.route(platform, routeKey))?.tenant ?? null;
}

/**
 * The first of `routeKeys` (empty ones skipped) that `resolver` maps to a tenant, or `null`.
 *
 * @throws {RelayError} `edge_passthrough_invalid_argument`: the resolver answered something other than a
 *   string or null.
 */
export async function resolveTenant(
  resolver: TenantResolver,
  platform: string,
  routeKeys: readonly string[],
): Promise<ResolvedTenant | null> {
  for (const routeKey of routeKeys) {
    if (routeKey === '') continue;
    const tenant = await resolver(platform, routeKey);
    if (tenant === null || tenant === undefined) continue;
    if (typeof tenant !== 'string' || tenant === '') {
      throw new RelayError(
        'edge_passthrough_invalid_argument',
        'tenantOf must answer a non-empty string or null',
        { path: 'tenantOf' },
      );
    }
    return { tenant, routeKey };
  }
  return null;
}
