import { SqliteStoreError } from './errors.js';
import type { SqliteDatabase } from './open-database.js';

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
