import { describeType } from '@agentwire/internal';
import { describeKeyString, isKeyString } from '../buffer.js';
import { RelayError } from '../errors.js';
import { newGatewaySecret } from '../secrets.js';

/** What a one-time enrollment token is minted for. */
export interface EnrollmentTokenGrant {
  /** The tenant whose caller may redeem the token. */
  readonly tenant: string;
  /** How long the token stays redeemable, in milliseconds (> 0). */
  readonly ttlMs: number;
}

/** Why a token was not redeemed. */
export type EnrollmentTokenRefusal = 'unknown' | 'used' | 'expired' | 'tenant_mismatch';

/** The outcome of {@link EnrollmentTokenStore.redeem}. */
export type EnrollmentTokenRedemption =
  | { readonly redeemed: true }
  | { readonly redeemed: false; readonly reason: EnrollmentTokenRefusal };

/**
 * Holds the one-time tokens an operator hands to `hermes gateway enroll --token`.
 *
 * Rules every implementation keeps:
 * - `issue` returns a fresh random token bound to a tenant, redeemable until its TTL has passed;
 * - `redeem` consumes a live token of the caller's tenant atomically: of two concurrent redemptions
 *   exactly one succeeds, and a used token is never accepted again;
 * - a token presented by another tenant is refused (`tenant_mismatch`) and not consumed; an expired
 *   one is refused (`expired`);
 * - a malformed argument (an empty tenant or token, a TTL that is not a positive finite number) is
 *   refused with `RelayError` `invalid_enrollment_argument`, its `path` naming it (`grant.ttlMs`,
 *   `grant.tenant`, `token`, `tenant`).
 */
export interface EnrollmentTokenStore {
  issue(grant: EnrollmentTokenGrant): Promise<string>;
  redeem(token: string, tenant: string): Promise<EnrollmentTokenRedemption>;
}

/** Options of {@link InMemoryEnrollmentTokenStore}. */
export interface InMemoryEnrollmentTokenStoreOptions {
  /** The clock TTLs are measured with, in milliseconds. Default `Date.now`. */
  readonly now?: () => number;
}

interface StoredToken {
  readonly tenant: string;
  /** The clock reading from which the token is expired. */
  readonly expiresAt: number;
  readonly used: boolean;
}

/**
 * An {@link EnrollmentTokenStore} for a connector that runs as one process. A used token is
 * remembered until its TTL passes (so it is refused as `used`), then forgotten (`unknown`); expired
 * tokens are swept as new ones are issued. Redemption checks and consumes in one synchronous step.
 *
 * @example
 * ```ts
 * const enrollmentTokens = new InMemoryEnrollmentTokenStore();
 * const token = await enrollmentTokens.issue({ tenant: 'tenant-a', ttlMs: 15 * 60_000 });
 * // hand `token` to the operator: hermes gateway enroll --token <token>
 * ```
 */
export class InMemoryEnrollmentTokenStore implements EnrollmentTokenStore {
  readonly #tokens = new Map<string, StoredToken>();
  readonly #now: () => number;

  /** @throws {RelayError} `invalid_enrollment_argument`: `now` is not a function. */
  constructor(options: InMemoryEnrollmentTokenStoreOptions = {}) {
    const now = options.now ?? Date.now;
    if (typeof now !== 'function') {
      throw new RelayError('invalid_enrollment_argument', 'options.now must be a function', {
        path: 'options.now',
      });
    }
    this.#now = now;
  }

  /**
   * @throws {RelayError} `invalid_enrollment_argument`: a malformed tenant or a TTL that is not a positive
   *   finite number.
   */
  async issue(grant: EnrollmentTokenGrant): Promise<string> {
    const { tenant, ttlMs } = (grant ?? {}) as Partial<EnrollmentTokenGrant>;
    const owner = keyString(tenant, 'grant.tenant');
    if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs <= 0) {
      throw new RelayError(
        'invalid_enrollment_argument',
        'grant.ttlMs must be a positive finite number of milliseconds',
        { path: 'grant.ttlMs' },
      );
    }
    const now = this.#now();
    this.#sweep(now);
    const token = newGatewaySecret();
    this.#tokens.set(token, { tenant: owner, expiresAt: now + ttlMs, used: false });
    return token;
  }

  /**
   * @throws {RelayError} `invalid_enrollment_argument`: a token or tenant that is not a non-empty,
   *   well-formed string.
   */
  async redeem(token: string, tenant: string): Promise<EnrollmentTokenRedemption> {
    const key = keyString(token, 'token');
    const caller = keyString(tenant, 'tenant');
    const stored = this.#tokens.get(key);
    if (stored === undefined) return { redeemed: false, reason: 'unknown' };
    if (this.#now() >= stored.expiresAt) {
      this.#tokens.delete(key);
      return { redeemed: false, reason: 'expired' };
    }
    if (stored.used) return { redeemed: false, reason: 'used' };
    if (stored.tenant !== caller) return { redeemed: false, reason: 'tenant_mismatch' };
    this.#tokens.set(key, { ...stored, used: true });
    return { redeemed: true };
  }

  #sweep(now: number): void {
    for (const [token, stored] of this.#tokens) if (now >= stored.expiresAt) this.#tokens.delete(token);
  }
}

function keyString(value: unknown, path: string): string {
  if (isKeyString(value)) return value;
  throw new RelayError(
    'invalid_enrollment_argument',
    `${path} must be a non-empty, well-formed string, got ${describeKeyString(value)}`,
    { path },
  );
}

/**
 * A gateway's relevance policy for one fronted platform (`POST /relay/policy`): which messages are
 * worth delivering, projected from the gateway's `require_mention`, `free_response_channels` and
 * `{PLATFORM}_ALLOW_BOTS`.
 */
export interface RelevancePolicy {
  readonly platform: string;
  /** A non-owner message must mention the bot or reply to it to be relevant. */
  readonly requireAddress: boolean;
  /** Scope (channel) ids where `requireAddress` is waived. */
  readonly freeResponseScopes: readonly string[];
  /** Admit bot-authored messages. */
  readonly allowOtherBots: boolean;
}

/** A policy as stored: attached to the authenticated gateway and its tenant. */
export interface GatewayRelevancePolicy extends RelevancePolicy {
  readonly tenant: string;
  readonly gatewayId: string;
}

/** Stores relevance policies, one per `(gatewayId, platform)`; `put` replaces (the gateway re-declares every boot). */
export interface PolicyStore {
  put(policy: GatewayRelevancePolicy): Promise<void>;
  get(gatewayId: string, platform: string): Promise<GatewayRelevancePolicy | null>;
}

// The argument rules every edge store keeps (the in-memory ones here, the Redis ones in
// @agentwire/redis), so that a malformed value is refused the same way by all of them before
// anything is stored. Each check returns a fresh value with exactly the interface's keys.

// A UTF-16 code unit from the surrogate range that is not half of a high-low pair: it has no UTF-8
// form, so a store that keeps UTF-8 (Redis) would merge two different names into one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A tenant, gateway id, platform, route key or token as edge stores take it: a non-empty string of
 * well-formed Unicode.
 *
 * @throws {RelayError} `invalid_enrollment_argument`, with `path`.
 * @example
 * checkEdgeName('discord', 'platform'); // 'discord'
 * checkEdgeName('', 'platform'); // throws: platform must be a non-empty string
 */
export function checkEdgeName(value: unknown, path: string): string {
  const text = checkText(value, path);
  return text === '' ? refuse(path, 'must be a non-empty string') : text;
}

/**
 * A {@link ProvisionRegistration} as edge stores take it: names non-empty, texts well-formed,
 * optional fields only when given, `routeKeys` copied.
 *
 * @throws {RelayError} `invalid_enrollment_argument`, `path` naming the field
 *   (`registration.tenant`, `registration.routeKeys[2]`, …).
 */
export function checkProvisionRegistration(value: unknown, path = 'registration'): ProvisionRegistration {
  const fields = checkObject(value, path);
  const optionalName = (key: 'instanceId') =>
    fields[key] === undefined ? {} : { [key]: checkEdgeName(fields[key], `${path}.${key}`) };
  const optionalText = (key: 'wakeUrl' | 'displayName') =>
    fields[key] === undefined ? {} : { [key]: checkText(fields[key], `${path}.${key}`) };
  return {
    tenant: checkEdgeName(fields['tenant'], `${path}.tenant`),
    subject: checkText(fields['subject'], `${path}.subject`),
    gatewayId: checkEdgeName(fields['gatewayId'], `${path}.gatewayId`),
    platform: checkEdgeName(fields['platform'], `${path}.platform`),
    botId: checkText(fields['botId'], `${path}.botId`),
    gatewayEndpoint: checkText(fields['gatewayEndpoint'], `${path}.gatewayEndpoint`),
    routeKeys: checkNames(fields['routeKeys'], `${path}.routeKeys`),
    ...optionalName('instanceId'),
    ...optionalText('wakeUrl'),
    ...optionalText('displayName'),
  };
}

/**
 * A {@link GatewayRelevancePolicy} as edge stores take it: names non-empty, flags booleans,
 * `freeResponseScopes` copied.
 *
 * @throws {RelayError} `invalid_enrollment_argument`, `path` naming the field.
 */
export function checkRelevancePolicy(value: unknown, path = 'policy'): GatewayRelevancePolicy {
  const fields = checkObject(value, path);
  return {
    tenant: checkEdgeName(fields['tenant'], `${path}.tenant`),
    gatewayId: checkEdgeName(fields['gatewayId'], `${path}.gatewayId`),
    platform: checkEdgeName(fields['platform'], `${path}.platform`),
    requireAddress: checkBoolean(fields['requireAddress'], `${path}.requireAddress`),
    freeResponseScopes: checkNames(fields['freeResponseScopes'], `${path}.freeResponseScopes`),
    allowOtherBots: checkBoolean(fields['allowOtherBots'], `${path}.allowOtherBots`),
  };
}

function refuse(path: string, message: string): never {
  throw new RelayError('invalid_enrollment_argument', `${path} ${message}`, { path });
}

/** A string of well-formed Unicode (possibly empty). */
function checkText(value: unknown, path: string): string {
  if (typeof value !== 'string') return refuse(path, `must be a string, got ${describeType(value)}`);
  if (LONE_SURROGATE.test(value))
    return refuse(path, 'must be well-formed Unicode (it has a lone surrogate)');
  return value;
}

function checkNames(value: unknown, path: string): string[] {
  if (!Array.isArray(value)) return refuse(path, `must be an array of strings, got ${describeType(value)}`);
  return value.map((entry, index) => checkEdgeName(entry, `${path}[${index}]`));
}

function checkObject(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return refuse(path, `must be an object, got ${describeType(value)}`);
  }
  return value as Record<string, unknown>;
}

function checkBoolean(value: unknown, path: string): boolean {
  return typeof value === 'boolean' ? value : refuse(path, `must be a boolean, got ${describeType(value)}`);
}

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
 *   answer, never taken over; a key of the same tenant moves to the registering gateway;
 * - a malformed argument is refused with `RelayError` `invalid_enrollment_argument`, its `path`
 *   naming it (`registration.tenant`, `registration.routeKeys[1]`, `gatewayId`, `platform`, `routeKey`).
 */
export interface ProvisionRegistry {
  register(registration: ProvisionRegistration): Promise<readonly string[]>;
  get(gatewayId: string, platform: string): Promise<ProvisionRegistration | null>;
  /** The gateway that holds `routeKey` on `platform`, or `null`. */
  route(platform: string, routeKey: string): Promise<ProvisionedRoute | null>;
}

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
