/**
 * Base class of the errors `@agentwire/sqlite` adds to the contracts' own errors, in every subpath.
 * `code` is a stable, machine-readable identifier of the condition; `cause` keeps the underlying
 * `SqliteError`, if any.
 */
export abstract class SqliteStorageError extends Error {
  abstract readonly code: string;
}

/**
 * A method was called after `close()`, or on a store whose database handle was closed by its owner.
 * Not retryable: open a new store.
 */
export class StoreClosedError extends SqliteStorageError {
  override readonly name = 'StoreClosedError';
  readonly code = 'store_closed';
  /** The store class, such as `'SqliteDataStore'`. */
  readonly implementation: string;

  constructor(implementation: string, options?: ErrorOptions) {
    super(`${implementation} is closed`, options);
    this.implementation = implementation;
  }
}

/**
 * The database holds a schema this code cannot use: written by a newer release (its version is above the
 * newest one known here), or a migration failed (a clashing table of another program, a read-only file).
 * Nothing was changed: migrations run in one transaction. Not retryable without operator action.
 */
export class SchemaMigrationError extends SqliteStorageError {
  override readonly name = 'SchemaMigrationError';
  readonly code = 'schema_migration';
  /** The schema component, such as `'skill_store'`. */
  readonly component: string;
  /** The version the database declares for the component (0 for none). */
  readonly found_version: number;
  /** The newest version this code knows. */
  readonly supported_version: number;

  constructor(
    message: string,
    details: { component: string; found_version: number; supported_version: number },
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.component = details.component;
    this.found_version = details.found_version;
    this.supported_version = details.supported_version;
  }
}
