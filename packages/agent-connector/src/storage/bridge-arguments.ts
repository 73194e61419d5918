import type { DataWrite, QueryFilters } from './data-store.js';
import { storageValidationError } from './errors.js';

/** `mode` of a bridged query that names none. */
export const DEFAULT_QUERY_MODE = 'fts';
/** `limit` of a bridged query that names no usable one. */
export const DEFAULT_QUERY_LIMIT = 10;

/** Tool arguments as a skill passes them to the bridge: a JSON-like object of named values. */
export type BridgeArguments = Readonly<Record<string, unknown>>;

function requireObject(args: unknown): asserts args is BridgeArguments {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw storageValidationError('must be an object', 'args');
  }
}

/** Sets an own property, so a key such as `__proto__` stays a visible filter instead of a prototype. */
function defineEntry(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function readLimit(raw: unknown): number {
  if (typeof raw === 'number') return Number.isFinite(raw) && raw > 0 ? raw : DEFAULT_QUERY_LIMIT;
  if (typeof raw === 'string') {
    const parsed = Number.parseInt(raw, 10);
    if (parsed > 0) return parsed;
  }
  return DEFAULT_QUERY_LIMIT;
}

/**
 * The `QueryFilters` the bridge builds from a read call's arguments, as the reference bridge does:
 * - `query` must be a non-empty string;
 * - `mode` is a non-empty string, else `'fts'`;
 * - `limit` is a positive finite number as given (`2.7` stays `2.7`), else the positive `parseInt` of a
 *   string (`'12abc'` → `12`), else `10`;
 * - every other own enumerable argument is copied verbatim in argument order — `permissive_filters`
 *   included, whatever its value — to be checked by `enforceSupportedFilters`.
 * The reference also passes an infinite `limit` on; here it falls back to `10`.
 *
 * @throws {AgentConnectorError} `storage_validation`: when `args` is not an object or `query` is missing or
 *   empty.
 * @example
 * queryFiltersFromArgs({ query: 'deploy', limit: '5', vault: 'ops' });
 * // { query: 'deploy', limit: 5, mode: 'fts', vault: 'ops' }
 */
export function queryFiltersFromArgs(args: BridgeArguments): QueryFilters {
  requireObject(args);
  const query = args['query'];
  if (typeof query !== 'string' || query === '') {
    throw storageValidationError('must be a non-empty string', 'query');
  }
  const mode = args['mode'];
  const filters: QueryFilters = {
    query,
    limit: readLimit(args['limit']),
    mode: typeof mode === 'string' && mode !== '' ? mode : DEFAULT_QUERY_MODE,
  };
  for (const [key, value] of Object.entries(args)) {
    if (key !== 'query' && key !== 'limit' && key !== 'mode') defineEntry(filters, key, value);
  }
  return filters;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/**
 * The `DataWrite` the bridge builds from a write call's arguments, as the reference bridge does: `content`
 * is required and non-empty; `tags` and `recipients` are kept only when they are arrays of strings,
 * `expires_at` only when it is a finite number (so `null` is dropped), `metadata` only when it is a
 * non-array object. Nothing else is forwarded, and no filter check applies to writes.
 *
 * @throws {AgentConnectorError} `storage_validation`: when `args` is not an object or `content` is missing or
 *   empty.
 * @example
 * dataWriteFromArgs({ content: 'Deploy done\nall green', tags: ['ops'], expires_at: null });
 * // { content: 'Deploy done\nall green', tags: ['ops'] }
 */
export function dataWriteFromArgs(args: BridgeArguments): DataWrite {
  requireObject(args);
  const { content, tags, recipients, expires_at, metadata } = args;
  if (typeof content !== 'string' || content === '') {
    throw storageValidationError('must be a non-empty string', 'content');
  }
  const entry: DataWrite = { content };
  if (isStringArray(tags)) entry.tags = [...tags];
  if (isStringArray(recipients)) entry.recipients = [...recipients];
  if (typeof expires_at === 'number' && Number.isFinite(expires_at)) entry.expires_at = expires_at;
  if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)) {
    entry.metadata = metadata as Record<string, unknown>;
  }
  return entry;
}
