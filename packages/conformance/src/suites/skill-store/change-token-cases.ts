import type { SkillStore } from '@agentwire/agent-connector';
import { assertEqual, assertTrue } from '../../assert.js';
import { formatValue } from '../../format-value.js';
import type { ConformanceCase } from '../../suite.js';
import { loadChecked, storeChecked } from './read-write-cases.js';
import { DRAFT_SAMPLE, editedDraftSample, SAMPLE_NAME } from './sample-skills.js';
import { mustResolve } from './skill-store-checks.js';
import { CHANGE_TOKEN_CAPABILITY, type SkillStoreContext } from './store-under-test.js';
import { SKILL_STORE_SUITE_VERSION } from './suite-version.js';

type Case = ConformanceCase<SkillStoreContext>;

const since = SKILL_STORE_SUITE_VERSION;

async function tokenOf(store: SkillStore, when: string): Promise<string> {
  const token: unknown = await mustResolve(`version() ${when}`, async () => store.version?.());
  assertTrue(
    typeof token === 'string' && token !== '',
    `version() ${when} must resolve to a non-empty string, got ${formatValue(token)}`,
  );
  return token;
}

/** One change the token must follow: `prepare` sets the store up, `change` makes the change. */
interface TokenMove {
  readonly name: string;
  readonly change: string;
  readonly prepare: (store: SkillStore) => Promise<void>;
  readonly act: (store: SkillStore) => Promise<void>;
}

const MOVES: readonly TokenMove[] = [
  {
    name: 'add',
    change: 'a skill is added',
    prepare: async () => undefined,
    act: async (store) => void (await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE)),
  },
  {
    name: 'body-edit',
    change: 'a body is edited and its status stays the same',
    prepare: async (store) => void (await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE)),
    act: async (store) => void (await storeChecked(store, SAMPLE_NAME, editedDraftSample('token edit'))),
  },
  {
    name: 'status-change',
    change: 'a status changes',
    prepare: async (store) => void (await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE)),
    act: async (store) =>
      void (await mustResolve('update_status()', () => store.update_status(SAMPLE_NAME, 'Approved'))),
  },
  {
    name: 'remove',
    change: 'a skill is deleted',
    prepare: async (store) => {
      await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
      await storeChecked(store, 'conformance-kept', DRAFT_SAMPLE);
    },
    act: (store) => mustResolve('delete()', () => store.delete(SAMPLE_NAME)),
  },
];

/** `version()`, the optional change token: stable while nothing changes, moving on every change. */
export function changeTokenCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.change-token.${rest}`;
  return [
    {
      id: id('stable'),
      title: 'version() resolves to the same non-empty string while nothing changes, reads included',
      section: 'SkillStore v1.0 §version',
      level: 'required',
      requires: CHANGE_TOKEN_CAPABILITY,
      since,
      run: (ctx) =>
        ctx.withStore(async (store) => {
          assertEqual(
            await tokenOf(store, 'again'),
            await tokenOf(store, 'on an empty store'),
            'empty store',
          );
          await storeChecked(store, SAMPLE_NAME, DRAFT_SAMPLE);
          const token = await tokenOf(store, 'after a write');
          await loadChecked(store, SAMPLE_NAME);
          await mustResolve('metadata()', () => store.metadata(SAMPLE_NAME));
          await mustResolve('query()', () => store.query());
          assertEqual(await tokenOf(store, 'after reads'), token, 'version() after load, metadata and query');
        }),
    },
    ...MOVES.map(
      (move): Case => ({
        id: id(`moves-on-${move.name}`),
        title: `version() changes when ${move.change}`,
        section: 'SkillStore v1.0 §version',
        level: 'required',
        requires: CHANGE_TOKEN_CAPABILITY,
        since,
        run: (ctx) =>
          ctx.withStore(async (store) => {
            await move.prepare(store);
            const before = await tokenOf(store, `before ${move.change}`);
            await move.act(store);
            const after = await tokenOf(store, `after ${move.change}`);
            assertTrue(after !== before, `version() stayed ${formatValue(before)} although ${move.change}`);
          }),
      }),
    ),
  ];
}
