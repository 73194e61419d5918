import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStoreError } from './errors.js';

/** An open `better-sqlite3` connection. */
export type SqliteDatabase = Database.Database;

/**
 * Where a store keeps its data: a database file (created with its folder when missing), `':memory:'` for
 * a private in-process database, or a connection the caller opened and keeps owning.
 */
export type DatabaseLocation = { readonly path: string } | { readonly database: SqliteDatabase };

/** A connection and whether the store opened it (and so closes it). */
export interface OpenedDatabase {
  readonly database: SqliteDatabase;
  readonly owned: boolean;
}

/**
 * Builds the error a store throws for an unusable location: each subpath throws its contract's
 * validation error. `path` names the option, such as `'options.path'`.
 */
export type InvalidLocationError = (message: string, path: string) => Error;

/** How long a write waits for another connection's lock before SQLite reports `SQLITE_BUSY`. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens (or adopts) the connection a store runs on. Files get write-ahead logging, so readers never block
 * the writer and several processes can share one file; every connection gets a busy timeout and foreign
 * keys (relations that cascade on delete rely on them).
 *
 * @throws what `invalid` builds, when `location` names neither a usable path nor an open connection.
 */
export function openDatabase(
  location: DatabaseLocation,
  label: string,
  invalid: InvalidLocationError,
): OpenedDatabase {
  if (typeof location !== 'object' || location === null) {
    throw invalid('must be { path } or { database }', label);
  }
  if ('database' in location) {
    const { database } = location;
    if (!(database instanceof Database) || !database.open) {
      throw invalid('must be an open better-sqlite3 Database', `${label}.database`);
    }
    configure(database);
    return { database, owned: false };
  }
  const { path } = location;
  if (typeof path !== 'string' || path === '' || path.includes('\0')) {
    throw invalid("must be a file path or ':memory:'", `${label}.path`);
  }
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new Database(path);
  try {
    if (path !== ':memory:') database.pragma('journal_mode = WAL');
    configure(database);
  } catch (error) {
    database.close();
    throw error;
  }
  return { database, owned: true };
}

function configure(database: SqliteDatabase): void {
  database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  database.pragma('foreign_keys = ON');
}

/**
 * The ordered migrations of one schema component: entry `i` takes the component from version `i` to
 * `i + 1`. Append only — a released migration never changes.
 */
export interface SchemaComponent {
  /** Key in the versions table, such as `'skill_store'`. */
  readonly name: string;
  readonly migrations: readonly string[];
}

/**
 * The table recording each component's schema version. A table rather than `PRAGMA user_version`, so a
 * skill store and a data store (and anything else) can share one database file.
 */
const VERSIONS_TABLE = 'agentwire_schema_versions';

/**
 * Brings a component's tables up to its newest version, in one immediate transaction: concurrent openers
 * of the same file wait for each other, and a failed migration leaves the database as it was.
 *
 * @returns the component's version after migrating (its number of migrations).
 * @throws {SqliteStoreError} `schema_migration`: when the database holds a newer version than `component`
 *   knows, or a migration fails.
 */
export function migrateSchema(database: SqliteDatabase, component: SchemaComponent): number {
  const supported = component.migrations.length;
  let found = 0;
  const run = database.transaction(() => {
    database.exec(
      `CREATE TABLE IF NOT EXISTS ${VERSIONS_TABLE} (component TEXT PRIMARY KEY, version INTEGER NOT NULL)`,
    );
    const row = database
      .prepare<[string], { version: number }>(`SELECT version FROM ${VERSIONS_TABLE} WHERE component = ?`)
      .get(component.name);
    found = row?.version ?? 0;
    if (found > supported) {
      throw new SqliteStoreError(
        'schema_migration',
        `the database holds ${component.name} schema version ${found}, newer than version ${supported} ` +
          'that this release knows; upgrade @agentwire/sqlite',
        { details: { component: component.name, found_version: found, supported_version: supported } },
      );
    }
    for (const migration of component.migrations.slice(found)) database.exec(migration);
    database
      .prepare(
        `INSERT INTO ${VERSIONS_TABLE} (component, version) VALUES (?, ?)
           ON CONFLICT (component) DO UPDATE SET version = excluded.version`,
      )
      .run(component.name, supported);
  });
  try {
    run.immediate();
  } catch (error) {
    if (error instanceof SqliteStoreError && error.code === 'schema_migration') throw error;
    throw new SqliteStoreError(
      'schema_migration',
      `migrating ${component.name} from schema version ${found} to ${supported} failed: ${String(
        error instanceof Error ? error.message : error,
      )}`,
      {
        details: { component: component.name, found_version: found, supported_version: supported },
        cause: error,
      },
    );
  }
  return supported;
}
