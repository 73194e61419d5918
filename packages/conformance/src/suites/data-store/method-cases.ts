import { dataStoreCapabilitiesSchema, dataStoreManifestInfoSchema } from '@agentwire/agent-connector';
import { assertEqual, assertTrue, fail } from '../../assert.js';
import { formatValue } from '../../format-value.js';
import type { ConformanceCase } from '../../suite.js';
import { mustResolve } from '../agent-connector/strict-values.js';
import type { DataStoreContext } from './store-under-test.js';
import { DATA_STORE_SUITE_VERSION } from './suite-version.js';

type Case = ConformanceCase<DataStoreContext>;

const since = DATA_STORE_SUITE_VERSION;

/** Static capabilities, the methods the capabilities promise, and the manifest. */
export function methodCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  return [
    {
      id: id('static-capabilities.valid'),
      title: 'staticCapabilities() declares a data_store of contract major version 1 with boolean features',
      section: 'DataStore v1.0 §staticCapabilities',
      level: 'required',
      requires: 'static-capabilities',
      since,
      run: (ctx) => {
        const parsed = dataStoreCapabilitiesSchema.safeParse(ctx.declaredCapabilities);
        if (!parsed.success) {
          fail(`staticCapabilities() returned ${formatValue(ctx.declaredCapabilities)}`, parsed.error);
        }
        assertEqual(parsed.data.contract_version.split('.')[0], '1', 'contract major version');
      },
    },
    {
      id: id('methods.present'),
      title: 'query, get and manifest are methods, and write is one when writes are declared',
      section: 'DataStore v1.0 §interface',
      level: 'required',
      since,
      run: (ctx) => {
        const store = ctx.store as unknown as Record<string, unknown>;
        const expected = ['query', 'get', 'manifest'];
        if (ctx.staticCapabilities?.features.supports_writes === true) expected.push('write');
        const missing = expected.filter((name) => typeof store[name] !== 'function');
        assertEqual(missing, [], 'missing methods');
      },
    },
    {
      id: id('manifest.valid'),
      title: 'manifest() resolves to { capabilities_version, manifest } with a non-empty kind',
      section: 'DataStore v1.0 §manifest',
      level: 'required',
      since,
      run: async (ctx) => {
        const info: unknown = await mustResolve('manifest()', () => ctx.store.manifest());
        const parsed = dataStoreManifestInfoSchema.safeParse(info);
        if (!parsed.success) fail(`manifest() resolved to ${formatValue(info)}`, parsed.error);
        assertTrue(parsed.data.manifest.kind !== '', 'manifest.kind is empty');
        const modes = parsed.data.manifest.supported_modes ?? [];
        assertEqual(
          modes.length,
          new Set(modes).size,
          `supported_modes lists a mode twice (${formatValue(modes)})`,
        );
      },
    },
  ];
}
