/**
 * SQLite-backed storage for the AgentConnector contract's storage conventions, on better-sqlite3:
 * {@link SqliteSkillStore} (a `SkillStore` with full version history) and {@link SqliteDataStore} (a
 * `DataStore` with FTS5 search). Node only: this entry loads a native module.
 *
 * @example
 * ```ts
 * import { SqliteDataStore, SqliteSkillStore } from '@agentwire/sqlite/agent-connector';
 *
 * const skills = new SqliteSkillStore({ path: './data/agent.db' });
 * const memories = new SqliteDataStore({ path: './data/agent.db' }); // both may share one file
 * ```
 * @packageDocumentation
 */
export { SqliteStoreError, type SqliteStoreErrorCode } from '../shared/errors.js';
export { ftsSearchOf, SqliteDataStore, type SqliteDataStoreOptions } from './sqlite-data-store.js';
export {
  hasApprovalSignature,
  SqliteSkillStore,
  type SqliteSkillStoreOptions,
} from './sqlite-skill-store.js';
