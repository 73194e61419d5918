import { z } from 'zod';
import { type BridgeArguments, dataWriteFromArgs, queryFiltersFromArgs } from './bridge-arguments.js';
import type { DataStore, DataWriteRecord, PortableData } from './data-store.js';
import { storageValidationError } from './errors.js';
import { enforceSupportedFilters } from './filter-enforcement.js';
import { parseStorageValue } from './parse-storage-value.js';

/** The tool name that routes a bridge call to `write`; every other name is a query. */
export const DATA_WRITE_TOOL = 'data_write';

/** What a bridged query returns: the store's items in an envelope (`foreach M in ${R.items}`). */
export interface DataQueryResult {
  items: PortableData[];
}

/** Options of {@link DataStoreQueryBridge}. */
export interface DataStoreQueryBridgeOptions {
  /** The name `UnsupportedFilterError` messages give the enforcer; `'DataStoreQueryBridge'` by default. */
  substrate?: string;
}

/**
 * The part of a DataStore manifest the bridge reads; every other field is the store's business. A missing
 * (or `null`) `manifest` or `supported_filters` declares no filters, as the reference bridge reads it.
 */
const supportedFiltersManifestSchema = z.looseObject({
  manifest: z.looseObject({ supported_filters: z.array(z.string()).nullish() }).nullish(),
});

/**
 * Exposes a {@link DataStore} to skills as the two bridge tools: a read (`query`) and `data_write`.
 *
 * Every read is checked with `enforceSupportedFilters` against the store's
 * `manifest().supported_filters` before the store is called; a refused query never reaches it. The
 * declared list is read on the first query and kept for the bridge's lifetime (a failed `manifest()`
 * is not kept, so the next query asks again). Writes are never filter-checked.
 *
 * @example
 * const bridge = new DataStoreQueryBridge(store);
 * const { items } = await bridge.query({ query: 'deploy', domain_tags: 'ops' });
 * await bridge.call('data_write', { content: 'Deploy done' });
 */
export class DataStoreQueryBridge {
  readonly #store: DataStore;
  readonly #substrate: string;
  #supportedFilters: Promise<readonly string[]> | undefined;

  constructor(store: DataStore, options: DataStoreQueryBridgeOptions = {}) {
    this.#store = store;
    this.#substrate = options.substrate ?? 'DataStoreQueryBridge';
  }

  /** Routes a tool call: {@link DATA_WRITE_TOOL} writes, any other tool name queries. */
  call(tool: string, args: BridgeArguments): Promise<DataQueryResult | DataWriteRecord> {
    return tool === DATA_WRITE_TOOL ? this.write(args) : this.query(args);
  }

  /**
   * Builds the filters (`queryFiltersFromArgs`), checks them against the declared filters, and returns
   * the store's answer as `{ items }`.
   *
   * @throws {AgentConnectorError} `storage_validation`: for a missing `query`, an invalid manifest, or a
   *   non-array answer.
   * @throws {UnsupportedFilterError} for an undeclared filter key; the store is not called.
   */
  async query(args: BridgeArguments): Promise<DataQueryResult> {
    const filters = queryFiltersFromArgs(args);
    enforceSupportedFilters(filters, await this.#declaredFilters(), this.#substrate);
    const items = await this.#store.query(filters);
    if (!Array.isArray(items)) throw storageValidationError('must be an array', 'items');
    return { items };
  }

  /**
   * Builds the entry (`dataWriteFromArgs`) and writes it.
   *
   * @throws {AgentConnectorError} `storage_validation`: for a missing `content`.
   */
  async write(args: BridgeArguments): Promise<DataWriteRecord> {
    return this.#store.write(dataWriteFromArgs(args));
  }

  #declaredFilters(): Promise<readonly string[]> {
    if (this.#supportedFilters === undefined) {
      const pending = this.#store.manifest().then((info) => {
        const { manifest } = parseStorageValue(supportedFiltersManifestSchema, info, 'manifest');
        return Object.freeze([...(manifest?.supported_filters ?? [])]);
      });
      pending.catch(() => {
        if (this.#supportedFilters === pending) this.#supportedFilters = undefined;
      });
      this.#supportedFilters = pending;
    }
    return this.#supportedFilters;
  }
}
