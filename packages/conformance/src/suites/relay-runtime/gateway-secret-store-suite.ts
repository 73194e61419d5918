import { authenticatorFor, type GatewaySecretRecord, type GatewaySecretStore } from '@agentwire/relay';
import { assertEqual, assertRefuses, assertTrue, type ExpectedRefusal, fail } from '../../assert.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { SHARED_BACKEND_NEEDS, uniqueTenant, withInstances } from './runtime-support.js';

type Case = ConformanceCase<GatewaySecretStoreContext>;

/**
 * Version of the gateway secret store suite: 1.1.0 checks that every refusal has a message and names the
 * gateway (`path`, `details.gatewayId`) or the option, the record after a rotation with `graceMs` 0, and
 * the JSON of a revoked record.
 */
export const GATEWAY_SECRET_STORE_SUITE_VERSION = '1.1.0';
const SINCE_1_0 = '1.0.0';

const since = SINCE_1_0;
const SECTION = 'GatewaySecretStore rules; contract §6.1; relay-reference §11';
const SECTION_SHARED = 'GatewaySecretStore rules; contract §6.1; ARCHITECTURE decision 7';
/** Where every case's clock starts, in milliseconds. */
const CLOCK_START = 1_750_000_000_000;
/** 256 random bits as unpadded base64url. */
const BASE64URL_256_BITS = /^[A-Za-z0-9_-]{43}$/;
const REDACTED = '[redacted]';

/** A clock the cases move by hand; each case gets its own, starting at {@link CLOCK_START}. */
interface ManualClock {
  now: number;
}

/** A gateway id no other case (or run, against a shared backend) uses. */
function uniqueGatewayId(label: string): string {
  return uniqueTenant(`gateway-${label}`);
}

/** The `code` of a refusal, when it has a string one. */
function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

/** A refusal about gateway `gatewayId`: it names the gateway (`path` `gatewayId`, `details.gatewayId`). */
function aboutGateway(code: string, gatewayId: string): ExpectedRefusal {
  return { code, path: 'gatewayId', details: { gatewayId } };
}

/** Creates `count` stores reading one fresh clock, runs `body` with them and closes them. */
function withStores<R>(
  ctx: GatewaySecretStoreContext,
  count: number,
  body: (stores: readonly GatewaySecretStore[], clock: ManualClock) => Promise<R>,
): Promise<R> {
  const clock: ManualClock = { now: CLOCK_START };
  return withInstances(
    () => ctx.create(() => clock.now),
    count,
    (stores) => body(stores, clock),
  );
}

function withStore<R>(
  ctx: GatewaySecretStoreContext,
  body: (store: GatewaySecretStore, clock: ManualClock) => Promise<R>,
): Promise<R> {
  return withStores(ctx, 1, ([store], clock) => body(store!, clock));
}

/** Node's `util.inspect` where the runtime has it (Node ≥ 20.16), else `undefined`. */
function nodeInspect(): ((value: unknown) => string) | undefined {
  const runtime = (globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } }).process;
  const util = runtime?.getBuiltinModule?.('node:util') as
    | { inspect?: (value: unknown, options: { depth: number }) => string }
    | undefined;
  const inspect = util?.inspect;
  return inspect === undefined ? undefined : (value) => inspect(value, { depth: 5 });
}

/** Every rule of the `GatewaySecretStore` interface. */
export function gatewaySecretStoreCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  return [
    {
      id: id('create.fresh-credentials'),
      title: 'create makes random 256-bit base64url secrets and delivery keys, read back by get',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withStore(ctx, async (store) => {
          const tenant = uniqueTenant('secrets');
          const [first, second] = [uniqueGatewayId('a'), uniqueGatewayId('b')];
          const created = await store.create(first, tenant);
          const other = await store.create(second, tenant);
          assertEqual(
            {
              gatewayId: created.gatewayId,
              tenant: created.tenant,
              revoked: created.revoked,
              rotationEndsAt: created.rotationEndsAt,
            },
            { gatewayId: first, tenant, revoked: false, rotationEndsAt: null },
            'the created record',
          );
          assertEqual(created.secrets.length, 1, 'secrets of a new gateway');
          for (const [name, value] of [
            ['secret', created.secrets[0]],
            ['delivery key', created.deliveryKey],
          ] as const) {
            assertTrue(BASE64URL_256_BITS.test(value ?? ''), `the ${name} is 43 characters of base64url`);
          }
          const fresh = new Set([
            created.secrets[0],
            created.deliveryKey,
            other.secrets[0],
            other.deliveryKey,
          ]);
          assertEqual(fresh.size, 4, 'distinct secrets and delivery keys of two gateways');
          const read = await store.get(first);
          assertEqual(read?.secrets, created.secrets, 'secrets read back');
          assertEqual(read?.deliveryKey, created.deliveryKey, 'delivery key read back');
          assertEqual(await store.get(uniqueGatewayId('unknown')), null, 'get of an unknown id');
        }),
    },
    {
      id: id('create.refuses-held-id'),
      title: 'create refuses an id the store holds, live or revoked (gateway_exists)',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withStore(ctx, async (store) => {
          const gatewayId = uniqueGatewayId('held');
          await store.create(gatewayId, uniqueTenant('secrets'));
          await assertRefuses(
            () => store.create(gatewayId, uniqueTenant('secrets-other')),
            aboutGateway('gateway_exists', gatewayId),
            'create of a live id must be refused',
          );
          await store.revoke(gatewayId);
          await assertRefuses(
            () => store.create(gatewayId, uniqueTenant('secrets')),
            aboutGateway('gateway_exists', gatewayId),
            'create of a revoked id must be refused',
          );
        }),
    },
    {
      id: id('create.one-racer-wins'),
      title: 'of two creates of one id racing on one store, exactly one wins and get shows its secrets',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withStore(ctx, async (store) => {
          const gatewayId = uniqueGatewayId('raced');
          await assertOneRacerWins(
            [
              store.create(gatewayId, uniqueTenant('secrets-a')),
              store.create(gatewayId, uniqueTenant('secrets-b')),
            ],
            () => store.get(gatewayId),
          );
        }),
    },
    {
      id: id('issue.same-tenant'),
      title:
        'issue gives the same tenant fresh credentials (lifting a revocation) and refuses another (gateway_tenant_mismatch)',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withStore(ctx, async (store) => {
          const gatewayId = uniqueGatewayId('issued');
          const tenant = uniqueTenant('secrets');
          const first = await store.issue(gatewayId, tenant);
          assertEqual(first.secrets.length, 1, 'secrets of a first issue');
          const again = await store.issue(gatewayId, tenant);
          assertEqual(again.secrets.length, 1, 'secrets of a second issue');
          assertTrue(again.secrets[0] !== first.secrets[0], 'a second issue gives a fresh secret');
          assertTrue(again.deliveryKey !== first.deliveryKey, 'a second issue gives a fresh delivery key');
          await store.rotate(gatewayId, { graceMs: 60_000 });
          await store.revoke(gatewayId);
          const revived = await store.issue(gatewayId, tenant);
          assertEqual(revived.revoked, false, 'revoked after an issue');
          assertEqual(revived.rotationEndsAt, null, 'rotation window after an issue');
          assertEqual(revived.secrets.length, 1, 'secrets after an issue');
          await assertRefuses(
            () => store.issue(gatewayId, uniqueTenant('secrets-other')),
            aboutGateway('gateway_tenant_mismatch', gatewayId),
            'issue to another tenant must be refused',
          );
          assertEqual((await store.get(gatewayId))?.secrets, revived.secrets, 'secrets after the refusal');
        }),
    },
    {
      id: id('rotate.grace-window'),
      title: 'rotate keeps the old secret second in the verify list until the grace window ends on the clock',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withStore(ctx, async (store, clock) => {
          const gatewayId = uniqueGatewayId('rotated');
          const [old] = (await store.create(gatewayId, uniqueTenant('secrets'))).secrets;
          const rotated = await store.rotate(gatewayId, { graceMs: 60_000 });
          const [fresh] = rotated.secrets;
          assertEqual(rotated.secrets, [fresh, old], 'verify list after rotating');
          assertTrue(fresh !== old, 'rotate makes a new primary secret');
          assertTrue(BASE64URL_256_BITS.test(fresh ?? ''), 'the new secret is 43 characters of base64url');
          assertEqual(rotated.rotationEndsAt, clock.now + 60_000, 'end of the rotation window');
          clock.now += 59_999;
          assertEqual((await store.get(gatewayId))?.secrets, [fresh, old], 'verify list 1 ms before the end');
          clock.now += 1;
          const ended = await store.get(gatewayId);
          assertEqual(ended?.secrets, [fresh], 'verify list at the end of the window');
          assertEqual(ended?.rotationEndsAt, null, 'rotation window after it ended');
        }),
    },
    {
      id: id('rotate.latest-only'),
      title:
        'rotate with graceMs 0 drops the old secret at once; a second rotation keeps only the latest old one',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withStore(ctx, async (store) => {
          const gatewayId = uniqueGatewayId('rotated');
          const tenant = uniqueTenant('secrets');
          await store.create(gatewayId, tenant);
          const immediate = await store.rotate(gatewayId, { graceMs: 0 });
          assertEqual(immediate.secrets.length, 1, 'secrets after rotating with graceMs 0');
          assertTrue(
            BASE64URL_256_BITS.test(immediate.secrets[0] ?? ''),
            'the new secret is 43 characters of base64url',
          );
          assertEqual(
            {
              gatewayId: immediate.gatewayId,
              tenant: immediate.tenant,
              rotationEndsAt: immediate.rotationEndsAt,
            },
            { gatewayId, tenant, rotationEndsAt: null },
            'the record after rotating with graceMs 0',
          );
          assertEqual((await store.get(gatewayId))?.secrets, immediate.secrets, 'secrets read back');
          const [second] = (await store.rotate(gatewayId, { graceMs: 1000 })).secrets;
          const third = await store.rotate(gatewayId, { graceMs: 1000 });
          assertEqual(third.secrets.length, 2, 'secrets after two rotations in a window');
          assertEqual(third.secrets[1], second, 'the old secret kept is the latest one');
        }),
    },
    {
      id: id('rotate.unknown-or-revoked'),
      title: 'rotate refuses an unknown (gateway_not_found) and a revoked gateway (gateway_revoked)',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withStore(ctx, async (store) => {
          const gatewayId = uniqueGatewayId('rotated');
          await assertRefuses(
            () => store.rotate(gatewayId, { graceMs: 0 }),
            aboutGateway('gateway_not_found', gatewayId),
            'rotate must be refused',
          );
          await store.create(gatewayId, uniqueTenant('secrets'));
          await store.revoke(gatewayId);
          await assertRefuses(
            () => store.rotate(gatewayId, { graceMs: 0 }),
            aboutGateway('gateway_revoked', gatewayId),
            'rotate of a revoked gateway must be refused',
          );
        }),
    },
    {
      id: id('revoke.once'),
      title: 'revoke answers true once; the record stays without secrets and the authenticator answers null',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withStore(ctx, async (store) => {
          const authenticate = authenticatorFor(store);
          const gatewayId = uniqueGatewayId('revoked');
          const tenant = uniqueTenant('secrets');
          const created = await store.create(gatewayId, tenant);
          const rotated = await store.rotate(gatewayId, { graceMs: 60_000 });
          assertEqual(
            await authenticate(gatewayId),
            { tenant, secrets: [rotated.secrets[0], created.secrets[0]] },
            'credentials of a live gateway',
          );
          assertEqual(await store.revoke(gatewayId), true, 'first revoke');
          assertEqual(await store.revoke(gatewayId), false, 'second revoke');
          assertEqual(await store.revoke(uniqueGatewayId('unknown')), false, 'revoke of an unknown id');
          const revoked = await store.get(gatewayId);
          assertEqual(
            revoked && {
              gatewayId: revoked.gatewayId,
              tenant: revoked.tenant,
              revoked: revoked.revoked,
              rotationEndsAt: revoked.rotationEndsAt,
              secrets: revoked.secrets,
              deliveryKey: revoked.deliveryKey,
            },
            { gatewayId, tenant, revoked: true, rotationEndsAt: null, secrets: [], deliveryKey: '' },
            'the revoked record',
          );
          assertEqual(
            JSON.parse(JSON.stringify(revoked)) as unknown,
            { gatewayId, tenant, secrets: [], deliveryKey: '', revoked: true, rotationEndsAt: null },
            'JSON of the revoked record',
          );
          assertEqual(await authenticate(gatewayId), null, 'credentials of a revoked gateway');
          assertEqual(await authenticate(uniqueGatewayId('unknown')), null, 'credentials of an unknown id');
          assertEqual(await authenticate(''), null, 'credentials of the empty id');
        }),
    },
    {
      id: id('ids.kept-apart'),
      title: 'ids that share separators or escapes are different gateways',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withStore(ctx, async (store) => {
          // One fresh prefix, then ids an escaping or joining backend could confuse with each other.
          const prefix = uniqueGatewayId('separators');
          const ids = ['a:b', 'a%3Ab', 'a', 'a:b:c', 'a b', 'ü/ß'].map((suffix) => `${prefix}${suffix}`);
          for (const gatewayId of ids) await store.create(gatewayId, `tenant of ${gatewayId}`);
          for (const gatewayId of ids) {
            assertEqual(
              (await store.get(gatewayId))?.tenant,
              `tenant of ${gatewayId}`,
              `tenant of ${gatewayId}`,
            );
          }
        }),
    },
    {
      id: id('records.redacted'),
      title: 'JSON, String() and Node inspect output of a record never show a secret',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withStore(ctx, async (store, clock) => {
          const gatewayId = uniqueGatewayId('redacted');
          const tenant = uniqueTenant('secrets');
          await store.create(gatewayId, tenant);
          const record = await store.rotate(gatewayId, { graceMs: 1000 });
          const inspect = nodeInspect();
          const shown = [JSON.stringify(record), String(record), JSON.stringify([record])];
          if (inspect !== undefined) shown.push(inspect(record));
          for (const text of shown) {
            for (const secret of [...record.secrets, record.deliveryKey]) {
              assertTrue(!text.includes(secret), `a secret shows in ${JSON.stringify(text.slice(0, 40))}…`);
            }
          }
          assertEqual(
            JSON.parse(JSON.stringify(record)) as unknown,
            {
              gatewayId,
              tenant,
              secrets: [REDACTED, REDACTED],
              deliveryKey: REDACTED,
              revoked: false,
              rotationEndsAt: clock.now + 1000,
            },
            'JSON of a record',
          );
        }),
    },
    {
      id: id('arguments.refused'),
      title:
        'an empty or non-string gateway id, a tenant with a lone surrogate and an unusable grace window are refused',
      section: SECTION,
      level: 'recommended',
      since,
      run: (ctx) =>
        withStore(ctx, async (store) => {
          const bad: readonly (readonly [string, unknown, string, string])[] = [
            ['an empty gateway id', '', uniqueTenant('secrets'), 'gatewayId'],
            ['a gateway id that is not a string', 7, uniqueTenant('secrets'), 'gatewayId'],
            ['a tenant with a lone surrogate', uniqueGatewayId('bad'), 'x\ud800', 'tenant'],
          ];
          for (const [what, gatewayId, tenant, path] of bad) {
            for (const method of ['create', 'issue'] as const) {
              await assertRefuses(
                () => store[method](gatewayId as string, tenant),
                { code: 'invalid_gateway_secret_argument', path: path },
                `${method} with ${what} must be refused`,
              );
            }
          }
          for (const [what, badId] of [
            ['""', ''],
            ['7', 7],
          ] as const) {
            const asId = badId as string;
            await assertRefuses(
              () => store.rotate(asId, { graceMs: 0 }),
              { code: 'invalid_gateway_secret_argument', path: 'gatewayId' },
              `rotate of gateway id ${what} must be refused`,
            );
            await assertRefuses(
              () => store.revoke(asId),
              { code: 'invalid_gateway_secret_argument', path: 'gatewayId' },
              `revoke of gateway id ${what} must be refused`,
            );
            await assertRefuses(
              () => store.get(asId),
              { code: 'invalid_gateway_secret_argument', path: 'gatewayId' },
              `get of gateway id ${what} must be refused`,
            );
          }
          const gatewayId = uniqueGatewayId('grace');
          await store.create(gatewayId, uniqueTenant('secrets'));
          for (const graceMs of [-1, Number.NaN, Number.POSITIVE_INFINITY, '5']) {
            await assertRefuses(
              () => store.rotate(gatewayId, { graceMs } as { graceMs: number }),
              { code: 'invalid_gateway_secret_argument', path: 'options.graceMs' },
              `rotate with graceMs ${String(graceMs)} must be refused`,
            );
          }
          for (const options of [undefined, null]) {
            await assertRefuses(
              () => store.rotate(gatewayId, options as unknown as { graceMs: number }),
              { code: 'invalid_gateway_secret_argument', path: 'options' },
              `rotate with options ${String(options)} must be refused`,
            );
          }
        }),
    },
    {
      id: id('close.refuses-use'),
      title: 'after close, get and create reject (gateway_secret_store_closed)',
      section: SECTION,
      level: 'recommended',
      since,
      run: (ctx) =>
        withStore(ctx, async (store) => {
          await store.close();
          const gatewayId = uniqueGatewayId('closed');
          await assertRefuses(
            () => store.get(gatewayId),
            { code: 'gateway_secret_store_closed' },
            'get after close must be refused',
          );
          await assertRefuses(
            () => store.create(gatewayId, uniqueTenant('secrets')),
            { code: 'gateway_secret_store_closed' },
            'create after close must be refused',
          );
        }),
    },
    {
      id: id('shared.seen-by-another-instance'),
      title: 'a gateway created, rotated and revoked on one instance reads the same on another',
      section: SECTION_SHARED,
      level: 'required',
      requires: 'shared-backend',
      since,
      run: (ctx) =>
        withStores(ctx, 2, async ([writer, reader], clock) => {
          const gatewayId = uniqueGatewayId('shared');
          const tenant = uniqueTenant('secrets');
          const created = await writer!.create(gatewayId, tenant);
          assertEqual(
            (await reader!.get(gatewayId))?.secrets,
            created.secrets,
            'secrets read on another instance',
          );
          assertEqual(
            (await reader!.get(gatewayId))?.deliveryKey,
            created.deliveryKey,
            'delivery key read there',
          );
          const rotated = await writer!.rotate(gatewayId, { graceMs: 1000 });
          clock.now += 999;
          assertEqual((await reader!.get(gatewayId))?.secrets, rotated.secrets, 'verify list in the window');
          clock.now += 1;
          assertEqual((await reader!.get(gatewayId))?.secrets, [rotated.secrets[0]], 'verify list after it');
          assertEqual(await writer!.revoke(gatewayId), true, 'revoke on the first instance');
          assertEqual(await reader!.revoke(gatewayId), false, 'revoke of the same id on another instance');
          await assertRefuses(
            () => reader!.create(gatewayId, tenant),
            { code: 'gateway_exists' },
            'create of a revoked id on another instance must be refused',
          );
        }),
    },
    {
      id: id('shared.one-racer-wins'),
      title: 'of two instances racing to create one id, exactly one wins',
      section: SECTION_SHARED,
      level: 'required',
      requires: 'shared-backend',
      since,
      run: (ctx) =>
        withStores(ctx, 2, async ([first, second]) => {
          const gatewayId = uniqueGatewayId('raced');
          await assertOneRacerWins(
            [
              first!.create(gatewayId, uniqueTenant('secrets-a')),
              second!.create(gatewayId, uniqueTenant('secrets-b')),
            ],
            () => second!.get(gatewayId),
          );
        }),
    },
  ];
}

/** Requires exactly one of `racers` to win and the other to be refused with `gateway_exists`. */
async function assertOneRacerWins(
  racers: readonly Promise<GatewaySecretRecord>[],
  read: () => Promise<GatewaySecretRecord | null>,
): Promise<void> {
  const outcomes = await Promise.allSettled(racers);
  const winners = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  assertEqual(winners.length, 1, 'creates that won');
  const loser = outcomes.find((outcome) => outcome.status === 'rejected');
  if (loser === undefined) fail('the other create must be refused');
  assertEqual(codeOf(loser.reason), 'gateway_exists', 'code of the refused create');
  assertEqual((await read())?.secrets, winners[0]!.secrets, 'secrets read after the race');
}

/** Options of {@link gatewaySecretStoreSuite}. */
export interface GatewaySecretStoreSuiteOptions {
  /**
   * Creates a fresh, open store whose clock is `now` (milliseconds): the cases move it to end rotation
   * windows, so no case waits. Cases call it once or more and close every store they create.
   */
  readonly create: (now: () => number) => GatewaySecretStore | Promise<GatewaySecretStore>;
  /**
   * `true` when stores from `create` share one backend (e.g. Redis): what one creates, rotates and
   * revokes, another reads. Capability `shared-backend`.
   */
  readonly sharedBackend?: boolean;
  /** Releases what the caller set up for the run; called after the last case. */
  readonly dispose?: () => void | Promise<void>;
}

/** The context every case of {@link gatewaySecretStoreSuite} receives. */
export interface GatewaySecretStoreContext {
  /** A fresh store reading `now` as its clock. */
  readonly create: (now: () => number) => Promise<GatewaySecretStore>;
}

const SUITE_NAME = 'relay-runtime.secrets';

/**
 * The `GatewaySecretStore` rules (contract §6.1): random 256-bit base64url secrets and delivery keys,
 * `create` refusing a held id (one winner of a race), `issue` renewing the same tenant's credentials
 * and refusing another tenant, `rotate` keeping the latest old secret second until the grace window
 * ends on the store's clock, `revoke` once leaving a record without secrets (and the authenticator
 * answering `null`), ids kept apart whatever separators they hold, records that never show a secret,
 * and — with capability `shared-backend` — one instance seeing what another did. Gateway ids and
 * tenants are fresh per case, so a shared backend needs no cleaning between cases; each case gets
 * its own clock through `create(now)`.
 *
 * @example
 * ```ts
 * import { InMemoryGatewaySecretStore } from '@agentwire/relay/testing';
 * const report = await runSuite(
 *   gatewaySecretStoreSuite({ create: (now) => new InMemoryGatewaySecretStore({ now }) }),
 * );
 * ```
 */
export function gatewaySecretStoreSuite(
  options: GatewaySecretStoreSuiteOptions,
): ConformanceSuite<GatewaySecretStoreContext> {
  const capabilities = new Set<string>();
  if (options.sharedBackend === true) capabilities.add('shared-backend');
  return {
    name: SUITE_NAME,
    version: GATEWAY_SECRET_STORE_SUITE_VERSION,
    description:
      'The GatewaySecretStore rules: random secrets and delivery keys, create refusing a held id, issue ' +
      'per tenant, rotation windows on the store clock, revoke once, ids kept apart, redacted records, ' +
      'gateways shared between instances of one backend.',
    cases: gatewaySecretStoreCases(SUITE_NAME),
    needs: SHARED_BACKEND_NEEDS,
    setup: () => ({
      ctx: { create: async (now) => options.create(now) },
      capabilities,
      ...(options.dispose === undefined ? {} : { dispose: options.dispose }),
    }),
  };
}
