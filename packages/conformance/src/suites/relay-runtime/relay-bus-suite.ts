import type { RelayBus, RelayBusListener, RelayBusMessage } from '@agentwire/relay';
import { assertEqual, assertRefuses, assertTrue, formatValue } from '../../assert.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import {
  pollUntil,
  RELAY_BUS_SUITE_VERSION,
  RELAY_RUNTIME_SUITE_VERSION,
  SHARED_BACKEND_NEEDS,
  sleep,
  uniqueTenant,
  withInstances,
} from './runtime-support.js';

const POLL_STEP_MS = 5;

/** A bus listener that records what it receives, and waits (bounded) for deliveries. */
export class BusRecorder {
  readonly messages: RelayBusMessage[] = [];
  readonly listener: RelayBusListener = (message) => {
    this.messages.push(message);
  };
  readonly #who: string;
  readonly #timeoutMs: number;

  /** `who` names the listener in failure messages. */
  constructor(who: string, timeoutMs: number) {
    this.#who = who;
    this.#timeoutMs = timeoutMs;
  }

  /** Waits until `count` messages arrived; fails after the delivery timeout. */
  async waitForCount(count: number): Promise<void> {
    await this.#waitUntil(
      () => this.messages.length >= count,
      () => `received ${this.messages.length} of ${count} messages`,
    );
  }

  /** Waits until the {@link sentinel} with this `chatId` arrived; fails after the delivery timeout. */
  async waitForSentinel(chatId: string): Promise<void> {
    await this.#waitUntil(
      () => this.messages.some((m) => m.type === 'interrupt_inbound' && m.chat_id === chatId),
      () => `never received sentinel ${chatId}`,
    );
  }

  /** Fails unless exactly `expected` arrived, in this order. */
  assertReceived(expected: readonly RelayBusMessage[]): void {
    assertEqual(this.messages, expected, `messages ${this.#who} received`);
  }

  async #waitUntil(condition: () => boolean, problem: () => string): Promise<void> {
    await pollUntil(
      async () => condition(),
      { attempts: Math.ceil(this.#timeoutMs / POLL_STEP_MS), step: () => sleep(POLL_STEP_MS) },
      () => `${this.#who} ${problem()} within ${this.#timeoutMs} ms; received ${formatValue(this.messages)}`,
    );
  }
}

/** An `interrupt_inbound` message that marks a point in a stream of messages. */
export function sentinel(chatId: string): RelayBusMessage {
  return { type: 'interrupt_inbound', session_key: 'conformance:sentinel', chat_id: chatId };
}

type Case = ConformanceCase<RelayBusContext>;

const since = RELAY_RUNTIME_SUITE_VERSION;
const SECTION = 'RelayBus rules (@agentwire/relay bus/relay-bus.ts)';
const SECTION_SHARED = 'RelayBus rules; ARCHITECTURE decision 7 (several instances on one backend)';
const MESSAGES_IN_ORDER = 100;

const MESSAGE_OF_EACH_TYPE: readonly RelayBusMessage[] = [
  { type: 'buffered' },
  { type: 'interrupt_inbound', session_key: 'agent:main:discord:group:42:7', chat_id: '42' },
  { type: 'takeover', instanceId: 'instance-b', connectionId: 'connection-17' },
];

const numbered = (index: number): RelayBusMessage => ({
  type: 'interrupt_inbound',
  session_key: 'conformance:order',
  chat_id: String(index),
});

/** Runs `body` with one fresh bus and closes it. */
function withBus<R>(ctx: RelayBusContext, body: (bus: RelayBus) => Promise<R>): Promise<R> {
  return withInstances(ctx.create, 1, ([bus]) => body(bus!));
}

/** Every rule of the `RelayBus` interface. */
export function busCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  const recorder = (ctx: RelayBusContext, who: string) => new BusRecorder(who, ctx.deliveryTimeoutMs);
  return [
    {
      id: id('publish.nobody-subscribed'),
      title: 'publish to a tenant nobody subscribed to resolves with 0',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBus(ctx, async (bus) => {
          assertEqual(await bus.publish(uniqueTenant('bus'), { type: 'buffered' }), 0, 'publish count');
        }),
    },
    {
      id: id('subscribe.then-publish'),
      title: 'a message published after subscribe resolved reaches the listener, and publish counts it',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBus(ctx, async (bus) => {
          const tenant = uniqueTenant('bus');
          const listener = recorder(ctx, 'the listener');
          await bus.subscribe(tenant, listener.listener);
          assertEqual(await bus.publish(tenant, { type: 'buffered' }), 1, 'publish count');
          await listener.waitForCount(1);
          listener.assertReceived([{ type: 'buffered' }]);
        }),
    },
    {
      id: id('message.every-type-intact'),
      title: 'buffered, interrupt_inbound and takeover messages arrive with every field intact',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBus(ctx, async (bus) => {
          const tenant = uniqueTenant('bus');
          const listener = recorder(ctx, 'the listener');
          await bus.subscribe(tenant, listener.listener);
          for (const message of MESSAGE_OF_EACH_TYPE) await bus.publish(tenant, message);
          await listener.waitForCount(MESSAGE_OF_EACH_TYPE.length);
          listener.assertReceived(MESSAGE_OF_EACH_TYPE);
        }),
    },
    {
      id: id('publish.order-kept'),
      title: `${MESSAGES_IN_ORDER} messages published back to back (not awaited) arrive in publish order`,
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBus(ctx, async (bus) => {
          const tenant = uniqueTenant('bus');
          const listener = recorder(ctx, 'the listener');
          await bus.subscribe(tenant, listener.listener);
          const messages = Array.from({ length: MESSAGES_IN_ORDER }, (_, i) => numbered(i));
          const counts = await Promise.all(messages.map((message) => bus.publish(tenant, message)));
          assertTrue(
            counts.every((count) => count === 1),
            `every publish counts 1 subscription (${counts.join(',')})`,
          );
          await listener.waitForCount(messages.length);
          listener.assertReceived(messages);
        }),
    },
    {
      id: id('tenant.isolation'),
      title: 'a listener sees only messages published for its own tenant',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBus(ctx, async (bus) => {
          const [tenantA, tenantB] = [uniqueTenant('bus-a'), uniqueTenant('bus-b')];
          const [listenerA, listenerB] = [recorder(ctx, 'tenant A'), recorder(ctx, 'tenant B')];
          await bus.subscribe(tenantA, listenerA.listener);
          await bus.subscribe(tenantB, listenerB.listener);
          const forB = MESSAGE_OF_EACH_TYPE[2]!;
          assertEqual(await bus.publish(tenantB, forB), 1, 'publish count for tenant B');
          await bus.publish(tenantB, sentinel('end-b'));
          await bus.publish(tenantA, sentinel('end-a'));
          await listenerA.waitForSentinel('end-a');
          await listenerB.waitForSentinel('end-b');
          listenerA.assertReceived([sentinel('end-a')]);
          listenerB.assertReceived([forB, sentinel('end-b')]);
        }),
    },
    {
      id: id('publish.counts-every-subscription'),
      title:
        'with three subscriptions to a tenant on one bus, publish resolves with 3 and each receives once',
      section: SECTION,
      level: 'recommended',
      since,
      run: (ctx) =>
        withBus(ctx, async (bus) => {
          const tenant = uniqueTenant('bus');
          const listeners = [
            recorder(ctx, 'listener 1'),
            recorder(ctx, 'listener 2'),
            recorder(ctx, 'listener 3'),
          ];
          for (const listener of listeners) await bus.subscribe(tenant, listener.listener);
          assertEqual(await bus.publish(tenant, { type: 'buffered' }), 3, 'publish count');
          await bus.publish(tenant, sentinel('end'));
          for (const listener of listeners) {
            await listener.waitForSentinel('end');
            listener.assertReceived([{ type: 'buffered' }, sentinel('end')]);
          }
        }),
    },
    {
      id: id('listener.throwing-isolated'),
      title:
        'a listener that throws keeps neither the other listeners nor later messages from being delivered',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBus(ctx, async (bus) => {
          const tenant = uniqueTenant('bus');
          const thrower = recorder(ctx, 'the throwing listener');
          const other = recorder(ctx, 'the other listener');
          await bus.subscribe(tenant, (message) => {
            thrower.listener(message);
            throw new Error('listener failure raised on purpose by the conformance suite');
          });
          await bus.subscribe(tenant, other.listener);
          const published = [MESSAGE_OF_EACH_TYPE[0]!, MESSAGE_OF_EACH_TYPE[1]!];
          for (const message of published) {
            assertTrue((await bus.publish(tenant, message)) >= 1, 'publish counts the subscriptions');
          }
          await other.waitForCount(2);
          await thrower.waitForCount(2);
          other.assertReceived(published);
          thrower.assertReceived(published);
        }),
    },
    {
      id: id('unsubscribe.stops-delivery'),
      title: 'after unsubscribe a listener receives nothing more; the other subscription still does',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBus(ctx, async (bus) => {
          const tenant = uniqueTenant('bus');
          const [gone, kept] = [
            recorder(ctx, 'the unsubscribed listener'),
            recorder(ctx, 'the kept listener'),
          ];
          const subscription = await bus.subscribe(tenant, gone.listener);
          await bus.subscribe(tenant, kept.listener);
          await subscription.unsubscribe();
          assertEqual(await bus.publish(tenant, { type: 'buffered' }), 1, 'publish count after unsubscribe');
          await bus.publish(tenant, sentinel('end'));
          await kept.waitForSentinel('end');
          kept.assertReceived([{ type: 'buffered' }, sentinel('end')]);
          gone.assertReceived([]);
        }),
    },
    {
      id: id('unsubscribe.idempotent'),
      title: 'unsubscribe twice resolves both times and leaves other subscriptions of the tenant alone',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBus(ctx, async (bus) => {
          const tenant = uniqueTenant('bus');
          const kept = recorder(ctx, 'the kept listener');
          const subscription = await bus.subscribe(tenant, () => undefined);
          await bus.subscribe(tenant, kept.listener);
          await subscription.unsubscribe();
          await subscription.unsubscribe();
          assertEqual(await bus.publish(tenant, { type: 'buffered' }), 1, 'publish count');
          await kept.waitForCount(1);
          kept.assertReceived([{ type: 'buffered' }]);
        }),
    },
    {
      id: id('unsubscribe.last-counts-zero'),
      title: 'once the only subscription of a tenant is gone, publish resolves with 0',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBus(ctx, async (bus) => {
          const tenant = uniqueTenant('bus');
          const gone = recorder(ctx, 'the unsubscribed listener');
          const subscription = await bus.subscribe(tenant, gone.listener);
          await subscription.unsubscribe();
          assertEqual(await bus.publish(tenant, { type: 'buffered' }), 0, 'publish count');
          gone.assertReceived([]);
        }),
    },
    {
      id: id('subscribe.again-after-unsubscribe'),
      title: 'a tenant subscribed again after its last unsubscribe receives new messages',
      section: SECTION,
      level: 'required',
      since,
      run: (ctx) =>
        withBus(ctx, async (bus) => {
          const tenant = uniqueTenant('bus');
          await (await bus.subscribe(tenant, () => undefined)).unsubscribe();
          const listener = recorder(ctx, 'the new listener');
          await bus.subscribe(tenant, listener.listener);
          assertEqual(await bus.publish(tenant, { type: 'buffered' }), 1, 'publish count');
          await listener.waitForCount(1);
          listener.assertReceived([{ type: 'buffered' }]);
        }),
    },
    {
      id: id('arguments.refused'),
      title: 'a malformed tenant, message or listener is refused with invalid_bus_argument naming it (path)',
      section: SECTION,
      level: 'recommended',
      since,
      run: (ctx) =>
        withBus(ctx, async (bus) => {
          const tenant = uniqueTenant('bus');
          const bad = (message: unknown) => message as RelayBusMessage;
          const publishRefusals: readonly [string, string, RelayBusMessage][] = [
            ['tenant ""', '', { type: 'buffered' }],
            ['a message null', tenant, bad(null)],
            ['a message that is an array', tenant, bad([{ type: 'buffered' }])],
            ['a message that is a string', tenant, bad('buffered')],
            ['type "wake"', tenant, bad({ type: 'wake' })],
            [
              'interrupt_inbound with a numeric chat_id',
              tenant,
              bad({ ...MESSAGE_OF_EACH_TYPE[1]!, chat_id: 42 }),
            ],
            ['takeover without connectionId', tenant, bad({ type: 'takeover', instanceId: 'instance-b' })],
          ];
          const paths = [
            'tenant',
            'message',
            'message',
            'message',
            'message.type',
            'message.chat_id',
            'message.connectionId',
          ];
          for (const [index, [what, to, message]] of publishRefusals.entries()) {
            await assertRefuses(
              () => bus.publish(to, message),
              { code: 'invalid_bus_argument', path: paths[index]! },
              `publish with ${what}`,
            );
          }
          await assertRefuses(
            () => bus.subscribe('', () => undefined),
            { code: 'invalid_bus_argument', path: 'tenant' },
            'subscribe to tenant ""',
          );
          await assertRefuses(
            () => bus.subscribe(tenant, 'listener' as unknown as () => void),
            { code: 'invalid_bus_argument', path: 'listener' },
            'subscribe with a string listener',
          );
        }),
    },
    {
      id: id('close.refuses-use'),
      title: 'after close, publish and subscribe reject with bus_closed; unsubscribe and close again resolve',
      section: SECTION,
      level: 'recommended',
      since,
      run: async (ctx) => {
        const bus = await ctx.create();
        const subscription = await bus.subscribe(uniqueTenant('bus'), () => undefined);
        await bus.close();
        await assertRefuses(
          () => bus.publish(uniqueTenant('bus'), { type: 'buffered' }),
          { code: 'bus_closed' },
          'publish after close',
        );
        await assertRefuses(
          () => bus.subscribe(uniqueTenant('bus'), () => undefined),
          { code: 'bus_closed' },
          'subscribe after close',
        );
        await subscription.unsubscribe();
        await bus.close();
      },
    },
    {
      id: id('shared.delivery-across-instances'),
      title: 'a message published on one instance reaches the listener subscribed on another, in order',
      section: SECTION_SHARED,
      level: 'required',
      requires: 'shared-backend',
      since,
      run: (ctx) =>
        withInstances(ctx.create, 2, async ([holder, publisher]) => {
          const tenant = uniqueTenant('bus');
          const listener = recorder(ctx, 'the listener on the other instance');
          await holder!.subscribe(tenant, listener.listener);
          const messages = Array.from({ length: 20 }, (_, i) => numbered(i));
          const counts = await Promise.all(messages.map((message) => publisher!.publish(tenant, message)));
          assertTrue(
            counts.every((count) => count === 1),
            `every publish counts 1 subscription (${counts.join(',')})`,
          );
          await listener.waitForCount(messages.length);
          listener.assertReceived(messages);
        }),
    },
    {
      id: id('shared.counts-across-instances'),
      title: 'with one subscription on each of two other instances, publish resolves with 2 and both receive',
      section: SECTION_SHARED,
      level: 'required',
      requires: 'shared-backend',
      since,
      run: (ctx) =>
        withInstances(ctx.create, 3, async ([first, second, publisher]) => {
          const tenant = uniqueTenant('bus');
          const [one, two] = [recorder(ctx, 'instance 1'), recorder(ctx, 'instance 2')];
          await first!.subscribe(tenant, one.listener);
          await second!.subscribe(tenant, two.listener);
          assertEqual(await publisher!.publish(tenant, MESSAGE_OF_EACH_TYPE[2]!), 2, 'publish count');
          await one.waitForCount(1);
          await two.waitForCount(1);
          one.assertReceived([MESSAGE_OF_EACH_TYPE[2]!]);
          two.assertReceived([MESSAGE_OF_EACH_TYPE[2]!]);
        }),
    },
    {
      id: id('shared.closed-instance-not-counted'),
      title:
        'once the instance holding a subscription is closed, publish from another instance resolves with 0',
      section: SECTION_SHARED,
      level: 'required',
      requires: 'shared-backend',
      since,
      run: (ctx) =>
        withInstances(ctx.create, 1, async ([publisher]) => {
          const tenant = uniqueTenant('bus');
          const holder = await ctx.create();
          await holder.subscribe(tenant, () => undefined);
          await holder.close();
          assertEqual(await publisher!.publish(tenant, { type: 'buffered' }), 0, 'publish count');
        }),
    },
  ];
}

/** Options of {@link relayBusSuite}. */
export interface RelayBusSuiteOptions {
  /**
   * Creates a fresh, open bus. Cases call it once or more and close every bus they create. A bus whose
   * listeners throw should not log loudly: the suite makes a listener throw on purpose.
   */
  readonly create: () => RelayBus | Promise<RelayBus>;
  /**
   * `true` when buses from `create` share one backend, as the connector instances of one deployment
   * do (e.g. Redis): a message published on one reaches listeners subscribed on another. Capability
   * `shared-backend`.
   */
  readonly sharedBackend?: boolean;
  /** Longest wait for a message to reach a listener, in milliseconds. Default 2 000. */
  readonly deliveryTimeoutMs?: number;
  /** Releases what the caller set up for the run (a server, a connection); called after the last case. */
  readonly dispose?: () => void | Promise<void>;
}

/** The context every case of {@link relayBusSuite} receives. */
export interface RelayBusContext {
  readonly create: () => Promise<RelayBus>;
  readonly deliveryTimeoutMs: number;
}

const SUITE_NAME = 'relay-runtime.bus';

/**
 * The `RelayBus` rules: `publish` resolving with the number of subscriptions that received the
 * message (`0` for nobody), per-publisher order, subscribe-then-publish delivery, tenant isolation,
 * throwing listeners isolated, idempotent `unsubscribe`, every message type delivered intact, and —
 * with capability `shared-backend` — delivery and counts across bus instances. Counting each
 * subscription (rather than each subscribed instance) is `recommended`: a bus that shares one
 * backend connection per instance cannot see how many listeners an instance holds.
 *
 * @example
 * ```ts
 * import { InMemoryRelayBus } from '@agentwire/relay/testing';
 * const report = await runSuite(relayBusSuite({ create: () => new InMemoryRelayBus({ onListenerError: () => {} }) }));
 * ```
 */
export function relayBusSuite(options: RelayBusSuiteOptions): ConformanceSuite<RelayBusContext> {
  const capabilities = new Set<string>();
  if (options.sharedBackend === true) capabilities.add('shared-backend');
  return {
    name: SUITE_NAME,
    version: RELAY_BUS_SUITE_VERSION,
    description:
      'The RelayBus rules: publish counts, per-publisher order, subscribe-then-publish, tenant isolation, ' +
      'throwing listeners, unsubscribe, message types, and delivery across instances of a shared backend.',
    cases: busCases(SUITE_NAME),
    needs: SHARED_BACKEND_NEEDS,
    setup: () => ({
      ctx: {
        create: async () => options.create(),
        deliveryTimeoutMs: options.deliveryTimeoutMs ?? 2000,
      },
      capabilities,
      ...(options.dispose === undefined ? {} : { dispose: options.dispose }),
    }),
  };
}
