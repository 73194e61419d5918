import { skillStoreCapabilitiesSchema, skillStoreManifestInfoSchema } from '@agentwire/agent-connector';
import { assertEqual, assertTrue, fail } from '../../assert.js';
import type { ConformanceCase } from '../../suite.js';
import { assertMatches, mustResolve } from './skill-store-checks.js';
import type { SkillStoreContext } from './store-under-test.js';
import { SKILL_STORE_SUITE_VERSION } from './suite-version.js';

type Case = ConformanceCase<SkillStoreContext>;

const since = SKILL_STORE_SUITE_VERSION;

/** The methods every SkillStore has (`version()` is optional). */
const REQUIRED_METHODS = [
  'load',
  'query',
  'metadata',
  'versions',
  'store',
  'delete',
  'update_status',
  'manifest',
] as const;

/** Static capabilities, the method set and `manifest()`. */
export function contractCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  return [
    {
      id: id('static-capabilities.valid'),
      title: "the class's static staticCapabilities() declares a skill_store of contract major version 1",
      section: 'SkillStore v1.0 §staticCapabilities',
      level: 'required',
      since,
      run: (ctx) => {
        if (ctx.declaredCapabilities === undefined) {
          fail("the store's class has no static staticCapabilities() method");
        }
        const declared = assertMatches(
          skillStoreCapabilitiesSchema,
          ctx.declaredCapabilities,
          'staticCapabilities()',
        );
        assertEqual(declared.contract_version.split('.')[0], '1', 'contract major version');
      },
    },
    {
      id: id('methods.present'),
      title: 'the store has the eight contract methods, and version() is a method when present',
      section: 'SkillStore v1.0 §interface',
      level: 'required',
      since,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          const members = store as unknown as Record<string, unknown>;
          const missing = REQUIRED_METHODS.filter((method) => typeof members[method] !== 'function');
          assertEqual(missing, [], 'methods that are not functions');
          assertTrue(
            members.version === undefined || typeof members.version === 'function',
            'version, when present, must be a method',
          );
        }),
    },
    {
      id: id('manifest.valid'),
      title: 'manifest() resolves to a capabilities_version and a manifest naming its kind',
      section: 'SkillStore v1.0 §manifest',
      level: 'required',
      since,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          const info = await mustResolve('manifest()', () => store.manifest());
          const parsed = assertMatches(skillStoreManifestInfoSchema, info, 'manifest()');
          assertTrue(parsed.manifest.kind !== '', 'manifest.kind must not be empty');
        }),
    },
  ];
}
