import {
  type GatewayRelevancePolicy,
  InvalidEnrollmentArgumentError,
  type ProvisionRegistration,
} from '@agentwire/relay/edge';
import { CorruptEdgeRecordError } from './errors.js';

// Checks of what the Redis edge stores write and read back: the same rules refuse an argument
// (`InvalidEnrollmentArgumentError`) and a record that is not one the store wrote
// (`CorruptEdgeRecordError`), so nothing malformed reaches Redis or leaves it as a TypeError.

/** Throws the error of one refused value; `path` names it. */
export type Refuse = (path: string, message: string) => never;

/** Refuses an argument of an edge store method. */
export const refuseArgument: Refuse = (path, message) => {
  throw new InvalidEnrollmentArgumentError(`${path} ${message}`, path);
};

/** Refuses a record read back from Redis. */
export const refuseRecord: Refuse = (path, message) => {
  throw new CorruptEdgeRecordError(`stored ${path} ${message}`, path);
};

// A UTF-16 code unit from the surrogate range that is not half of a high-low pair: it has no UTF-8
// form, so Redis would store it as U+FFFD and merge two different names into one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A string of well-formed Unicode (possibly empty). */
export function checkText(value: unknown, path: string, refuse: Refuse): string {
  if (typeof value !== 'string') return refuse(path, `must be a string, got ${describe(value)}`);
  if (LONE_SURROGATE.test(value))
    return refuse(path, 'must be well-formed Unicode (it has a lone surrogate)');
  return value;
}

/** A tenant, gateway id, platform, route key or token: a non-empty string of well-formed Unicode. */
export function checkName(value: unknown, path: string, refuse: Refuse = refuseArgument): string {
  const text = checkText(value, path, refuse);
  return text === '' ? refuse(path, 'must be a non-empty string') : text;
}

/** An array of names, as a fresh array. */
export function checkNames(value: unknown, path: string, refuse: Refuse): string[] {
  if (!Array.isArray(value)) return refuse(path, `must be an array of strings, got ${describe(value)}`);
  return value.map((entry, index) => checkName(entry, `${path}[${index}]`, refuse));
}

/** A registration with exactly the interface's keys (optional ones only when given), route keys copied. */
export function checkRegistration(value: unknown, path: string, refuse: Refuse): ProvisionRegistration {
  const fields = checkObject(value, path, refuse);
  const optionalName = (key: 'instanceId') =>
    fields[key] === undefined ? {} : { [key]: checkName(fields[key], `${path}.${key}`, refuse) };
  const optionalText = (key: 'wakeUrl' | 'displayName') =>
    fields[key] === undefined ? {} : { [key]: checkText(fields[key], `${path}.${key}`, refuse) };
  return {
    tenant: checkName(fields['tenant'], `${path}.tenant`, refuse),
    subject: checkText(fields['subject'], `${path}.subject`, refuse),
    gatewayId: checkName(fields['gatewayId'], `${path}.gatewayId`, refuse),
    platform: checkName(fields['platform'], `${path}.platform`, refuse),
    botId: checkText(fields['botId'], `${path}.botId`, refuse),
    gatewayEndpoint: checkText(fields['gatewayEndpoint'], `${path}.gatewayEndpoint`, refuse),
    routeKeys: checkNames(fields['routeKeys'], `${path}.routeKeys`, refuse),
    ...optionalName('instanceId'),
    ...optionalText('wakeUrl'),
    ...optionalText('displayName'),
  };
}

/** A policy with exactly the interface's keys, free-response scopes copied. */
export function checkPolicy(value: unknown, path: string, refuse: Refuse): GatewayRelevancePolicy {
  const fields = checkObject(value, path, refuse);
  return {
    tenant: checkName(fields['tenant'], `${path}.tenant`, refuse),
    gatewayId: checkName(fields['gatewayId'], `${path}.gatewayId`, refuse),
    platform: checkName(fields['platform'], `${path}.platform`, refuse),
    requireAddress: checkBoolean(fields['requireAddress'], `${path}.requireAddress`, refuse),
    freeResponseScopes: checkNames(fields['freeResponseScopes'], `${path}.freeResponseScopes`, refuse),
    allowOtherBots: checkBoolean(fields['allowOtherBots'], `${path}.allowOtherBots`, refuse),
  };
}

/** Parses a stored JSON text, refusing text that is not JSON as a corrupt record. */
export function parseRecord(text: string, path: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CorruptEdgeRecordError(`stored ${path} is not JSON`, path, { cause: error });
  }
}

function checkObject(value: unknown, path: string, refuse: Refuse): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return refuse(path, `must be an object, got ${describe(value)}`);
  }
  return value as Record<string, unknown>;
}

function checkBoolean(value: unknown, path: string, refuse: Refuse): boolean {
  return typeof value === 'boolean' ? value : refuse(path, `must be a boolean, got ${describe(value)}`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}
