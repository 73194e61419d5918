import { isPlainObject } from '@agentwire/internal';
import { z } from 'zod';
import {
  contractVersionSchema,
  type ManifestInfo,
  manifestInfoSchema,
  parseStorageValue,
  unixSecondsSchema,
} from './conventions.js';
import { storageValidationError, UnsupportedFilterError } from './errors.js';

/**
 * The eleven portable fields a DataStore puts at the top level of a {@link PortableData} item. Anything
 * else the substrate knows goes in `metadata`, and a curated field never appears in both places.
 */
export const CURATED_DATA_FIELDS = [
  'thread_status',
  'pinned',
  'confidence',
  'domain_tags',
  'payload_type',
  'knowledge_type',
  'recipients',
  'expires_at',
  'created_at',
  'agent_id',
  'vault',
] as const;

/**
 * One stored entry as `query()` and `get()` return it: `id` and a one-line `summary` always, the full
 * text in `detail`, a relevance `score` from queries, the curated fields, and substrate extras in
 * `metadata` (which must not repeat a curated field). `created_at` and `expires_at` are unix seconds.
 */
export const portableDataSchema = z
  .object({
    id: z.string(),
    summary: z.string(),
    detail: z.string().exactOptional(),
    score: z.number().exactOptional(),
    thread_status: z.string().exactOptional(),
    pinned: z.boolean().exactOptional(),
    confidence: z.number().exactOptional(),
    domain_tags: z.array(z.string()).exactOptional(),
    payload_type: z.string().exactOptional(),
    knowledge_type: z.string().exactOptional(),
    recipients: z.array(z.string()).exactOptional(),
    expires_at: unixSecondsSchema.exactOptional(),
    created_at: unixSecondsSchema.exactOptional(),
    agent_id: z.string().exactOptional(),
    vault: z.string().exactOptional(),
    metadata: z.record(z.string(), z.unknown()).exactOptional(),
  })
  .superRefine((item, context) => {
    if (item.metadata === undefined) return;
    for (const field of CURATED_DATA_FIELDS) {
      if (Object.hasOwn(item.metadata, field)) {
        context.addIssue({
          code: 'custom',
          path: ['metadata', field],
          message: 'a curated field belongs at the top level, not in metadata',
        });
      }
    }
  });
/** See `portableDataSchema`. */
export type PortableData = z.output<typeof portableDataSchema>;

/**
 * `query()`'s argument: the search text, a positive `limit`, a `mode` (`'fts'`, `'semantic'`, `'rerank'`
 * or a substrate's own), and any filter keys. A filter key outside the substrate's declared
 * `supported_filters` is refused at the bridge (see `enforceSupportedFilters`) unless
 * `permissive_filters` is `true`.
 */
export const queryFiltersSchema = z.looseObject({
  query: z.string(),
  limit: z.number().positive(),
  mode: z.string(),
  permissive_filters: z.boolean().exactOptional(),
});
/** See `queryFiltersSchema`. */
export type QueryFilters = z.output<typeof queryFiltersSchema>;

/**
 * `write()`'s argument. `expires_at`: unix seconds for a finite life, `null` for an explicit "durable
 * forever" (a substrate with its own TTL or decay maps it to its pin), absent for the substrate's default.
 */
export const dataWriteSchema = z.object({
  content: z.string(),
  tags: z.array(z.string()).exactOptional(),
  recipients: z.array(z.string()).exactOptional(),
  expires_at: unixSecondsSchema.nullable().exactOptional(),
  metadata: z.record(z.string(), z.unknown()).exactOptional(),
});
/** See `dataWriteSchema`. */
export type DataWrite = z.output<typeof dataWriteSchema>;

/** What `write()` returns: the substrate-assigned `id` and `created_at` in unix seconds. */
export const dataWriteRecordSchema = z.object({
  id: z.string(),
  created_at: unixSecondsSchema,
});
/** See `dataWriteRecordSchema`. */
export type DataWriteRecord = z.output<typeof dataWriteRecordSchema>;

/**
 * `manifest().manifest` of a DataStore. `supported_filters` lists every filter key `query()` honours —
 * absent means none, so every non-base key is refused (fail-closed).
 */
export const dataStoreManifestSchema = z.looseObject({
  kind: z.string(),
  supported_modes: z.array(z.string()).exactOptional(),
  supported_filters: z.array(z.string()).exactOptional(),
  score_range: z.string().exactOptional(),
});
/** See `dataStoreManifestSchema`. */
export type DataStoreManifest = z.output<typeof dataStoreManifestSchema>;

/** What a DataStore's `manifest()` resolves to. */
export const dataStoreManifestInfoSchema = manifestInfoSchema(dataStoreManifestSchema);

/** The capability flags a DataStore class may declare (closed set). */
export const DATA_STORE_FEATURES = [
  'supports_writes',
  'supports_tag_filter',
  'supports_semantic',
  'supports_rerank',
  'supports_thread_status_filter',
  'supports_pinning',
  'supports_decay_model',
] as const;

/** A DataStore class's static `staticCapabilities()`: pure, synchronous, no instance needed. */
export const dataStoreCapabilitiesSchema = z.object({
  connector_type: z.literal('data_store'),
  implementation: z.string().min(1),
  contract_version: contractVersionSchema,
  features: z.partialRecord(z.enum(DATA_STORE_FEATURES), z.boolean()),
});
/** See `dataStoreCapabilitiesSchema`. */
export type DataStoreCapabilities = z.output<typeof dataStoreCapabilitiesSchema>;

/**
 * Queryable knowledge. Misses never throw: `query()` returns `[]` and `get()` returns `null` — callers
 * branch on `result.length` and `result === null`, so keep it that way. By convention `summary` is the
 * first line of the written content and `detail` the whole of it.
 */
export interface DataStore {
  query(filters: QueryFilters): Promise<PortableData[]>;
  write(entry: DataWrite): Promise<DataWriteRecord>;
  get(id: string): Promise<PortableData | null>;
  manifest(): Promise<ManifestInfo<DataStoreManifest>>;
}

/** The longest `summary` kept whole, in UTF-16 code units. */
export const SUMMARY_MAX_LENGTH = 200;
const ELLIPSIS = '...';

/**
 * The `summary` a data store derives from written content, as the reference `SqliteDataStore` does:
 * the text before the first `\n`, and when that is longer than `SUMMARY_MAX_LENGTH` UTF-16 code
 * units, its first 197 followed by `...` (200 in all). A `\r` before the `\n` stays, as in the reference.
 *
 * One deliberate difference: a cut that would split a surrogate pair (an emoji at position 197) keeps
 * 196 units instead, so the summary never holds a lone surrogate that storage would turn into U+FFFD.
 *
 * @throws {AgentConnectorError} `storage_validation`: when `content` is not a string.
 * @example
 * summarizeContent('Deploy window moved\nDetails follow'); // 'Deploy window moved'
 */
export function summarizeContent(content: string): string {
  if (typeof content !== 'string') throw storageValidationError('must be a string', 'content');
  const newline = content.indexOf('\n');
  const firstLine = newline === -1 ? content : content.slice(0, newline);
  if (firstLine.length <= SUMMARY_MAX_LENGTH) return firstLine;
  let cut = SUMMARY_MAX_LENGTH - ELLIPSIS.length;
  const last = firstLine.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return `${firstLine.slice(0, cut)}${ELLIPSIS}`;
}

/** The tool name that routes a bridge call to `write`; every other name is a query. */
export const DATA_WRITE_TOOL = 'data_write';

/** What a bridged query returns: the store's items in an envelope (`foreach M in ${R.items}`). */
export interface DataQueryResult {
  items: PortableData[];
}

/** Options of {@link DataStoreQueryBridge}. */
export interface DataStoreQueryBridgeOptions {
  /** The name `UnsupportedFilterError` messages give the enforcer; `'DataStoreQueryBridge'` by default. */
  substrate?: string;
}

/**
 * The part of a DataStore manifest the bridge reads; every other field is the store's business. A missing
 * (or `null`) `manifest` or `supported_filters` declares no filters, as the reference bridge reads it.
 */
const supportedFiltersManifestSchema = z.looseObject({
  manifest: z.looseObject({ supported_filters: z.array(z.string()).nullish() }).nullish(),
});

/**
 * Exposes a {@link DataStore} to skills as the two bridge tools: a read (`query`) and `data_write`.
 *
 * Every read is checked with `enforceSupportedFilters` against the store's
 * `manifest().supported_filters` before the store is called; a refused query never reaches it. The
 * declared list is read on the first query and kept for the bridge's lifetime (a failed `manifest()`
 * is not kept, so the next query asks again). Writes are never filter-checked.
 *
 * @example
 * const bridge = new DataStoreQueryBridge(store);
 * const { items } = await bridge.query({ query: 'deploy', domain_tags: 'ops' });
 * await bridge.call('data_write', { content: 'Deploy done' });
 */
export class DataStoreQueryBridge {
  readonly #store: DataStore;
  readonly #substrate: string;
  #supportedFilters: Promise<readonly string[]> | undefined;

  constructor(store: DataStore, options: DataStoreQueryBridgeOptions = {}) {
    this.#store = store;
    this.#substrate = options.substrate ?? 'DataStoreQueryBridge';
  }

  /** Routes a tool call: `DATA_WRITE_TOOL` writes, any other tool name queries. */
  call(tool: string, args: BridgeArguments): Promise<DataQueryResult | DataWriteRecord> {
    return tool === DATA_WRITE_TOOL ? this.write(args) : this.query(args);
  }

  /**
   * Builds the filters (`queryFiltersFromArgs`), checks them against the declared filters, and returns
   * the store's answer as `{ items }`.
   *
   * @throws {AgentConnectorError} `storage_validation`: for a missing `query`, an invalid manifest, or a
   *   non-array answer.
   * @throws {UnsupportedFilterError} for an undeclared filter key; the store is not called.
   */
  async query(args: BridgeArguments): Promise<DataQueryResult> {
    const filters = queryFiltersFromArgs(args);
    enforceSupportedFilters(filters, await this.#declaredFilters(), this.#substrate);
    const items = await this.#store.query(filters);
    if (!Array.isArray(items)) throw storageValidationError('must be an array', 'items');
    return { items };
  }

  /**
   * Builds the entry (`dataWriteFromArgs`) and writes it.
   *
   * @throws {AgentConnectorError} `storage_validation`: for a missing `content`.
   */
  async write(args: BridgeArguments): Promise<DataWriteRecord> {
    return this.#store.write(dataWriteFromArgs(args));
  }

  #declaredFilters(): Promise<readonly string[]> {
    if (this.#supportedFilters === undefined) {
      const pending = this.#store.manifest().then((info) => {
        const { manifest } = parseStorageValue(supportedFiltersManifestSchema, info, 'manifest');
        return Object.freeze([...(manifest?.supported_filters ?? [])]);
      });
      pending.catch(() => {
        if (this.#supportedFilters === pending) this.#supportedFilters = undefined;
      });
      this.#supportedFilters = pending;
    }
    return this.#supportedFilters;
  }
}

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
