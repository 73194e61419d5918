import { storageConventions } from '@agentwire/agent-connector';
import {
  type DatabaseLocation,
  type OpenedDatabase,
  openDatabase as openSharedDatabase,
} from '../shared/database.js';
import { SqliteStoreError } from '../shared/errors.js';

export type { DatabaseLocation, SqliteDatabase } from '../shared/database.js';

const { storageValidationError } = storageConventions;

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

/** `unsupported_query_mode`: `query()` asked for `mode`, which is not one of `supported_modes`. */
export function unsupportedQueryModeError(
  mode: string,
  supported_modes: readonly string[],
): SqliteStoreError {
  return new SqliteStoreError(
    'unsupported_query_mode',
    `query mode '${mode}' is not supported; supported_modes: [${supported_modes.map((m) => `'${m}'`).join(', ')}]`,
    { path: 'filters.mode', details: { mode, supported_modes: Object.freeze([...supported_modes]) } },
  );
}

/** `invalid_fts_query`: SQLite refused the FTS5 `expression` of a `raw:` query; `cause` is its error. */
export function invalidFtsQueryError(expression: string, cause: unknown): SqliteStoreError {
  const reason = cause instanceof Error ? `: ${cause.message}` : '';
  return new SqliteStoreError(
    'invalid_fts_query',
    `raw FTS5 query ${JSON.stringify(expression)} is not valid${reason}`,
    { path: 'filters.query', details: { expression }, cause },
  );
}

/**
 * `approval_required`: in secured mode, a status change alone cannot approve `skill_name`, whose body
 * carries no approval signature (the approve flow signs the body and `store()`s it).
 */
export function approvalRequiredError(skill_name: string, implementation: string): SqliteStoreError {
  return new SqliteStoreError(
    'approval_required',
    `Skill '${skill_name}' carries no approval signature; in secured mode a status change alone ` +
      'cannot approve it (store the signed body instead)',
    { path: 'status', details: { skill_name, implementation } },
  );
}
