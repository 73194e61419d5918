import { RelayError } from '../../errors.js';
import type { GatewayRelevancePolicy } from './policy-store.js';
import type { ProvisionRegistration } from './provision-registry.js';

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
  if (typeof value !== 'string') return refuse(path, `must be a string, got ${describe(value)}`);
  if (LONE_SURROGATE.test(value))
    return refuse(path, 'must be well-formed Unicode (it has a lone surrogate)');
  return value;
}

function checkNames(value: unknown, path: string): string[] {
  if (!Array.isArray(value)) return refuse(path, `must be an array of strings, got ${describe(value)}`);
  return value.map((entry, index) => checkEdgeName(entry, `${path}[${index}]`));
}

function checkObject(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return refuse(path, `must be an object, got ${describe(value)}`);
  }
  return value as Record<string, unknown>;
}

function checkBoolean(value: unknown, path: string): boolean {
  return typeof value === 'boolean' ? value : refuse(path, `must be a boolean, got ${describe(value)}`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}
