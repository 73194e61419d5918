import {
  type DataStore,
  type DataStoreCapabilities,
  type DataStoreManifest,
  dataStoreCapabilitiesSchema,
  dataStoreManifestInfoSchema,
} from '@agentwire/agent-connector';
import type { SuiteSetup } from '../../suite.js';

/** A data store wired for a conformance run. */
export interface DataStoreUnderTest {
  readonly store: DataStore;
  /** Releases what the factory set up (database files, connections); called once after the last case. */
  readonly dispose?: () => void | Promise<void>;
}

/** What the suite's factory may return: a bare store, or one with its disposal. */
export type DataStoreFactoryResult = DataStore | DataStoreUnderTest;

/** The context every case of `dataStoreSuite` receives. */
export interface DataStoreContext {
  readonly store: DataStore;
  /** What the store's class returns from `staticCapabilities()`, unvalidated; `undefined` without one. */
  readonly declaredCapabilities: unknown;
  /** The validated static capabilities, when the class declares valid ones. */
  readonly staticCapabilities: DataStoreCapabilities | undefined;
  /** The validated manifest read at setup, when `manifest()` gave a valid one. */
  readonly manifest: DataStoreManifest | undefined;
  /** The mode the search cases use: `'fts'` when declared (or nothing is), else the first declared mode. */
  readonly searchMode: string;
  /** A word no entry holds yet, new on every call: letters and digits only, one token to any tokenizer. */
  readonly uniqueWord: () => string;
}

let words = 0;

/**
 * Resolves a factory result into the case context, its capabilities and its dispose. Capabilities come
 * from the store's own declarations: `static-capabilities` (the class has `staticCapabilities()`),
 * `writes` (`supports_writes`, or a `write` method when the class declares nothing), `fts` (mode `'fts'`
 * declared, or no modes declared), and for a store that writes, `fts-writes` (both) and
 * `filter:domain_tags` (`supported_filters` lists it).
 */
export async function prepareDataStore(
  result: DataStoreFactoryResult,
): Promise<SuiteSetup<DataStoreContext>> {
  const underTest: DataStoreUnderTest = isWrapped(result) ? result : { store: result };
  const { store } = underTest;
  const declaredCapabilities = declaredCapabilitiesOf(store);
  const parsedCapabilities = dataStoreCapabilitiesSchema.safeParse(declaredCapabilities);
  const staticCapabilities = parsedCapabilities.success ? parsedCapabilities.data : undefined;
  const manifest = await readManifest(store);
  const capabilities = new Set<string>();
  if (declaredCapabilities !== undefined) capabilities.add('static-capabilities');
  const features = staticCapabilities?.features;
  const writes =
    features === undefined ? typeof store.write === 'function' : features.supports_writes === true;
  if (writes) capabilities.add('writes');
  const modes = manifest?.supported_modes;
  const fts = modes === undefined || modes.includes('fts');
  if (fts) capabilities.add('fts');
  if (fts && writes) capabilities.add('fts-writes');
  if (writes && manifest?.supported_filters?.includes('domain_tags') === true) {
    capabilities.add('filter:domain_tags');
  }
  const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  return {
    ctx: {
      store,
      declaredCapabilities,
      staticCapabilities,
      manifest,
      searchMode: fts ? 'fts' : (modes?.[0] ?? 'fts'),
      uniqueWord: () => {
        words += 1;
        return `awconf${run}w${words}`;
      },
    },
    capabilities,
    ...(underTest.dispose === undefined ? {} : { dispose: underTest.dispose }),
  };
}

function isWrapped(result: DataStoreFactoryResult): result is DataStoreUnderTest {
  return typeof (result as { readonly query?: unknown }).query !== 'function' && 'store' in result;
}

function declaredCapabilitiesOf(store: DataStore): unknown {
  const declare = (store.constructor as { readonly staticCapabilities?: unknown } | undefined)
    ?.staticCapabilities;
  if (typeof declare !== 'function') return undefined;
  try {
    return declare.call(store.constructor);
  } catch (error) {
    return error;
  }
}

async function readManifest(store: DataStore): Promise<DataStoreManifest | undefined> {
  try {
    const parsed = dataStoreManifestInfoSchema.safeParse(await store.manifest());
    return parsed.success ? parsed.data.manifest : undefined;
  } catch {
    // The manifest case reports the fault; the other cases run with the defaults.
    return undefined;
  }
}
