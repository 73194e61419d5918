import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { StorageValidationError } from '@agentwire/agent-connector';
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

/** How long a write waits for another connection's lock before SQLite reports `SQLITE_BUSY`. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens (or adopts) the connection a store runs on. Files get write-ahead logging, so readers never block
 * the writer and several processes can share one file; every connection gets a busy timeout and foreign
 * keys (the tag relations cascade on delete).
 *
 * @throws {StorageValidationError} when `location` names neither a usable path nor an open connection.
 */
export function openDatabase(location: DatabaseLocation, label: string): OpenedDatabase {
  if (typeof location !== 'object' || location === null) {
    throw new StorageValidationError('must be { path } or { database }', label);
  }
  if ('database' in location) {
    const { database } = location;
    if (!(database instanceof Database) || !database.open) {
      throw new StorageValidationError('must be an open better-sqlite3 Database', `${label}.database`);
    }
    configure(database);
    return { database, owned: false };
  }
  const { path } = location;
  if (typeof path !== 'string' || path === '' || path.includes('\0')) {
    throw new StorageValidationError("must be a file path or ':memory:'", `${label}.path`);
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
 * The clock option of a store: a function returning epoch milliseconds, `Date.now` when absent.
 *
 * @throws {StorageValidationError} when `now` is present but not a function.
 */
export function clockOption(now: unknown): () => number {
  if (now === undefined) return Date.now;
  if (typeof now !== 'function') throw new StorageValidationError('must be a function', 'options.now');
  return now as () => number;
}
