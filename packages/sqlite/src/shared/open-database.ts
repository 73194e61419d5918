import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

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
