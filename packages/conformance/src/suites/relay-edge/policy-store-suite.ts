import type { GatewayRelevancePolicy, PolicyStore } from '@agentwire/relay/edge';
import { assertEqual, assertRejects } from '../../assert.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { SHARED_BACKEND_NEEDS, uniqueTenant } from '../relay-runtime/runtime-support.js';
import {
  EDGE_STORES_ARGUMENTS_SINCE,
  EDGE_STORES_FIRST_VERSION,
  type EdgeStoreContext,
  type EdgeStoreSuiteOptions,
  edgeStoreSetup,
  RELAY_EDGE_STORES_SUITE_VERSION,
  singleStoreCase,
  withStores,
} from './edge-store-support.js';

type Ctx = PolicyStoreContext;
type Case = ConformanceCase<Ctx>;

const since = EDGE_STORES_FIRST_VERSION;
const SECTION = 'PolicyStore rules; relay-reference §13 (/relay/policy)';
const SECTION_SHARED = 'PolicyStore rules; relay-reference §13; ARCHITECTURE decision 7';

/** A policy of a gateway id no other case (or run, on a shared backend) uses. */
function freshPolicy(overrides: Partial<GatewayRelevancePolicy> = {}): GatewayRelevancePolicy {
  return {
    tenant: uniqueTenant('tenant'),
    gatewayId: uniqueTenant('gateway'),
    platform: 'discord',
    requireAddress: true,
    freeResponseScopes: ['channel-1', 'canal:ü-2'],
    allowOtherBots: false,
    ...overrides,
  };
}

/** Every rule of the `PolicyStore` interface. */
export function policyStoreCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  const one = (caseId: string, title: string, body: (store: PolicyStore, ctx: Ctx) => Promise<void>) =>
    singleStoreCase<PolicyStore, Ctx>({ suiteName, section: SECTION, since }, caseId, title, body);
  return [
    one('get.absent', 'get answers null for a (gatewayId, platform) with no policy', async (store) => {
      const policy = freshPolicy();
      assertEqual(await store.get(policy.gatewayId, policy.platform), null, 'before any put');
    }),
    one('put.reads-back', 'a policy reads back as put, with its tenant and gateway', async (store) => {
      const policy = freshPolicy();
      await store.put(policy);
      assertEqual(await store.get(policy.gatewayId, policy.platform), policy, 'the stored policy');
    }),
    one(
      'put.replaces',
      'put replaces the earlier policy of the same (gatewayId, platform) whole',
      async (store) => {
        const first = freshPolicy();
        const second: GatewayRelevancePolicy = {
          ...first,
          requireAddress: false,
          freeResponseScopes: [],
          allowOtherBots: true,
        };
        await store.put(first);
        await store.put(second);
        assertEqual(await store.get(first.gatewayId, first.platform), second, 'the re-declared policy');
      },
    ),
    one(
      'keyed-by-gateway-and-platform',
      'policies of one gateway on two platforms, and of two gateways on one, are kept apart',
      async (store) => {
        const discord = freshPolicy();
        const telegram = {
          ...discord,
          platform: 'telegram',
          requireAddress: false,
          freeResponseScopes: [],
        };
        const neighbour = freshPolicy({ tenant: discord.tenant, allowOtherBots: true });
        for (const policy of [discord, telegram, neighbour]) await store.put(policy);
        assertEqual(await store.get(discord.gatewayId, 'discord'), discord, 'on discord');
        assertEqual(await store.get(discord.gatewayId, 'telegram'), telegram, 'on telegram');
        assertEqual(await store.get(neighbour.gatewayId, 'discord'), neighbour, 'the other gateway');
        assertEqual(await store.get(neighbour.gatewayId, 'telegram'), null, 'the other gateway elsewhere');
      },
    ),
    {
      id: id('shared.visible-across-instances'),
      title: 'a policy put on one instance is read, and replaced, on another',
      section: SECTION_SHARED,
      level: 'required',
      requires: 'shared-backend',
      since,
      run: (ctx) =>
        withStores(ctx, 2, async ([first, second]) => {
          const policy = freshPolicy();
          await first!.put(policy);
          assertEqual(await second!.get(policy.gatewayId, policy.platform), policy, 'read elsewhere');
          const replaced = { ...policy, allowOtherBots: true };
          await second!.put(replaced);
          assertEqual(await first!.get(policy.gatewayId, policy.platform), replaced, 'after a put elsewhere');
        }),
    },
    {
      id: id('arguments.refused'),
      title:
        'a policy without its fields, with an empty name or a flag that is not a boolean, and an empty gateway id or platform to read are refused; nothing is stored',
      section: SECTION,
      level: 'recommended',
      since: EDGE_STORES_ARGUMENTS_SINCE,
      run: (ctx) =>
        withStores(ctx, 1, async ([store]) => {
          const valid = freshPolicy();
          const malformed: readonly [string, unknown][] = [
            ['null', null],
            ['an empty tenant', { ...valid, tenant: '' }],
            ['an empty gatewayId', { ...valid, gatewayId: '' }],
            ['requireAddress "yes"', { ...valid, requireAddress: 'yes' }],
            ['freeResponseScopes that is a string', { ...valid, freeResponseScopes: 'channel-1' }],
            ['an empty scope', { ...valid, freeResponseScopes: [''] }],
            ['no allowOtherBots', { ...valid, allowOtherBots: undefined }],
          ];
          for (const [what, value] of malformed) {
            await assertRejects(
              () => store!.put(value as GatewayRelevancePolicy),
              `put of a policy with ${what}`,
            );
          }
          // The refusal names the argument (`path`), as the store interface documents it.
          const gatewayIdRefusal = await assertRejects(
            () => store!.get('', valid.platform),
            'get with gatewayId ""',
          );
          assertEqual((gatewayIdRefusal as { path?: unknown }).path, 'gatewayId', 'path of the get refusal');
          const platformRefusal = await assertRejects(
            () => store!.get(valid.gatewayId, ''),
            'get with platform ""',
          );
          assertEqual((platformRefusal as { path?: unknown }).path, 'platform', 'path of the get refusal');
          assertEqual(
            await store!.get(valid.gatewayId, valid.platform),
            null,
            'the policy after the refusals',
          );
        }),
    },
  ];
}

/** Options of {@link policyStoreSuite}; `Store` is the implementation's own type. */
export type PolicyStoreSuiteOptions<Store extends PolicyStore = PolicyStore> = EdgeStoreSuiteOptions<Store>;

/** The context every case of {@link policyStoreSuite} receives. */
export type PolicyStoreContext = EdgeStoreContext<PolicyStore>;

const SUITE_NAME = 'relay-edge.policies';

/**
 * The `PolicyStore` rules (relay-reference §13, `/relay/policy`): one relevance policy per
 * `(gatewayId, platform)`, read back as put (tenant and gateway kept), replaced whole by the next
 * `put`, `null` when none was put; with capability `shared-backend`, policies seen across instances.
 *
 * @example
 * ```ts
 * import { InMemoryPolicyStore } from '@agentwire/relay/testing';
 * const report = await runSuite(policyStoreSuite({ create: () => new InMemoryPolicyStore() }));
 * ```
 */
export function policyStoreSuite<Store extends PolicyStore>(
  options: PolicyStoreSuiteOptions<Store>,
): ConformanceSuite<PolicyStoreContext> {
  return {
    name: SUITE_NAME,
    version: RELAY_EDGE_STORES_SUITE_VERSION,
    description:
      'The PolicyStore rules: one policy per (gatewayId, platform), read back as put, replaced by the ' +
      'next put, null when absent, shared between instances.',
    cases: policyStoreCases(SUITE_NAME),
    needs: SHARED_BACKEND_NEEDS,
    setup: () => edgeStoreSetup(options, {}),
  };
}
