import { storageValidationError, UnsupportedFilterError } from './errors.js';

/**
 * The keys of the `QueryFilters` shape itself. They are always allowed and never checked against a
 * substrate's `supported_filters` — `permissive_filters` included, whatever its value.
 */
export const BASE_QUERY_FILTER_KEYS: readonly string[] = Object.freeze([
  'query',
  'limit',
  'mode',
  'permissive_filters',
]);

const baseKeys: ReadonlySet<string> = new Set(BASE_QUERY_FILTER_KEYS);

function isPlainObject(value: unknown): value is Readonly<Record<PropertyKey, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Refuses a DataStore query whose filter keys the substrate does not honour, before the substrate sees
 * it — so an unhonoured `vault`, tenant or access filter can never be dropped silently.
 *
 * The rules, each deliberate:
 * - **Only the literal `true` opts out.** `permissive_filters: true` skips the check; `'true'`, `1` or
 *   any other value does not, and the remaining keys are checked.
 * - **Base keys** (`query`, `limit`, `mode`, `permissive_filters`) always pass.
 * - **Presence-based.** Every other own key counts, whatever its value (`undefined` and `null`
 *   included) and whether or not it is enumerable; a symbol key counts too.
 * - **Case-sensitive.** `Vault` is not `vault`, and `Query` is not a base key.
 * - **Fail-closed.** `supported` absent or empty means the substrate honours no extra key, so every
 *   extra key is refused.
 *
 * @param filters - the query object, a plain object (inherited keys would reach a substrate unchecked,
 *   so any other prototype is refused).
 * @param supported - the substrate's `manifest().supported_filters`, as declared.
 * @param substrate - who enforces, for the error message.
 * @throws {UnsupportedFilterError} listing the offending keys in the object's key order.
 * @throws {AgentConnectorError} `storage_validation`: when `filters` is not a plain object or `supported` is
 *   not an array of strings.
 * @example
 * enforceSupportedFilters({ query: 'q', limit: 5, mode: 'fts', domain_tags: 'ops' }, ['domain_tags']); // ok
 * enforceSupportedFilters({ query: 'q', limit: 5, mode: 'fts', vault: 'x' }, ['domain_tags']); // throws
 */
export function enforceSupportedFilters(
  filters: Readonly<Record<string, unknown>>,
  supported: readonly string[] | undefined,
  substrate = 'DataStore',
): void {
  if (!isPlainObject(filters)) throw storageValidationError('must be a plain object', 'filters');
  if (
    supported !== undefined &&
    (!Array.isArray(supported) || !supported.every((k) => typeof k === 'string'))
  ) {
    throw storageValidationError('must be an array of strings', 'supported');
  }
  if (filters['permissive_filters'] === true) return;
  const declared: ReadonlySet<string> = new Set(supported ?? []);
  const unsupported = Reflect.ownKeys(filters)
    .filter((key) => typeof key === 'symbol' || (!baseKeys.has(key) && !declared.has(key)))
    .map(String);
  if (unsupported.length > 0) throw new UnsupportedFilterError(unsupported, [...declared], substrate);
}
