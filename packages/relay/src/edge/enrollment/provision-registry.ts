/** One fronted platform of a gateway, as `/relay/provision` registered it. */
export interface ProvisionRegistration {
  /** The tenant of the caller that provisioned it. */
  readonly tenant: string;
  /** The caller's identity subject. */
  readonly subject: string;
  readonly gatewayId: string;
  readonly platform: string;
  /** The gateway's bot id on the platform (`''` when the gateway has none configured). */
  readonly botId: string;
  /** Retired HTTP inbound endpoint of the gateway; `''` when it has none (outbound-only). */
  readonly gatewayEndpoint: string;
  /** Platform-side routing keys (such as guild or chat ids) whose inbound goes to this gateway. */
  readonly routeKeys: readonly string[];
  readonly instanceId?: string;
  /** URL the connector may GET to wake a scaled-to-zero gateway. */
  readonly wakeUrl?: string;
  /** At most 64 characters (code points). */
  readonly displayName?: string;
}

/** Where inbound for a platform route key goes. */
export interface ProvisionedRoute {
  readonly tenant: string;
  readonly gatewayId: string;
}

/**
 * Stores what gateways provision, one registration per `(gatewayId, platform)`.
 *
 * Rules every implementation keeps:
 * - `register` replaces the earlier registration of the same `(gatewayId, platform)` (the gateway
 *   re-declares at every boot) and answers the route keys it now holds for it;
 * - a route key of a platform belongs to one tenant: a key another tenant holds is left out of the
 *   answer, never taken over; a key of the same tenant moves to the registering gateway.
 */
export interface ProvisionRegistry {
  register(registration: ProvisionRegistration): Promise<readonly string[]>;
  get(gatewayId: string, platform: string): Promise<ProvisionRegistration | null>;
  /** The gateway that holds `routeKey` on `platform`, or `null`. */
  route(platform: string, routeKey: string): Promise<ProvisionedRoute | null>;
}
