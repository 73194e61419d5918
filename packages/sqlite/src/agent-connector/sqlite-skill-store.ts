import {
  agentConnectorSchemas,
  type ManifestInfo,
  type SkillFilter,
  type SkillMeta,
  type SkillMetaInput,
  SkillNotFoundError,
  type SkillSource,
  type SkillStatus,
  type SkillStore,
  type SkillStoreCapabilities,
  type SkillStoreManifest,
  storageConventions,
  type VersionInfo,
} from '@agentwire/agent-connector';
import { migrateSchema, type SchemaComponent } from '../shared/database.js';
import { storeClosedError } from '../shared/errors.js';
import {
  approvalRequiredError,
  clockOption,
  type DatabaseLocation,
  openDatabase,
  type SqliteDatabase,
} from './shared.js';

const {
  catalogChangeToken,
  contentIdentity,
  parseStorageValue,
  readStatusHeader,
  statusOfSkill,
  storageConflictError,
  storageValidationError,
  unixSeconds,
  withStatusHeader,
} = storageConventions;
const {
  skillFilter: skillFilterSchema,
  skillMetaInput: skillMetaInputSchema,
  skillStatus: skillStatusSchema,
} = agentConnectorSchemas;

const IMPLEMENTATION = 'SqliteSkillStore';

/** Options of {@link SqliteSkillStore}: where the skills live, the clock, and secured mode. */
export type SqliteSkillStoreOptions = DatabaseLocation & {
  /** The current time in epoch milliseconds (default `Date.now`); stores record whole unix seconds. */
  readonly now?: () => number;
  /**
   * Secured mode: a write that would leave a skill Approved without an approval signature is stored as
   * Draft instead, and `update_status(name, 'Approved')` refuses an unsigned body. Default `false`.
   */
  readonly secured?: boolean;
  /**
   * Secured mode's test of whether a body is signed. Default: the status header carries a `v3:` token
   * (see `hasApprovalSignature`); pass a verifier to check the signature itself.
   */
  readonly isSignedApproval?: (source: string) => boolean;
};

/** The optional `SkillMeta` projections a write may carry, kept as given. */
const PROJECTION_KEYS = [
  'vars',
  'returns',
  'requires',
  'triggers',
  'outputs',
  'type',
  'metadata_bag',
] as const;
type Projections = Pick<SkillMeta, (typeof PROJECTION_KEYS)[number]>;

interface SkillRow {
  name: string;
  current_version: string;
  content_hash: string;
  status: SkillStatus;
  source: string;
  description: string | null;
  author: string | null;
  projections_json: string | null;
  created_at: number;
  updated_at: number;
  status_changed_at: number;
  tags_json: string;
}

interface HistoryRow {
  name: string;
  version: string;
  content_hash: string;
  status: SkillStatus;
  previous_status: SkillStatus | null;
  changed_at: number;
  changed_by: string | null;
}

const SKILL_COLUMNS = `s.name, s.current_version, s.content_hash, s.status, s.source, s.description, s.author,
  s.projections_json, s.created_at, s.updated_at, s.status_changed_at,
  (SELECT json_group_array(tag ORDER BY tag) FROM skill_tags WHERE name = s.name) AS tags_json`;

/** One persisted revision of a skill, as `store()` and `update_status()` record it. */
interface Revision {
  name: string;
  source: string;
  status: SkillStatus;
  previous_status: SkillStatus | undefined;
  changed_at: number;
  changed_by: string | undefined;
}

/**
 * A durable `SkillStore` on SQLite (better-sqlite3). It keeps every body a skill has had, so
 * `load(name, version)` returns any historical version, and an append-only audit trail for `versions()`.
 *
 * Conventions (the reference `SqliteSkillStore`'s where the contract leaves room):
 * - `content_hash` is the SHA-256 of the body as persisted, `version` its first 12 hex digits; an Approved
 *   body is stored verbatim (an approval token after the status is kept).
 * - The body's `# Status:` header names a new skill's status (missing → Draft) unless `metadata.status`
 *   does; an overwrite keeps the skill's current status unless `metadata.status` is given. Where the
 *   body's header disagrees with the resulting status, the header is rewritten, so body and status agree.
 * - `author` is locked once set: a later write naming another author is refused (`storage_conflict`);
 *   a write naming none keeps it.
 * - `update_status` rewrites the header to the bare `# Status: <status>` (an approval token is dropped).
 * - `delete` erases the skill with its history; the name is free again.
 * - `version()` is `catalogChangeToken` over `<name>:<status>:<version>`, equal to the reference token.
 * - Timestamps are unix seconds.
 *
 * @example
 * ```ts
 * const store = new SqliteSkillStore({ path: './data/skills.db' });
 * await store.store('triage', '# Skill: triage\n# Status: Draft\n...', { author: 'perry', tags: ['ops'] });
 * await store.update_status('triage', 'Approved');
 * const { source } = await store.load('triage');
 * store.close();
 * ```
 */
export class SqliteSkillStore implements SkillStore {
  /** The capabilities the class declares, read offline by linters and conformance suites. */
  static staticCapabilities(): SkillStoreCapabilities {
    return {
      connector_type: 'skill_store',
      implementation: IMPLEMENTATION,
      contract_version: '1.0.0',
      features: {
        supports_writes: true,
        supports_versioning: true,
        supports_tag_filter: true,
        supports_audit_trail: true,
        supports_atomic_status_transitions: true,
      },
    };
  }

  readonly #database: SqliteDatabase;
  readonly #owned: boolean;
  readonly #now: () => number;
  readonly #secured: boolean;
  readonly #isSigned: (source: string) => boolean;
  #closed = false;

  /**
   * Opens the store and creates or migrates its tables.
   *
   * @throws {AgentConnectorError} `storage_validation`: for malformed options.
   * @throws {SqliteStoreError} `schema_migration`: when the database holds a newer or clashing schema.
   */
  constructor(options: SqliteSkillStoreOptions) {
    const { database, owned } = openDatabase(options, 'options');
    this.#database = database;
    this.#owned = owned;
    try {
      this.#now = clockOption(options.now);
      if (options.secured !== undefined && typeof options.secured !== 'boolean') {
        throw storageValidationError('must be a boolean', 'options.secured');
      }
      this.#secured = options.secured ?? false;
      if (options.isSignedApproval !== undefined && typeof options.isSignedApproval !== 'function') {
        throw storageValidationError('must be a function', 'options.isSignedApproval');
      }
      this.#isSigned = options.isSignedApproval ?? hasApprovalSignature;
      migrateSchema(database, SKILL_STORE_SCHEMA);
    } catch (error) {
      if (owned) database.close();
      throw error;
    }
  }

  /**
   * The skill's current body, or the body of one of its earlier `version`s.
   *
   * @throws {SkillNotFoundError} when the store holds no skill `name`.
   * @throws {SkillNotFoundError} `version_not_found`: when the skill never had `version`.
   */
  async load(name: string, version?: string): Promise<SkillSource> {
    const row = this.#skillRow(name);
    const metadata = toSkillMeta(row);
    if (version === undefined) {
      return {
        name,
        version: row.current_version,
        content_hash: row.content_hash,
        source: row.source,
        metadata,
      };
    }
    if (typeof version !== 'string') throw storageValidationError('must be a string', 'version');
    const body = this.#open()
      .prepare<[string, string], { content_hash: string; source: string }>(
        'SELECT content_hash, source FROM skill_bodies WHERE name = ? AND version = ?',
      )
      .get(name, version);
    if (body === undefined) throw new SkillNotFoundError(name, IMPLEMENTATION, { version });
    return { name, version, content_hash: body.content_hash, source: body.source, metadata };
  }

  /**
   * The skills matching every given filter, ordered by name (code point order): `status` (one or any of
   * several), `tag` (one, or all of several), `author`, `since` (updated at or after, unix seconds),
   * `name_pattern` (a JavaScript regular expression tested against the name), then `offset` and `limit`.
   * `type` and unknown keys are ignored. `[]` when nothing matches.
   *
   * @throws {AgentConnectorError} `storage_validation`: when a filter value is malformed or `name_pattern` is
   *   not a valid regular expression.
   */
  async query(filter?: SkillFilter): Promise<SkillMeta[]> {
    const database = this.#open();
    const valid = parseStorageValue(skillFilterSchema, filter ?? {}, 'filter');
    const pattern = valid.name_pattern === undefined ? undefined : compilePattern(valid.name_pattern);
    const where: string[] = [];
    const parameters: Record<string, unknown> = {};
    if (valid.status !== undefined) {
      where.push('s.status IN (SELECT value FROM json_each($statuses))');
      parameters['statuses'] = JSON.stringify([valid.status].flat());
    }
    if (valid.tag !== undefined) {
      const tags = [...new Set([valid.tag].flat())];
      where.push(`(SELECT COUNT(*) FROM skill_tags t
        WHERE t.name = s.name AND t.tag IN (SELECT value FROM json_each($tags))) = $tag_count`);
      parameters['tags'] = JSON.stringify(tags);
      parameters['tag_count'] = tags.length;
    }
    if (valid.author !== undefined) {
      where.push('s.author = $author');
      parameters['author'] = valid.author;
    }
    if (valid.since !== undefined) {
      where.push('s.updated_at >= $since');
      parameters['since'] = valid.since;
    }
    const whereClause = where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`;
    const offset = valid.offset ?? 0;
    const page =
      pattern === undefined && (valid.limit !== undefined || offset > 0)
        ? ` LIMIT ${valid.limit ?? -1} OFFSET ${offset}`
        : '';
    const rows = database
      .prepare<Record<string, unknown>, SkillRow>(
        `SELECT ${SKILL_COLUMNS} FROM skills s${whereClause} ORDER BY s.name${page}`,
      )
      .all(parameters);
    if (pattern === undefined) return rows.map(toSkillMeta);
    const matching = rows.filter((row) => pattern.test(row.name));
    const end = valid.limit === undefined ? undefined : offset + valid.limit;
    return matching.slice(offset, end).map(toSkillMeta);
  }

  /**
   * Everything known about the skill, without its body.
   *
   * @throws {SkillNotFoundError} when the store holds no skill `name`.
   */
  async metadata(name: string): Promise<SkillMeta> {
    return toSkillMeta(this.#skillRow(name));
  }

  /**
   * The skill's audit trail, oldest first: one entry per `store()` and `update_status()`.
   *
   * @throws {SkillNotFoundError} when the store holds no skill `name`.
   */
  async versions(name: string): Promise<VersionInfo[]> {
    this.#skillRow(name);
    return this.#open()
      .prepare<[string], HistoryRow>(
        `SELECT name, version, content_hash, status, previous_status, changed_at, changed_by
           FROM skill_history WHERE name = ? ORDER BY seq`,
      )
      .all(name)
      .map(toVersionInfo);
  }

  /**
   * Creates or overwrites a skill (see the class description for status and author rules). The body is
   * persisted as given unless its status header must be rewritten to agree with the resulting status.
   *
   * @throws {AgentConnectorError} `storage_conflict`: when `name` is empty, holds a line break or a lone
   *   surrogate, or `metadata.author` differs from the skill's locked author.
   * @throws {AgentConnectorError} `storage_validation`: when `source` is not a string or `metadata` is
   *   malformed.
   */
  async store(name: string, source: string, metadata?: SkillMetaInput): Promise<VersionInfo> {
    const database = this.#open();
    checkSkillName(name);
    if (typeof source !== 'string') throw storageValidationError('must be a string', 'source');
    const input = parseStorageValue(skillMetaInputSchema, metadata ?? {}, 'metadata');
    const changed_at = this.#nowSeconds();
    return database
      .transaction(() => {
        const existing = database
          .prepare<[string], Pick<SkillRow, 'status' | 'author' | 'created_at' | 'status_changed_at'>>(
            'SELECT status, author, created_at, status_changed_at FROM skills WHERE name = ?',
          )
          .get(name);
        const author = existing?.author ?? input.author;
        if (existing?.author != null && input.author !== undefined && input.author !== existing.author) {
          throw storageConflictError(
            name,
            `author is locked at '${existing.author}'; refusing '${input.author}'`,
            IMPLEMENTATION,
          );
        }
        const requested = input.status ?? existing?.status ?? statusOfSkill(source);
        const { status, body } = this.#settle(source, requested);
        const tags = input.tags ?? tagsOfBag(input.metadata_bag);
        const projections = pickProjections(input);
        const revision: Revision = {
          name,
          source: body,
          status,
          previous_status: existing?.status,
          changed_at,
          changed_by: author ?? undefined,
        };
        const { content_hash, version } = contentIdentity(body);
        database
          .prepare(
            `INSERT INTO skills (name, current_version, content_hash, status, source, description, author,
                                 projections_json, created_at, updated_at, status_changed_at)
             VALUES ($name, $version, $content_hash, $status, $source, $description, $author,
                     $projections, $created_at, $changed_at, $status_changed_at)
             ON CONFLICT (name) DO UPDATE SET
               current_version = excluded.current_version, content_hash = excluded.content_hash,
               status = excluded.status, source = excluded.source, description = excluded.description,
               author = excluded.author, projections_json = excluded.projections_json,
               updated_at = excluded.updated_at, status_changed_at = excluded.status_changed_at`,
          )
          .run({
            name,
            version,
            content_hash,
            status,
            source: body,
            description: input.description ?? descriptionOfSkill(body) ?? null,
            author: author ?? null,
            projections: Object.keys(projections).length === 0 ? null : JSON.stringify(projections),
            created_at: existing?.created_at ?? changed_at,
            changed_at,
            status_changed_at:
              existing !== undefined && existing.status === status ? existing.status_changed_at : changed_at,
          });
        database.prepare('DELETE FROM skill_tags WHERE name = ?').run(name);
        const insertTag = database.prepare('INSERT OR IGNORE INTO skill_tags (name, tag) VALUES (?, ?)');
        for (const tag of tags) insertTag.run(name, tag);
        return this.#recordRevision(revision);
      })
      .immediate();
  }

  /**
   * Erases the skill, its history and its tags; the name can be stored again afresh.
   *
   * @throws {SkillNotFoundError} when the store holds no skill `name`.
   */
  async delete(name: string): Promise<void> {
    const database = this.#open();
    if (typeof name !== 'string') throw storageValidationError('must be a string', 'name');
    const { changes } = database.prepare('DELETE FROM skills WHERE name = ?').run(name);
    if (changes === 0) throw new SkillNotFoundError(name, IMPLEMENTATION);
  }

  /**
   * Moves the skill to `status`, rewriting its header to the bare `# Status: <status>` (any approval token
   * dropped), and records the transition with its `previous_status`. In secured mode, Approved is only
   * kept for a body that is already signed and Approved; it is never granted.
   *
   * @throws {AgentConnectorError} `storage_validation`: when `status` is not Draft, Approved or Disabled.
   * @throws {SkillNotFoundError} when the store holds no skill `name`.
   * @throws {SqliteStoreError} `approval_required`: in secured mode, for Approved on a body without a
   *   signature.
   */
  async update_status(name: string, status: SkillStatus): Promise<VersionInfo> {
    const database = this.#open();
    const target = parseStorageValue(skillStatusSchema, status, 'status');
    const changed_at = this.#nowSeconds();
    return database
      .transaction(() => {
        const row = this.#skillRow(name);
        let body: string;
        if (this.#secured && target === 'Approved') {
          if (!this.#isSigned(row.source)) throw approvalRequiredError(name, IMPLEMENTATION);
          body = row.source;
        } else {
          body = withStatusHeader(row.source, target);
        }
        const { content_hash, version } = contentIdentity(body);
        database
          .prepare(
            `UPDATE skills SET current_version = ?, content_hash = ?, status = ?, source = ?,
                               updated_at = ?, status_changed_at = ?
              WHERE name = ?`,
          )
          .run(version, content_hash, target, body, changed_at, changed_at, name);
        return this.#recordRevision({
          name,
          source: body,
          status: target,
          previous_status: row.status,
          changed_at,
          changed_by: undefined,
        });
      })
      .immediate();
  }

  /** The substrate description: kind `'sqlite'`, the database file, and whether secured mode is on. */
  async manifest(): Promise<ManifestInfo<SkillStoreManifest>> {
    const database = this.#open();
    return {
      capabilities_version: '1',
      manifest: {
        kind: 'sqlite',
        db_path: database.name,
        secured: this.#secured,
        tag_filter_semantic: 'tag: a tag, or an array meaning all of them (indexed relation)',
      },
    };
  }

  /**
   * The change token of the whole catalog (see `catalogChangeToken`): it moves on every add, remove,
   * status change and body edit, and reads no bodies.
   */
  async version(): Promise<string> {
    return catalogChangeToken(
      this.#open()
        .prepare<[], { name: string; status: SkillStatus; version: string }>(
          'SELECT name, status, current_version AS version FROM skills',
        )
        .all(),
    );
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

  /** The status and body a write persists: the header made to agree, secured mode applied. */
  #settle(source: string, requested: SkillStatus): { status: SkillStatus; body: string } {
    const body = statusOfSkill(source) === requested ? source : withStatusHeader(source, requested);
    if (this.#secured && requested === 'Approved' && !this.#isSigned(body)) {
      return { status: 'Draft', body: withStatusHeader(body, 'Draft') };
    }
    return { status: requested, body };
  }

  /** Keeps the revision's body by version and appends it to the audit trail. */
  #recordRevision(revision: Revision): VersionInfo {
    const database = this.#open();
    const { content_hash, version } = contentIdentity(revision.source);
    database
      .prepare('INSERT OR IGNORE INTO skill_bodies (name, version, content_hash, source) VALUES (?, ?, ?, ?)')
      .run(revision.name, version, content_hash, revision.source);
    database
      .prepare(
        `INSERT INTO skill_history (name, version, content_hash, status, previous_status, changed_at, changed_by)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        revision.name,
        version,
        content_hash,
        revision.status,
        revision.previous_status ?? null,
        revision.changed_at,
        revision.changed_by ?? null,
      );
    return toVersionInfo({
      name: revision.name,
      version,
      content_hash,
      status: revision.status,
      previous_status: revision.previous_status ?? null,
      changed_at: revision.changed_at,
      changed_by: revision.changed_by ?? null,
    });
  }

  #skillRow(name: string): SkillRow {
    const database = this.#open();
    if (typeof name !== 'string') throw storageValidationError('must be a string', 'name');
    const row = database
      .prepare<[string], SkillRow>(`SELECT ${SKILL_COLUMNS} FROM skills s WHERE s.name = ?`)
      .get(name);
    if (row === undefined) throw new SkillNotFoundError(name, IMPLEMENTATION);
    return row;
  }

  #open(): SqliteDatabase {
    if (this.#closed || !this.#database.open) throw storeClosedError(IMPLEMENTATION);
    return this.#database;
  }

  #nowSeconds(): number {
    return unixSeconds(this.#now());
  }
}

/** Refuses a name the change token cannot carry: empty, with a line break, or with a lone surrogate. */
function checkSkillName(name: unknown): asserts name is string {
  if (typeof name !== 'string') throw storageValidationError('must be a string', 'name');
  let reason: string | undefined;
  if (name === '') reason = 'name must not be empty';
  else if (/[\n\r]/.test(name)) reason = 'name must not contain a line break';
  else if (/\p{Cs}/u.test(name)) reason = 'name must not contain a lone UTF-16 surrogate';
  if (reason !== undefined) throw storageConflictError(name, reason, IMPLEMENTATION);
}

function compilePattern(pattern: string): RegExp {
  try {
    return new RegExp(pattern);
  } catch (error) {
    throw storageValidationError('must be a valid regular expression', 'filter.name_pattern', error);
  }
}

/** Tags given the reference's way, as `metadata_bag.tags` (a string array), else none. */
function tagsOfBag(bag: Readonly<Record<string, unknown>> | undefined): readonly string[] {
  const tags = bag?.['tags'];
  return Array.isArray(tags) && tags.every((tag) => typeof tag === 'string') ? tags : [];
}

function pickProjections(input: SkillMetaInput): Projections {
  const projections: Record<string, unknown> = {};
  for (const key of PROJECTION_KEYS) if (input[key] !== undefined) projections[key] = input[key];
  return projections as Projections;
}

function toSkillMeta(row: SkillRow): SkillMeta {
  const tags = JSON.parse(row.tags_json) as string[];
  const projections = row.projections_json === null ? {} : (JSON.parse(row.projections_json) as Projections);
  return {
    name: row.name,
    version: row.current_version,
    content_hash: row.content_hash,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
    status_changed_at: row.status_changed_at,
    ...(row.description === null ? {} : { description: row.description }),
    ...(row.author === null ? {} : { author: row.author }),
    ...(tags.length === 0 ? {} : { tags }),
    ...projections,
  };
}

function toVersionInfo(row: HistoryRow): VersionInfo {
  return {
    name: row.name,
    version: row.version,
    content_hash: row.content_hash,
    status: row.status,
    ...(row.previous_status === null ? {} : { previous_status: row.previous_status }),
    changed_at: row.changed_at,
    ...(row.changed_by === null ? {} : { changed_by: row.changed_by }),
  };
}

/**
 * The skill store's tables:
 * - `skills`: one row per skill — the current body and identity, status, author (locked at the first
 *   write), timestamps, and the optional metadata projections as JSON;
 * - `skill_bodies`: every body the skill has had, by version, so `load(name, version)` returns history;
 * - `skill_history`: the append-only audit trail `versions()` reads, one row per write or transition;
 * - `skill_tags`: the tag relation the `tag` filter uses.
 * History, bodies and tags cascade when a skill is deleted, so the name is free again with no history.
 */
export const SKILL_STORE_SCHEMA: SchemaComponent = {
  name: 'skill_store',
  migrations: [
    `CREATE TABLE skills (
       name TEXT PRIMARY KEY,
       current_version TEXT NOT NULL,
       content_hash TEXT NOT NULL,
       status TEXT NOT NULL CHECK (status IN ('Draft', 'Approved', 'Disabled')),
       source TEXT NOT NULL,
       description TEXT,
       author TEXT,
       projections_json TEXT,
       created_at INTEGER NOT NULL,
       updated_at INTEGER NOT NULL,
       status_changed_at INTEGER NOT NULL
     );
     CREATE INDEX skills_status_idx ON skills (status);
     CREATE INDEX skills_updated_at_idx ON skills (updated_at);
     CREATE INDEX skills_author_idx ON skills (author);
     CREATE TABLE skill_bodies (
       name TEXT NOT NULL REFERENCES skills (name) ON DELETE CASCADE,
       version TEXT NOT NULL,
       content_hash TEXT NOT NULL,
       source TEXT NOT NULL,
       PRIMARY KEY (name, version)
     );
     CREATE TABLE skill_history (
       seq INTEGER PRIMARY KEY AUTOINCREMENT,
       name TEXT NOT NULL REFERENCES skills (name) ON DELETE CASCADE,
       version TEXT NOT NULL,
       content_hash TEXT NOT NULL,
       status TEXT NOT NULL,
       previous_status TEXT,
       changed_at INTEGER NOT NULL,
       changed_by TEXT
     );
     CREATE INDEX skill_history_name_idx ON skill_history (name, seq);
     CREATE TABLE skill_tags (
       name TEXT NOT NULL REFERENCES skills (name) ON DELETE CASCADE,
       tag TEXT NOT NULL,
       PRIMARY KEY (name, tag)
     );
     CREATE INDEX skill_tags_tag_idx ON skill_tags (tag);`,
  ],
};

/** A `# Description: <text>` header line; the spaces around the key never cross a line break. */
const DESCRIPTION_LINE =
  /^#[^\S\n\r\u2028\u2029]*Description[^\S\n\r\u2028\u2029]*:[^\S\n\r\u2028\u2029]*(.+?)[^\S\n\r\u2028\u2029]*$/m;

/**
 * The text of a skill body's first `# Description:` header, or `undefined` without one: what `SkillMeta`
 * reports as `description` when `store()`'s metadata does not give one.
 *
 * @example
 * descriptionOfSkill('# Skill: hello\n# Description: Says hi\n'); // 'Says hi'
 */
export function descriptionOfSkill(source: string): string | undefined {
  return DESCRIPTION_LINE.exec(source)?.[1];
}

/**
 * Whether a skill body is Approved with a v3 approval signature in its status header
 * (`# Status: Approved v3:<signature>`): the default test of secured mode. It checks that a signature is
 * present, not that it is valid — stores never verify approval; the runtime's gate does.
 *
 * @example
 * hasApprovalSignature('# Status: Approved v3:MEUCIQ...\n'); // true
 * hasApprovalSignature('# Status: Approved\n'); // false
 */
export function hasApprovalSignature(source: string): boolean {
  const header = readStatusHeader(source);
  return header?.status === 'Approved' && /^v3:\S+/.test(header.rest);
}
