import type { ConformanceSuite } from '../../suite.js';
import { entryCases } from './entry-cases.js';
import { methodCases } from './method-cases.js';
import { queryCases } from './query-cases.js';
import { type DataStoreContext, type DataStoreFactoryResult, prepareDataStore } from './store-under-test.js';
import { DATA_STORE_SUITE_VERSION } from './suite-version.js';

/** Options of {@link dataStoreSuite}. */
export interface DataStoreSuiteOptions {
  /** Builds the store under test; called once per run, in the suite's `setup`. Use a fresh, empty store. */
  readonly factory: () => DataStoreFactoryResult | Promise<DataStoreFactoryResult>;
}

const SUITE_NAME = 'data-store.contract';

/**
 * The DataStore v1.0 contract, checked more strictly than the reference suite (which only checks that
 * `query` and `manifest` exist and that `fts` items carry a string `id` and `summary`): every item
 * validated as `PortableData` with no curated field repeated in `metadata` and no `null` fields; `write()`
 * records with whole unix-second `created_at`; `get()` round-trips a written entry and resolves to `null`
 * for an unknown id; no match is `[]`; `limit` is honoured; a full-text query finds a written word; every
 * declared mode answers; a declared `domain_tags` filter narrows. Cases are gated on the store's own
 * declarations: `static-capabilities`, `writes` (`supports_writes`), `fts` / `fts-writes` (mode
 * `'fts'`), `filter:domain_tags` (`manifest().supported_filters`). Entries the suite writes carry unique words, so a store that already
 * holds data can be checked too.
 *
 * @example
 * ```ts
 * const report = await runSuite(dataStoreSuite({ factory: () => new SqliteDataStore({ path: ':memory:' }) }));
 * ```
 */
export function dataStoreSuite(options: DataStoreSuiteOptions): ConformanceSuite<DataStoreContext> {
  return {
    name: SUITE_NAME,
    version: DATA_STORE_SUITE_VERSION,
    description:
      'The DataStore v1.0 contract: static capabilities, manifest, write records, get round-trip and null ' +
      'on miss, PortableData items without curated fields in metadata, empty results, limit, full-text ' +
      'search, declared modes and the domain_tags filter.',
    cases: [...methodCases(SUITE_NAME), ...entryCases(SUITE_NAME), ...queryCases(SUITE_NAME)],
    setup: async () => prepareDataStore(await options.factory()),
  };
}
