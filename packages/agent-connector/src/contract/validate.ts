import type { z } from 'zod';
import { type ContractValueType, InvalidContractValueError } from './errors.js';

/**
 * Parses `value` with `schema`, reading it as its JSON form would be read: properties whose value is
 * `undefined` count as absent. A failure becomes an {@link InvalidContractValueError} naming the first
 * failing path.
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
  throw new InvalidContractValueError(contractType, path, issue?.message ?? 'invalid value', {
    cause: result.error,
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
