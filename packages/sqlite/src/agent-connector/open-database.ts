import {
  type DatabaseLocation,
  type OpenedDatabase,
  openDatabase as openSharedDatabase,
} from '../shared/open-database.js';
import { storageValidationError } from './errors.js';

export type { DatabaseLocation, SqliteDatabase } from '../shared/open-database.js';

/**
 * Opens (or adopts) the connection an AgentConnector store runs on (see the shared `openDatabase`).
 *
 * @throws {AgentConnectorError} `storage_validation`: when `location` names neither a usable path nor an open
 *   connection.
 */
export function openDatabase(location: DatabaseLocation, label: string): OpenedDatabase {
  return openSharedDatabase(location, label, storageValidationError);
}

/**
 * The clock option of a store: a function returning epoch milliseconds, `Date.now` when absent.
 *
 * @throws {AgentConnectorError} `storage_validation`: when `now` is present but not a function.
 */
export function clockOption(now: unknown): () => number {
  if (now === undefined) return Date.now;
  if (typeof now !== 'function') throw storageValidationError('must be a function', 'options.now');
  return now as () => number;
}
