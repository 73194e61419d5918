import type { ProvisionRegistration, ProvisionRegistry } from '@agentwire/relay/edge';
import { assertEqual, assertRefuses, assertTrue } from '../../assert.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { SHARED_BACKEND_NEEDS, uniqueTenant } from '../relay-runtime/runtime-support.js';
import {
  argument,
  EDGE_STORES_ARGUMENTS_SINCE,
  EDGE_STORES_FIRST_VERSION,
  type EdgeStoreContext,
  type EdgeStoreSuiteOptions,
  edgeStoreSetup,
  RELAY_EDGE_STORES_SUITE_VERSION,
  singleStoreCase,
  withStores,
} from './edge-store-support.js';

type Ctx = ProvisionRegistryContext;
type Case = ConformanceCase<Ctx>;

const since = EDGE_STORES_FIRST_VERSION;
const SECTION = 'ProvisionRegistry rules; relay-reference §13 (/relay/provision)';
const SECTION_SHARED = 'ProvisionRegistry rules; relay-reference §13; ARCHITECTURE decision 7';
/** How many route keys the racing cases fight over. */
const CONTESTED_KEYS = 6;

/** A platform name no other case (or run, on a shared backend) uses, so cases never see each other's keys. */
const freshPlatform = () => uniqueTenant('platform');

/** A registration with only the required keys, as an outbound-only gateway sends it. */
function registration(
  platform: string,
  tenant: string,
  gatewayId: string,
  routeKeys: readonly string[],
): ProvisionRegistration {
  return {
    tenant,
    subject: 'conformance-subject',
    gatewayId,
    platform,
    botId: '',
    gatewayEndpoint: '',
    routeKeys,
  };
}

const sorted = (keys: readonly string[]) => [...keys].sort();

function withRegistry<R>(
  ctx: ProvisionRegistryContext,
  body: (registry: ProvisionRegistry) => Promise<R>,
): Promise<R> {
  return withStores(ctx, 1, ([registry]) => body(registry!));
}

/**
 * Two tenants (and a second gateway of the first) claim the same keys at once, through `registries`
 * in turn; checks that every key ends with one tenant, whose claim answered it, and that the other
 * tenant's answer left it out.
 */
async function raceForKeys(registries: readonly ProvisionRegistry[]): Promise<void> {
  const platform = freshPlatform();
  const keys = Array.from({ length: CONTESTED_KEYS }, (_, i) => `contested-${i}`);
  const [tenantA, tenantB] = [uniqueTenant('race-a'), uniqueTenant('race-b')];
  const claims = [
    registration(platform, tenantA, 'gw-a1', keys),
    registration(platform, tenantB, 'gw-b1', [...keys].reverse()),
    registration(platform, tenantA, 'gw-a2', keys),
  ];
  const answers = await Promise.all(
    claims.map((claim, i) => registries[i % registries.length]!.register(claim)),
  );
  const reader = registries[0]!;
  for (const key of keys) {
    const route = await reader.route(platform, key);
    assertTrue(route !== null, `route key ${key} is held by nobody after the race`);
    const winners = claims.filter((claim, i) => claim.tenant === route.tenant && answers[i]!.includes(key));
    assertTrue(
      winners.some((claim) => claim.gatewayId === route.gatewayId),
      `route key ${key} routes to ${route.gatewayId}, whose register did not answer it`,
    );
    const losers = claims.filter((claim, i) => claim.tenant !== route.tenant && answers[i]!.includes(key));
    assertEqual(
      losers.map((claim) => claim.gatewayId),
      [],
      `gateways of another tenant than ${route.tenant} that were also answered ${key}`,
    );
  }
}

/** Every rule of the `ProvisionRegistry` interface. */
export function provisionRegistryCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  const one = (caseId: string, title: string, body: (store: ProvisionRegistry, ctx: Ctx) => Promise<void>) =>
    singleStoreCase<ProvisionRegistry, Ctx>({ suiteName, section: SECTION, since }, caseId, title, body);
  return [
    singleStoreCase<ProvisionRegistry, Ctx>(
      { suiteName, section: SECTION, since: RELAY_EDGE_STORES_SUITE_VERSION },
      'register.after-a-key-moved-and-went',
      'a gateway whose key another gateway of its tenant took, and then gave up, registers again and holds it',
      async (registry) => {
        const platform = freshPlatform();
        const tenant = uniqueTenant('moved');
        await registry.register(registration(platform, tenant, 'gw-a', ['key-1']));
        assertEqual(
          await registry.register(registration(platform, tenant, 'gw-b', ['key-1'])),
          ['key-1'],
          'gw-b takes key-1',
        );
        assertEqual(
          await registry.register(registration(platform, tenant, 'gw-b', [])),
          [],
          'gw-b gives key-1 up',
        );
        assertEqual(await registry.route(platform, 'key-1'), null, 'route of key-1 once given up');
        assertEqual(
          await registry.register(registration(platform, tenant, 'gw-a', ['key-1'])),
          ['key-1'],
          'gw-a again',
        );
        assertEqual(await registry.route(platform, 'key-1'), { tenant, gatewayId: 'gw-a' }, 'route of key-1');
      },
    ),
    one(
      'register.stores-and-answers',
      'register answers the declared route keys (each once) and get returns the registration',
      async (registry) => {
        const platform = freshPlatform();
        const tenant = uniqueTenant('tenant');
        const declared: ProvisionRegistration = {
          ...registration(platform, tenant, 'gw:1', ['guild-1', 'guild:2', 'guild-1', 'gïld-3']),
          botId: 'app-1',
          gatewayEndpoint: 'https://gateway.example/relay',
          instanceId: 'instance-1',
          wakeUrl: 'https://wake.example/gw-1',
          displayName: 'Host 🦊',
        };
        const held = await registry.register(declared);
        assertEqual(sorted(held), sorted(['guild-1', 'guild:2', 'gïld-3']), 'route keys answered');
        const stored = await registry.get('gw:1', platform);
        assertEqual(
          stored === null ? null : { ...stored, routeKeys: sorted(stored.routeKeys) },
          { ...declared, routeKeys: sorted(held) },
          'the stored registration',
        );
      },
    ),
    one(
      'register.optional-keys-only-when-given',
      'a registration without the optional keys reads back without them',
      async (registry) => {
        const platform = freshPlatform();
        const declared = registration(platform, uniqueTenant('tenant'), 'gw-1', ['guild-1']);
        await registry.register(declared);
        const stored = await registry.get('gw-1', platform);
        assertEqual(stored, declared, 'the stored registration');
      },
    ),
    one('get.absent', 'get answers null for a gateway never registered on the platform', async (registry) => {
      const platform = freshPlatform();
      assertEqual(await registry.get('gw-1', platform), null, 'before any registration');
      await registry.register(registration(platform, uniqueTenant('tenant'), 'gw-1', []));
      assertEqual(await registry.get('gw-2', platform), null, 'another gateway');
      assertEqual(await registry.get('gw-1', freshPlatform()), null, 'another platform');
    }),
    one(
      'route.resolves',
      'route answers the tenant and gateway holding a key on its platform, null elsewhere',
      async (registry) => {
        const platform = freshPlatform();
        const tenant = uniqueTenant('tenant');
        await registry.register(registration(platform, tenant, 'gw-1', ['guild-1']));
        assertEqual(await registry.route(platform, 'guild-1'), { tenant, gatewayId: 'gw-1' }, 'route');
        assertEqual(await registry.route(platform, 'guild-2'), null, 'an undeclared key');
        assertEqual(await registry.route(freshPlatform(), 'guild-1'), null, 'the key on another platform');
      },
    ),
    one(
      'register.replaces',
      'register replaces the earlier registration of the same (gatewayId, platform) only',
      async (registry) => {
        const [platform, other] = [freshPlatform(), freshPlatform()];
        const tenant = uniqueTenant('tenant');
        const first = { ...registration(platform, tenant, 'gw-1', ['guild-1']), instanceId: 'i-1' };
        await registry.register(first);
        await registry.register(registration(other, tenant, 'gw-1', ['chat-1']));
        const second = { ...registration(platform, tenant, 'gw-1', ['guild-1']), botId: 'app-2' };
        await registry.register(second);
        assertEqual(await registry.get('gw-1', platform), second, 'the re-declared registration');
        assertEqual(
          await registry.get('gw-1', other),
          registration(other, tenant, 'gw-1', ['chat-1']),
          'the registration on the other platform',
        );
      },
    ),
    one(
      'register.releases-undeclared-keys',
      'route keys the gateway no longer declares are released',
      async (registry) => {
        const platform = freshPlatform();
        const tenant = uniqueTenant('tenant');
        await registry.register(registration(platform, tenant, 'gw-1', ['guild-1', 'guild-2']));
        const held = await registry.register(registration(platform, tenant, 'gw-1', ['guild-2']));
        assertEqual(held, ['guild-2'], 'route keys answered');
        assertEqual(await registry.route(platform, 'guild-1'), null, 'the released key');
        assertEqual(await registry.route(platform, 'guild-2'), { tenant, gatewayId: 'gw-1' }, 'the kept key');
        await registry.register(registration(platform, tenant, 'gw-1', []));
        assertEqual(await registry.route(platform, 'guild-2'), null, 'after declaring no keys');
        assertEqual((await registry.get('gw-1', platform))?.routeKeys, [], 'route keys stored');
      },
    ),
    one(
      'route.moves-within-tenant',
      "a key of the same tenant moves to the registering gateway; the old one's re-declaration does not free it",
      async (registry) => {
        const platform = freshPlatform();
        const tenant = uniqueTenant('tenant');
        await registry.register(registration(platform, tenant, 'gw-1', ['guild-1']));
        const held = await registry.register(registration(platform, tenant, 'gw-2', ['guild-1']));
        assertEqual(held, ['guild-1'], 'route keys answered to the second gateway');
        assertEqual(await registry.route(platform, 'guild-1'), { tenant, gatewayId: 'gw-2' }, 'route');
        await registry.register(registration(platform, tenant, 'gw-1', []));
        assertEqual(
          await registry.route(platform, 'guild-1'),
          { tenant, gatewayId: 'gw-2' },
          'route after the first gateway re-declared without the key',
        );
      },
    ),
    one(
      'route.never-taken-from-another-tenant',
      'a key another tenant holds is left out of the answer and the stored registration, never taken over',
      async (registry) => {
        const platform = freshPlatform();
        const [owner, other] = [uniqueTenant('tenant-owner'), uniqueTenant('tenant-other')];
        await registry.register(registration(platform, owner, 'gw-a', ['guild-1']));
        const held = await registry.register(registration(platform, other, 'gw-b', ['guild-1', 'guild-3']));
        assertEqual(held, ['guild-3'], "route keys answered to the other tenant's gateway");
        assertEqual((await registry.get('gw-b', platform))?.routeKeys, ['guild-3'], 'route keys stored');
        assertEqual(await registry.route(platform, 'guild-1'), { tenant: owner, gatewayId: 'gw-a' }, 'route');
        assertEqual(
          await registry.route(platform, 'guild-3'),
          { tenant: other, gatewayId: 'gw-b' },
          'route of the free key',
        );
      },
    ),
    one(
      'route.released-key-free-for-any-tenant',
      'a key its holder released can be claimed by another tenant',
      async (registry) => {
        const platform = freshPlatform();
        const [first, second] = [uniqueTenant('tenant-first'), uniqueTenant('tenant-second')];
        await registry.register(registration(platform, first, 'gw-a', ['guild-1']));
        await registry.register(registration(platform, first, 'gw-a', []));
        const held = await registry.register(registration(platform, second, 'gw-b', ['guild-1']));
        assertEqual(held, ['guild-1'], 'route keys answered to the second tenant');
        assertEqual(
          await registry.route(platform, 'guild-1'),
          { tenant: second, gatewayId: 'gw-b' },
          'route',
        );
      },
    ),
    {
      id: id('route.racing-claims'),
      title:
        'racing claims on one key by two tenants: exactly one tenant gets it, the other is answered without it',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) => withRegistry(ctx, (registry) => raceForKeys([registry])),
    },
    {
      id: id('shared.visible-across-instances'),
      title: 'a registration made on one instance is read, routes and is replaced on another',
      section: SECTION_SHARED,
      level: 'required',
      requires: 'shared-backend',
      since,
      run: (ctx) =>
        withStores(ctx, 2, async ([first, second]) => {
          const platform = freshPlatform();
          const tenant = uniqueTenant('tenant');
          const declared = registration(platform, tenant, 'gw-1', ['guild-1']);
          await first!.register(declared);
          assertEqual(await second!.get('gw-1', platform), declared, 'get elsewhere');
          assertEqual(
            await second!.route(platform, 'guild-1'),
            { tenant, gatewayId: 'gw-1' },
            'route elsewhere',
          );
          await second!.register(registration(platform, tenant, 'gw-1', ['guild-2']));
          assertEqual(await first!.route(platform, 'guild-1'), null, 'the released key where it was claimed');
          const other = uniqueTenant('tenant-other');
          assertEqual(
            await first!.register(registration(platform, other, 'gw-b', ['guild-2'])),
            [],
            "another tenant's claim of a key held through the other instance",
          );
        }),
    },
    {
      id: id('shared.racing-claims-across-instances'),
      title: 'racing claims through two instances: exactly one tenant gets each key',
      section: SECTION_SHARED,
      level: 'required',
      requires: 'shared-backend',
      since,
      run: (ctx) =>
        withStores(ctx, 2, async (registries) => {
          for (let round = 0; round < 3; round += 1) await raceForKeys(registries);
        }),
    },
    {
      id: id('arguments.refused'),
      title:
        'a registration without its fields, with an empty name or route key, and an empty platform, gateway id or route key to read are refused; nothing is stored',
      section: SECTION,
      level: 'recommended',
      since: EDGE_STORES_ARGUMENTS_SINCE,
      run: (ctx) =>
        withRegistry(ctx, async (registry) => {
          const platform = freshPlatform();
          const tenant = uniqueTenant('refused');
          const valid = registration(platform, tenant, 'gw-refused', ['key-1']);
          const malformed: readonly [string, unknown, string][] = [
            ['null', null, 'registration'],
            ['an empty tenant', { ...valid, tenant: '' }, 'registration.tenant'],
            ['an empty gatewayId', { ...valid, gatewayId: '' }, 'registration.gatewayId'],
            ['a numeric platform', { ...valid, platform: 7 }, 'registration.platform'],
            ['routeKeys that is a string', { ...valid, routeKeys: 'key-1' }, 'registration.routeKeys'],
            ['an empty route key', { ...valid, routeKeys: ['key-1', ''] }, 'registration.routeKeys[1]'],
            [
              'a gatewayId with a lone surrogate',
              { ...valid, gatewayId: 'gw-\uD800' },
              'registration.gatewayId',
            ],
            ['no botId', { ...valid, botId: undefined }, 'registration.botId'],
          ];
          for (const [what, value, path] of malformed) {
            await assertRefuses(
              () => registry.register(value as ProvisionRegistration),
              argument(path),
              `register of a registration with ${what}`,
            );
          }
          await assertRefuses(
            () => registry.get('', platform),
            argument('gatewayId'),
            'get with gatewayId ""',
          );
          await assertRefuses(
            () => registry.get('gw-refused', ''),
            argument('platform'),
            'get with platform ""',
          );
          await assertRefuses(
            () => registry.route(platform, ''),
            argument('routeKey'),
            'route with route key ""',
          );
          await assertRefuses(
            () => registry.route('', 'key-1'),
            argument('platform'),
            'route with platform ""',
          );
          assertEqual(
            await registry.get('gw-refused', platform),
            null,
            'the registration after the refusals',
          );
          assertEqual(await registry.route(platform, 'key-1'), null, 'route key-1 after the refusals');
        }),
    },
  ];
}

/** Options of {@link provisionRegistrySuite}; `Store` is the implementation's own type. */
export type ProvisionRegistrySuiteOptions<Store extends ProvisionRegistry = ProvisionRegistry> =
  EdgeStoreSuiteOptions<Store>;

/** The context every case of {@link provisionRegistrySuite} receives. */
export type ProvisionRegistryContext = EdgeStoreContext<ProvisionRegistry>;

const SUITE_NAME = 'relay-edge.provision-registry';

/**
 * The `ProvisionRegistry` rules (relay-reference §13, `/relay/provision`): one registration per
 * `(gatewayId, platform)`, replaced at every `register` and answered with the route keys it holds;
 * keys the gateway no longer declares released; a route key of a platform held by one tenant — never
 * taken over by another, moved between gateways of the same tenant — also when claims race; and, with
 * capability `shared-backend`, registrations and routes seen and claims decided across instances.
 *
 * @example
 * ```ts
 * import { InMemoryProvisionRegistry } from '@agentwire/relay/testing';
 * const report = await runSuite(provisionRegistrySuite({ create: () => new InMemoryProvisionRegistry() }));
 * ```
 */
export function provisionRegistrySuite<Store extends ProvisionRegistry>(
  options: ProvisionRegistrySuiteOptions<Store>,
): ConformanceSuite<ProvisionRegistryContext> {
  return {
    name: SUITE_NAME,
    version: RELAY_EDGE_STORES_SUITE_VERSION,
    description:
      'The ProvisionRegistry rules: one registration per (gatewayId, platform), replaced at register; ' +
      'route keys released, moved within a tenant, never taken from another tenant, also under racing claims.',
    cases: provisionRegistryCases(SUITE_NAME),
    needs: SHARED_BACKEND_NEEDS,
    setup: () => edgeStoreSetup(options, {}),
  };
}
