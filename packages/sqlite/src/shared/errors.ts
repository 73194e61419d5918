/**
 * Every condition `@agentwire/sqlite` refuses on its own account, as `SqliteStoreError.code` names it (the
 * contracts' own errors — `SkillNotFoundError`, the `storage_validation` / `storage_conflict`
 * `AgentConnectorError`s, HearthNet's event errors — are thrown as those contracts define them). A code is
 * stable: it never changes meaning.
 * - `store_closed`: a method was called after `close()`, or on a store whose database handle its owner
 *   closed; open a new store (`details.implementation`);
 * - `schema_migration`: the database holds a schema this code cannot use — written by a newer release, or
 *   a migration failed (a clashing table of another program, a read-only file). Nothing was changed:
 *   migrations run in one transaction (`details.component`, `found_version`, `supported_version`);
 * - `unsupported_query_mode`: `SqliteDataStore.query()` asked for a search mode the store does not offer
 *   (`details.mode`, `supported_modes`);
 * - `invalid_fts_query`: a `raw:` full-text query is not valid FTS5 syntax; `cause` holds SQLite's
 *   message (`details.expression`);
 * - `invalid_store_argument`: an argument of `SqliteEventStore` is not what the method takes; `path` names
 *   it;
 * - `approval_required`: `SqliteSkillStore.update_status(name, 'Approved')` in secured mode, for a skill
 *   whose body carries no approval signature (`details.skill_name`, `implementation`).
 */
export type SqliteStoreErrorCode =
  | 'store_closed'
  | 'schema_migration'
  | 'unsupported_query_mode'
  | 'invalid_fts_query'
  | 'invalid_store_argument'
  | 'approval_required';

/** The facts particular to a code; each field says which codes set it. */
export interface SqliteStoreErrorDetails {
  /** `store_closed`, `approval_required`: the store class, such as `'SqliteDataStore'`. */
  readonly implementation?: string;
  /** `schema_migration`: the schema component, such as `'skill_store'`. */
  readonly component?: string;
  /** `schema_migration`: the version the database declares for the component (0 for none). */
  readonly found_version?: number;
  /** `schema_migration`: the newest version this code knows. */
  readonly supported_version?: number;
  /** `unsupported_query_mode`: the mode that was asked for. */
  readonly mode?: string;
  /** `unsupported_query_mode`: the modes the store declares. */
  readonly supported_modes?: readonly string[];
  /** `invalid_fts_query`: the FTS5 expression SQLite refused (the query without its `raw:` prefix). */
  readonly expression?: string;
  /** `approval_required`: the skill whose status change was refused. */
  readonly skill_name?: string;
}

/** The optional parts of a {@link SqliteStoreError}. */
export interface SqliteStoreErrorOptions {
  /** The argument or option that failed (`'options.path'`, `'communityId'`); `''` (the default) for none. */
  readonly path?: string;
  /** Whether the same call may succeed when made again unchanged; `false` by default. */
  readonly retryable?: boolean;
  readonly details?: SqliteStoreErrorDetails;
  /** The underlying error, such as better-sqlite3's `SqliteError`. */
  readonly cause?: unknown;
}

/**
 * The error `@agentwire/sqlite` throws for everything it refuses on its own account, in every subpath:
 * switch on {@link SqliteStoreError.code}, never on the message. None is retryable: each needs a changed
 * call or operator action.
 *
 * @example
 * try {
 *   await store.query({ query: 'raw:"unbalanced' });
 * } catch (error) {
 *   if (error instanceof SqliteStoreError && error.code === 'invalid_fts_query') showSyntaxHelp();
 * }
 */
export class SqliteStoreError extends Error {
  override readonly name = 'SqliteStoreError';
  /** A stable, machine-readable identifier of the condition. */
  readonly code: SqliteStoreErrorCode;
  /** The argument or option that failed; `''` when none. */
  readonly path: string;
  /** Whether the same call may succeed when made again unchanged. */
  readonly retryable: boolean;
  /** The facts particular to {@link SqliteStoreError.code}. */
  readonly details: SqliteStoreErrorDetails;

  constructor(code: SqliteStoreErrorCode, message: string, options: SqliteStoreErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.path = options.path ?? '';
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? {};
  }
}

/** The `store_closed` error of `implementation` (such as `'SqliteDataStore'`). */
export function storeClosedError(implementation: string): SqliteStoreError {
  return new SqliteStoreError('store_closed', `${implementation} is closed`, { details: { implementation } });
}
