import type { z } from 'zod';
import { AgentConnectorError, type ContractValueType } from './errors.js';

/**
 * Parses `value` with `schema`, reading it as its JSON form would be read: properties whose value is
 * `undefined` count as absent. A failure becomes an `invalid_contract_value` {@link AgentConnectorError}
 * naming the first failing path.
 */
export function parseContractValue<T>(
  schema: z.ZodType<T>,
  contractType: ContractValueType,
  value: unknown,
): T {
  const result = schema.safeParse(withoutUndefinedProperties(value));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue === undefined ? '$' : jsonPath(issue.path);
  throw invalidContractValue(contractType, path, issue?.message ?? 'invalid value', result.error);
}

/**
 * The `invalid_contract_value` error: `contract_type` was being read, `path` is the JSON path of the first
 * failing field (`$` for the value itself), `rule` says what it breaks.
 */
export function invalidContractValue(
  contract_type: ContractValueType,
  path: string,
  rule: string,
  cause?: unknown,
): AgentConnectorError {
  return new AgentConnectorError('invalid_contract_value', `invalid ${contract_type} at ${path}: ${rule}`, {
    path,
    details: { contract_type },
    cause,
  });
}

function withoutUndefinedProperties(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefinedProperties);
  if (!isPlainObject(value)) return value;
  // fromEntries defines own properties, so a `__proto__` key stays data.
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .map(([key, item]) => [key, withoutUndefinedProperties(item)]),
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const key of path) {
    out += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  }
  return out;
}
