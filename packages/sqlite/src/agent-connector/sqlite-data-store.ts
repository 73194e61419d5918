import { randomUUID } from 'node:crypto';
import {
  agentConnectorSchemas,
  type DataStore,
  type DataStoreCapabilities,
  type DataStoreManifest,
  type DataWrite,
  type DataWriteRecord,
  type ManifestInfo,
  type PortableData,
  type QueryFilters,
  storageConventions,
} from '@agentwire/agent-connector';
import Database from 'better-sqlite3';
import { migrateSchema, type SchemaComponent } from '../shared/database.js';
import { storeClosedError } from '../shared/errors.js';
import {
  clockOption,
  type DatabaseLocation,
  invalidFtsQueryError,
  openDatabase,
  type SqliteDatabase,
  unsupportedQueryModeError,
} from './shared.js';

const {
  CURATED_DATA_FIELDS,
  enforceSupportedFilters,
  parseStorageValue,
  storageValidationError,
  summarizeContent,
  unixSeconds,
} = storageConventions;
const { dataWrite: dataWriteSchema } = agentConnectorSchemas;

const IMPLEMENTATION = 'SqliteDataStore';
const SUPPORTED_MODES: readonly string[] = Object.freeze(['fts']);
const SUPPORTED_FILTERS: readonly string[] = Object.freeze(['domain_tags']);
const CURATED: ReadonlySet<string> = new Set(CURATED_DATA_FIELDS);

/** Options of {@link SqliteDataStore}: where the data lives, and the clock. */
export type SqliteDataStoreOptions = DatabaseLocation & {
  /** The current time in epoch milliseconds (default `Date.now`): stamps `created_at` and decides expiry. */
  readonly now?: () => number;
};

/** A `data_entries` row with its tags (a JSON array) and, from a search, its score. */
interface EntryRow {
  id: string;
  summary: string;
  detail: string;
  created_at: number;
  expires_at: number | null;
  recipients_json: string | null;
  metadata_json: string | null;
  tags_json: string;
  score?: number;
}

const ENTRY_COLUMNS = `e.id, e.summary, e.detail, e.created_at, e.expires_at, e.recipients_json, e.metadata_json,
  (SELECT json_group_array(tag ORDER BY position) FROM data_entry_tags WHERE entry_seq = e.seq)
    AS tags_json`;
const LIVE = '(e.expires_at IS NULL OR e.expires_at > $now)';
const TAGGED = `EXISTS (SELECT 1 FROM data_entry_tags t
  WHERE t.entry_seq = e.seq AND t.tag IN (SELECT value FROM json_each($tags)))`;

/**
 * A durable `DataStore` on SQLite (better-sqlite3) with FTS5 keyword search, following the reference
 * `SqliteDataStore`'s conventions where the contract leaves room and the contract where they differ:
 *
 * - `write()` assigns a UUID `id` and `created_at` in unix seconds; `summary` is the content's first line
 *   (see `summarizeContent`), `detail` the whole content; `tags` become `domain_tags`.
 * - `recipients` and `expires_at` come back as top-level fields — never inside `metadata`, which refuses
 *   curated field names. `expires_at` absent or `null` keeps an entry forever; an entry whose `expires_at`
 *   has passed is no longer returned by `query()` or `get()`.
 * - `query()` supports mode `'fts'` only. The text is searched token by token, FTS5 syntax taken
 *   literally, unless it starts with `raw:`; an empty text lists the most recent entries. The
 *   `domain_tags` filter (a tag, or an array meaning any of them; `[]` = no filter) applies to both, and
 *   any other filter key is refused (`UnsupportedFilterError`) unless `permissive_filters: true`.
 * - `get()` resolves to `null` for an id it does not hold; `query()` to `[]` when nothing matches.
 *
 * @example
 * ```ts
 * const store = new SqliteDataStore({ path: './data/memories.db' });
 * const { id } = await store.write({ content: 'Deploy window moved to Friday\nOps agreed.', tags: ['ops'] });
 * const hits = await store.query({ query: 'deploy friday', limit: 5, mode: 'fts', domain_tags: 'ops' });
 * store.close();
 * ```
 */
export class SqliteDataStore implements DataStore {
  /** The capabilities the class declares, read offline by linters and conformance suites. */
  static staticCapabilities(): DataStoreCapabilities {
    return {
      connector_type: 'data_store',
      implementation: IMPLEMENTATION,
      contract_version: '1.0.0',
      features: {
        supports_writes: true,
        supports_tag_filter: true,
        supports_semantic: false,
        supports_rerank: false,
        supports_thread_status_filter: false,
        supports_pinning: false,
        supports_decay_model: false,
      },
    };
  }

  readonly #database: SqliteDatabase;
  readonly #owned: boolean;
  readonly #now: () => number;
  #closed = false;

  /**
   * Opens the store and creates or migrates its tables.
   *
   * @throws {AgentConnectorError} `storage_validation`: for options that are neither `{ path }` nor
   *   `{ database }`.
   * @throws {SqliteStoreError} `schema_migration`: when the database holds a newer or clashing schema.
   */
  constructor(options: SqliteDataStoreOptions) {
    const { database, owned } = openDatabase(options, 'options');
    this.#database = database;
    this.#owned = owned;
    try {
      this.#now = clockOption(options.now);
      migrateSchema(database, DATA_STORE_SCHEMA);
    } catch (error) {
      if (owned) database.close();
      throw error;
    }
  }

  /**
   * Stores one entry.
   *
   * @throws {AgentConnectorError} `storage_validation`: when `entry` breaks `DataWrite`, its `metadata` names
   *   a curated field or cannot be written as JSON.
   * @throws {SqliteStoreError} `store_closed`: after `close()`.
   */
  async write(entry: DataWrite): Promise<DataWriteRecord> {
    const database = this.#open();
    const valid = parseStorageValue(dataWriteSchema, entry, 'entry');
    const metadataJson = valid.metadata === undefined ? null : metadataToJson(valid.metadata);
    const record: DataWriteRecord = { id: randomUUID(), created_at: this.#nowSeconds() };
    const tags = [...new Set(valid.tags ?? [])];
    database
      .transaction(() => {
        const { lastInsertRowid } = database
          .prepare(
            `INSERT INTO data_entries (id, summary, detail, created_at, expires_at, recipients_json, metadata_json)
             VALUES (?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            record.id,
            summarizeContent(valid.content),
            valid.content,
            record.created_at,
            valid.expires_at ?? null,
            valid.recipients === undefined ? null : JSON.stringify(valid.recipients),
            metadataJson,
          );
        const insertTag = database.prepare(
          'INSERT INTO data_entry_tags (entry_seq, position, tag) VALUES (?, ?, ?)',
        );
        for (const [position, tag] of tags.entries()) insertTag.run(lastInsertRowid, position, tag);
      })
      .immediate();
    return record;
  }

  /**
   * The entry with this `id`, or `null` when the store holds none (or it has expired). Never throws for a
   * miss.
   *
   * @throws {AgentConnectorError} `storage_validation`: when `id` is not a string.
   * @throws {SqliteStoreError} `store_closed`: after `close()`.
   */
  async get(id: string): Promise<PortableData | null> {
    const database = this.#open();
    if (typeof id !== 'string') throw storageValidationError('must be a string', 'id');
    const row = database
      .prepare<{ id: string; now: number }, EntryRow>(
        `SELECT ${ENTRY_COLUMNS} FROM data_entries e WHERE e.id = $id AND ${LIVE}`,
      )
      .get({ id, now: this.#nowSeconds() });
    return row === undefined ? null : toPortableData(row);
  }

  /**
   * Searches the store: best matches first (`score` higher is better), or the most recent entries for an
   * empty query; at most `limit` items (a fractional limit is rounded down, to at least 1). `[]` when
   * nothing matches.
   *
   * @throws {AgentConnectorError} `storage_validation`: when `filters` breaks `QueryFilters` or `domain_tags`
   *   is neither a string nor an array of strings.
   * @throws {UnsupportedFilterError} for a filter key other than `domain_tags` (unless
   *   `permissive_filters: true`).
   * @throws {SqliteStoreError} `unsupported_query_mode`: for a mode other than `'fts'`.
   * @throws {SqliteStoreError} `invalid_fts_query`: when a `raw:` query is not valid FTS5.
   * @throws {SqliteStoreError} `store_closed`: after `close()`.
   */
  async query(filters: QueryFilters): Promise<PortableData[]> {
    const database = this.#open();
    enforceSupportedFilters(filters, SUPPORTED_FILTERS, IMPLEMENTATION);
    const { query, limit, mode } = checkQueryBasics(filters);
    if (!SUPPORTED_MODES.includes(mode)) throw unsupportedQueryModeError(mode, SUPPORTED_MODES);
    const tags = domainTagsFilter(filters['domain_tags']);
    const parameters: Record<string, unknown> = {
      now: this.#nowSeconds(),
      limit: Math.max(1, Math.floor(limit)),
      ...(tags === undefined ? {} : { tags: JSON.stringify(tags) }),
    };
    const tagClause = tags === undefined ? '' : ` AND ${TAGGED}`;
    const search = ftsSearchOf(query);
    if (search.kind === 'recent') {
      const rows = database
        .prepare<Record<string, unknown>, EntryRow>(
          `SELECT ${ENTRY_COLUMNS} FROM data_entries e WHERE ${LIVE}${tagClause}
           ORDER BY e.created_at DESC, e.seq DESC LIMIT CAST($limit AS INTEGER)`,
        )
        .all(parameters);
      return rows.map(toPortableData);
    }
    if (search.raw) checkRawExpression(database, search.expression);
    return database
      .prepare<Record<string, unknown>, EntryRow>(
        `SELECT ${ENTRY_COLUMNS}, 0.0 - bm25(data_entries_fts) AS score
           FROM data_entries_fts JOIN data_entries e ON e.seq = data_entries_fts.rowid
          WHERE data_entries_fts MATCH $expression AND ${LIVE}${tagClause}
          ORDER BY score DESC, e.seq DESC LIMIT CAST($limit AS INTEGER)`,
      )
      .all({ ...parameters, expression: search.expression })
      .map(toPortableData);
  }

  /** The substrate description: kind `'sqlite-fts'`, mode `'fts'`, filter `domain_tags`, score range. */
  async manifest(): Promise<ManifestInfo<DataStoreManifest>> {
    this.#open();
    return {
      capabilities_version: '1',
      manifest: {
        kind: 'sqlite-fts',
        supported_modes: [...SUPPORTED_MODES],
        supported_filters: [...SUPPORTED_FILTERS],
        score_range: 'unbounded, >= 0, higher is better (negated FTS5 bm25)',
        fts_query_semantic: 'tokens quoted and ANDed (FTS5 operators literal); prefix raw: for FTS5 syntax',
        tag_filter_semantic: 'domain_tags: a tag (exact) or an array (any of); [] = no filter',
      },
    };
  }

  /**
   * Closes the database connection when the store opened it (a connection passed in as `database` stays
   * open: its owner closes it). Idempotent; every later call throws `store_closed`.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#owned) this.#database.close();
  }

  #open(): SqliteDatabase {
    if (this.#closed || !this.#database.open) throw storeClosedError(IMPLEMENTATION);
    return this.#database;
  }

  #nowSeconds(): number {
    return unixSeconds(this.#now());
  }
}

/**
 * Checks the three base keys of a query. `permissive_filters` is left to `enforceSupportedFilters`: a value
 * other than `true` (the bridge forwards `'true'` or `1` as given) simply does not opt out.
 */
function checkQueryBasics(filters: QueryFilters): { query: string; limit: number; mode: string } {
  const { query, limit, mode } = filters as Readonly<Record<string, unknown>>;
  if (typeof query !== 'string') throw storageValidationError('must be a string', 'filters.query');
  if (typeof limit !== 'number' || !Number.isFinite(limit) || limit <= 0) {
    throw storageValidationError('must be a positive finite number', 'filters.limit');
  }
  if (typeof mode !== 'string') throw storageValidationError('must be a string', 'filters.mode');
  return { query, limit, mode };
}

/**
 * Makes FTS5 parse a `raw:` expression on its own, so that an invalid one is refused whatever the data: in
 * the search itself SQLite may skip the full-text scan, and with it the parse, when another condition (a
 * `domain_tags` filter no entry carries) already rules every row out.
 *
 * @throws {SqliteStoreError} `invalid_fts_query`: when FTS5 refuses the expression.
 */
function checkRawExpression(database: SqliteDatabase, expression: string): void {
  try {
    database
      .prepare<[string], unknown>('SELECT rowid FROM data_entries_fts WHERE data_entries_fts MATCH ? LIMIT 1')
      .get(expression);
  } catch (error) {
    if (error instanceof Database.SqliteError) throw invalidFtsQueryError(expression, error);
    throw error;
  }
}

/** The tags a `domain_tags` filter value selects (any of them), or `undefined` for no filter. */
function domainTagsFilter(value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((tag) => typeof tag === 'string')) {
    return value.length === 0 ? undefined : value;
  }
  throw storageValidationError('must be a tag or an array of tags', 'filters.domain_tags');
}

/** Serialises an entry's metadata, refusing curated field names (they are top-level fields). */
function metadataToJson(metadata: Readonly<Record<string, unknown>>): string {
  for (const key of Object.keys(metadata)) {
    if (CURATED.has(key)) {
      throw storageValidationError(
        'is a curated field: it belongs at the top level, not in metadata',
        `entry.metadata.${key}`,
      );
    }
  }
  try {
    return JSON.stringify(metadata);
  } catch (error) {
    throw storageValidationError('must be serialisable as JSON', 'entry.metadata', error);
  }
}

function toPortableData(row: EntryRow): PortableData {
  const tags = JSON.parse(row.tags_json) as string[];
  return {
    id: row.id,
    summary: row.summary,
    detail: row.detail,
    ...(row.score === undefined ? {} : { score: row.score + 0 }),
    created_at: row.created_at,
    ...(tags.length === 0 ? {} : { domain_tags: tags }),
    ...(row.recipients_json === null ? {} : { recipients: JSON.parse(row.recipients_json) as string[] }),
    ...(row.expires_at === null ? {} : { expires_at: row.expires_at }),
    ...(row.metadata_json === null
      ? {}
      : { metadata: JSON.parse(row.metadata_json) as Record<string, unknown> }),
  };
}

/**
 * The data store's tables:
 * - `data_entries`: one row per write — the public `id` (a UUID), `summary`, `detail` (the full content),
 *   `created_at` / `expires_at` (unix seconds; `expires_at` NULL = durable), recipients and metadata as JSON;
 * - `data_entry_tags`: the `domain_tags` relation, in written order, that the tag filter uses;
 * - `data_entries_fts`: an FTS5 index over `detail` (the summary is a prefix of it), kept by triggers.
 */
export const DATA_STORE_SCHEMA: SchemaComponent = {
  name: 'data_store',
  migrations: [
    `CREATE TABLE data_entries (
       seq INTEGER PRIMARY KEY,
       id TEXT NOT NULL UNIQUE,
       summary TEXT NOT NULL,
       detail TEXT NOT NULL,
       created_at INTEGER NOT NULL,
       expires_at INTEGER,
       recipients_json TEXT,
       metadata_json TEXT
     );
     CREATE INDEX data_entries_recent_idx ON data_entries (created_at DESC, seq DESC);
     CREATE TABLE data_entry_tags (
       entry_seq INTEGER NOT NULL REFERENCES data_entries (seq) ON DELETE CASCADE,
       position INTEGER NOT NULL,
       tag TEXT NOT NULL,
       PRIMARY KEY (entry_seq, position),
       UNIQUE (entry_seq, tag)
     );
     CREATE INDEX data_entry_tags_tag_idx ON data_entry_tags (tag, entry_seq);
     CREATE VIRTUAL TABLE data_entries_fts USING fts5 (
       detail, content = 'data_entries', content_rowid = 'seq', tokenize = 'unicode61 remove_diacritics 2'
     );
     CREATE TRIGGER data_entries_fts_insert AFTER INSERT ON data_entries BEGIN
       INSERT INTO data_entries_fts (rowid, detail) VALUES (new.seq, new.detail);
     END;
     CREATE TRIGGER data_entries_fts_delete AFTER DELETE ON data_entries BEGIN
       INSERT INTO data_entries_fts (data_entries_fts, rowid, detail) VALUES ('delete', old.seq, old.detail);
     END;`,
  ],
};

/** The prefix that hands the rest of a query to FTS5 as written. */
export const RAW_FTS_PREFIX = 'raw:';

/** How a `query` string is searched: nothing to match (list recent entries), or an FTS5 expression. */
export type FtsSearch =
  | { readonly kind: 'recent' }
  | { readonly kind: 'match'; readonly expression: string; readonly raw: boolean };

/**
 * Turns a data-store `query` string into an FTS5 `MATCH` expression, as the reference store does.
 *
 * A plain query is split on white space and every token becomes a quoted phrase (`"` doubled inside), so
 * FTS5 syntax in user text — `OR`, `NOT`, `NEAR`, `*`, `^`, column filters, quotes — is searched for
 * literally and the tokens are ANDed. A token of punctuation only tokenises to nothing and constrains
 * nothing. A query starting with `raw:` passes the rest (trimmed) to FTS5 unchanged, for callers who
 * want its syntax. An empty or white-space-only query — `raw:` with nothing after it included — matches
 * nothing to search, and the store lists its most recent entries instead.
 *
 * @example
 * ftsSearchOf('deploy OR rollback'); // { kind: 'match', expression: '"deploy" "OR" "rollback"', raw: false }
 * ftsSearchOf('raw:deploy OR rollback'); // { kind: 'match', expression: 'deploy OR rollback', raw: true }
 */
export function ftsSearchOf(query: string): FtsSearch {
  if (query.startsWith(RAW_FTS_PREFIX)) {
    const expression = query.slice(RAW_FTS_PREFIX.length).trim();
    return expression === '' ? { kind: 'recent' } : { kind: 'match', expression, raw: true };
  }
  const tokens = query.split(/\s+/).filter((token) => token !== '');
  if (tokens.length === 0) return { kind: 'recent' };
  const expression = tokens.map((token) => `"${token.replaceAll('"', '""')}"`).join(' ');
  return { kind: 'match', expression, raw: false };
}
