import {
  AGENT_CONNECTOR_CONTRACT_VERSION,
  type AgentConnector,
  type AugmentPayload,
  assertAgentConnector,
  type DeliveryMeta,
  type DeliveryPayload,
  type DeliveryReceipt,
  parseAgentDescriptors,
  parseAgentResponse,
  parseAgentStatus,
  parseDeliveryReceipt,
  parseWakeReceipt,
  type StaticCapabilities,
  staticCapabilitiesOf,
  type TemplatePayload,
  type WakeOpts,
  type WakeReceipt,
} from '@agentwire/agent-connector';
import { assertEqual, assertTrue, fail, formatValue } from '../../assert.js';
import type { ConformanceCase, ConformanceSuite, SuiteSetup } from '../../suite.js';

/** A delivery as the substrate received it: the addressed agent and the payload, decoded. */
export interface ReceivedDelivery {
  readonly agent_id: string;
  readonly payload: unknown;
}

/** A connector wired for a conformance run, with what the suite needs to know about it. */
export interface ConnectorUnderTest {
  readonly connector: AgentConnector;
  /**
   * The agent the cases deliver to and wake. Default: the first agent `list_agents()` returns, else
   * `'conformance-agent'`.
   */
  readonly agentId?: string;
  /**
   * What the substrate has received so far, in any order; enables the pass-through cases (capability
   * `observe-deliveries`). Return every delivery, degraded wakes included: cases find theirs by
   * `meta.dispatch_id`.
   */
  readonly observe?: () => readonly ReceivedDelivery[] | Promise<readonly ReceivedDelivery[]>;
  /**
   * `true` when `wake()` knows sessions and must echo them: the session of an `agent@session` address,
   * or `opts.session_id`, which wins (capability `sessions`).
   */
  readonly sessions?: boolean;
  /**
   * `true` when `deliver()` routes to sessions too, so `deliver('agent@session')` must echo the session
   * on its receipt (capability `delivery-sessions`). Leave it off for agent-level substrates, such as a
   * webhook whose receiver decides about sessions.
   */
  readonly deliverySessions?: boolean;
  /** Releases what `create` set up (servers, temp folders); called once after the last case. */
  readonly dispose?: () => void | Promise<void>;
}

/** What the suite's `create` may return: a bare connector, or one with its wiring described. */
export type ConnectorFactoryResult = AgentConnector | ConnectorUnderTest;

/** The context every case of {@link agentConnectorSuite} receives. */
export interface AgentConnectorContext {
  readonly connector: AgentConnector;
  readonly agentId: string;
  /** The validated static capabilities of the connector's class, when it declares them. */
  readonly staticCapabilities: StaticCapabilities | undefined;
  readonly observe: (() => Promise<readonly ReceivedDelivery[]>) | undefined;
}

/** The agent id used when neither `create` nor `list_agents()` names one. */
export const FALLBACK_AGENT_ID = 'conformance-agent';

/** Resolves what `create` returned into the case context, its capabilities and its dispose. */
export async function prepareConnector(
  result: ConnectorFactoryResult,
): Promise<SuiteSetup<AgentConnectorContext>> {
  const underTest: ConnectorUnderTest = isWrapped(result) ? result : { connector: result };
  const { connector, observe } = underTest;
  assertAgentConnector(connector, 'the connector under test');
  const staticCapabilities = staticCapabilitiesOf(connector);
  const agentId = underTest.agentId ?? (await firstListedAgent(connector)) ?? FALLBACK_AGENT_ID;
  const capabilities = new Set<string>();
  if (staticCapabilities !== undefined) capabilities.add('static-capabilities');
  // A class without static capabilities is taken to offer every core method it has.
  const features = staticCapabilities?.features;
  if (features === undefined || features.deliver === true) capabilities.add('deliver');
  if (features === undefined || features.list_agents === true) capabilities.add('list-agents');
  if (typeof connector.agent_status === 'function') capabilities.add('agent-status');
  if (observe !== undefined && capabilities.has('deliver')) capabilities.add('observe-deliveries');
  if (underTest.sessions === true) capabilities.add('sessions');
  if (underTest.deliverySessions === true && capabilities.has('deliver'))
    capabilities.add('delivery-sessions');
  return {
    ctx: {
      connector,
      agentId,
      staticCapabilities,
      observe: observe && (async () => observe()),
    },
    capabilities,
    ...(underTest.dispose === undefined ? {} : { dispose: underTest.dispose }),
  };
}

function isWrapped(result: ConnectorFactoryResult): result is ConnectorUnderTest {
  return typeof (result as { readonly deliver?: unknown }).deliver !== 'function' && 'connector' in result;
}

async function firstListedAgent(connector: AgentConnector): Promise<string | undefined> {
  try {
    const agents: unknown = await connector.list_agents();
    const first: unknown = Array.isArray(agents) ? agents[0] : undefined;
    const id = (first as { readonly agent_id?: unknown } | undefined)?.agent_id;
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    // The list-agents case reports the fault; the fallback id keeps the other cases running.
    return undefined;
  }
}

let counter = 0;

/** A dispatch id unique within this process, safe as a file name. */
export function conformanceDispatchId(label: string): string {
  counter += 1;
  return `conformance-${label}-${Date.now().toString(36)}-${counter}`;
}

/** Minimal meta, as a cron-fired skill's runtime writes it. */
export function minimalMeta(label: string): DeliveryMeta {
  return {
    dispatch_id: conformanceDispatchId(label),
    sent_at: Date.now(),
    origin: { skill_name: 'conformance-suite', trigger_kind: 'cron' },
  };
}

/**
 * Meta with every optional field, non-ASCII text and keys a later minor may add; a connector must pass
 * all of it through untouched.
 */
export function richMeta(label: string): DeliveryMeta {
  const meta = {
    dispatch_id: conformanceDispatchId(label),
    sent_at: Date.now(),
    origin: {
      skill_name: 'daily-digest',
      entry_skill_name: 'morning-routine',
      trigger_kind: 'agent',
      caller_agent_id: 'ops@example.org',
      x_future_origin_field: 'kept',
    },
    event_type: 'digest.ready — 日報',
    correlation_id: 'corr-🙂-1',
    x_adopter_routing: { lane: 'priority', tags: ['a', 'b'], weight: 0.5, urgent: false },
  };
  return meta as DeliveryMeta;
}

/** An augment payload with `meta`. */
export function augmentPayload(meta: DeliveryMeta): AugmentPayload {
  return { kind: 'augment', content: 'Build #42 failed on main — see logs 🔧', meta };
}

/** A template payload with `meta`. */
export function templatePayload(meta: DeliveryMeta): TemplatePayload {
  return { kind: 'template', prompt: 'Summarise the open incidents:\n1. {{incident}}\n— ends —', meta };
}

/**
 * Calls a connector method and fails the case when it throws: names `what` was called and keeps the error
 * as the cause.
 */
export async function mustResolve<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const name = error instanceof Error ? `${error.name}: ${error.message}` : formatValue(error);
    return fail(`${what} threw ${name}`, error);
  }
}

/** Fails unless `value` is a finite, non-negative number of milliseconds. */
export function assertMsTime(value: unknown, field: string): void {
  assertTrue(
    typeof value === 'number' && Number.isFinite(value) && value >= 0,
    `${field} must be a finite unix-ms number, got ${formatValue(value)}`,
  );
}

/** Fails when an own property of `value` is `null` or `undefined`: optional fields are absent instead. */
export function assertNoEmptyFields(value: unknown, what: string): void {
  if (value === null || typeof value !== 'object') return;
  for (const [key, field] of Object.entries(value)) {
    if (field === null || field === undefined) {
      fail(`${what}.${key} is ${formatValue(field)}; an optional field must be absent instead`);
    }
  }
}

/** Validates a delivery receipt as `parseDeliveryReceipt` does, and more strictly (no empty fields). */
export function assertDeliveryReceipt(value: unknown): DeliveryReceipt {
  assertNoEmptyFields(value, 'DeliveryReceipt');
  assertMsTime((value as { readonly delivered_at?: unknown } | null)?.delivered_at, 'delivered_at');
  try {
    return parseDeliveryReceipt(value);
  } catch (error) {
    return fail(`parseDeliveryReceipt refused ${formatValue(value)}`, error);
  }
}

/** Validates a wake receipt as `parseWakeReceipt` does, and more strictly (`woken` a boolean, no empty fields). */
export function assertWakeReceipt(value: unknown): WakeReceipt {
  const woken = (value as { readonly woken?: unknown } | null)?.woken;
  assertTrue(typeof woken === 'boolean', `woken must be a boolean, got ${formatValue(woken)}`);
  assertNoEmptyFields(value, 'WakeReceipt');
  assertMsTime((value as { readonly woken_at?: unknown }).woken_at, 'woken_at');
  try {
    return parseWakeReceipt(value);
  } catch (error) {
    return fail(`parseWakeReceipt refused ${formatValue(value)}`, error);
  }
}

/** Version of the agent-connector suite; it follows the AgentConnector contract version (v1.0). */
export const AGENT_CONNECTOR_SUITE_VERSION = '1.0.0';

type Case = ConformanceCase<AgentConnectorContext>;

const since = AGENT_CONNECTOR_SUITE_VERSION;
/** The session of the `agent@session` address the session case delivers to. */
const DELIVERY_SESSION = 'conformance-delivery-session';

async function deliverAndCheck(ctx: AgentConnectorContext, payload: DeliveryPayload): Promise<void> {
  const receipt = await mustResolve(`deliver('${ctx.agentId}', ${payload.kind})`, () =>
    ctx.connector.deliver(ctx.agentId, payload),
  );
  assertDeliveryReceipt(receipt);
}

async function assertPassedThrough(ctx: AgentConnectorContext, sent: DeliveryPayload): Promise<void> {
  await mustResolve(`deliver('${ctx.agentId}', ${sent.kind})`, () =>
    ctx.connector.deliver(ctx.agentId, sent),
  );
  const received = (await ctx.observe?.()) ?? [];
  const match = received.find(
    (delivery) =>
      (delivery.payload as { readonly meta?: { readonly dispatch_id?: unknown } } | null)?.meta
        ?.dispatch_id === sent.meta.dispatch_id,
  );
  assertTrue(
    match !== undefined,
    `the substrate received no delivery with dispatch_id ${formatValue(sent.meta.dispatch_id)}`,
  );
  assertEqual(match.agent_id, ctx.agentId, 'agent_id the substrate received');
  assertEqual(match.payload, sent, 'payload the substrate received');
}

/** `deliver()` of both payload kinds, receipts and pass-through. */
export function deliveryCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.deliver.${rest}`;
  return [
    {
      id: id('augment-receipt'),
      title: 'deliver(augment) resolves to a valid receipt',
      section: 'AgentConnector v1.0 §deliver, DeliveryReceipt',
      level: 'required',
      requires: 'deliver',
      since,
      run: (ctx) => deliverAndCheck(ctx, augmentPayload(minimalMeta('augment'))),
    },
    {
      id: id('template-receipt'),
      title: 'deliver(template) resolves to a valid receipt',
      section: 'AgentConnector v1.0 §deliver, DeliveryReceipt',
      level: 'required',
      requires: 'deliver',
      since,
      run: (ctx) => deliverAndCheck(ctx, templatePayload(minimalMeta('template'))),
    },
    {
      id: id('rich-meta-receipt'),
      title: 'deliver() accepts meta with every optional field and unknown keys',
      section: 'AgentConnector v1.0 §DeliveryMeta',
      level: 'required',
      requires: 'deliver',
      since,
      run: (ctx) => deliverAndCheck(ctx, augmentPayload(richMeta('rich'))),
    },
    {
      id: id('meta-passthrough'),
      title: 'the substrate receives the augment payload and its meta untouched',
      section: 'AgentConnector v1.0 §DeliveryMeta',
      level: 'required',
      requires: 'observe-deliveries',
      since,
      run: (ctx) => assertPassedThrough(ctx, augmentPayload(richMeta('passthrough'))),
    },
    {
      id: id('template-passthrough'),
      title: 'the substrate receives the template payload and its meta untouched',
      section: 'AgentConnector v1.0 §DeliveryMeta',
      level: 'required',
      requires: 'observe-deliveries',
      since,
      run: (ctx) => assertPassedThrough(ctx, templatePayload(richMeta('passthrough-template'))),
    },
    {
      id: id('session-echo-address'),
      title: 'deliver(agent@session) echoes the session on the receipt',
      section: 'AgentConnector v1.0 §DeliveryReceipt, §agent@session targeting',
      level: 'required',
      requires: 'delivery-sessions',
      since,
      run: async (ctx) => {
        const address = `${ctx.agentId}@${DELIVERY_SESSION}`;
        const receipt = await mustResolve(`deliver('${address}', augment)`, () =>
          ctx.connector.deliver(address, augmentPayload(minimalMeta('session'))),
        );
        assertDeliveryReceipt(receipt);
        assertEqual(receipt.session_id, DELIVERY_SESSION, 'session_id');
      },
    },
  ];
}

/** Static capabilities, `list_agents`, `health_check`, `agent_status` and `request_response`. */
export function methodCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.${rest}`;
  return [
    {
      id: id('static-capabilities.contract-version'),
      title: 'staticCapabilities() declares contract major version 1',
      section: 'AgentConnector v1.0 §staticCapabilities',
      level: 'required',
      requires: 'static-capabilities',
      since,
      run: (ctx) => {
        const declared = ctx.staticCapabilities?.contract_version.split('.')[0];
        assertEqual(declared, AGENT_CONNECTOR_CONTRACT_VERSION.split('.')[0], 'contract major version');
      },
    },
    {
      id: id('list-agents.descriptors'),
      title: 'list_agents() resolves to valid agent descriptors',
      section: 'AgentConnector v1.0 §list_agents',
      level: 'required',
      requires: 'list-agents',
      since,
      run: async (ctx) => {
        const listed: unknown = await mustResolve('list_agents()', () => ctx.connector.list_agents());
        try {
          parseAgentDescriptors(listed);
        } catch (error) {
          fail(`parseAgentDescriptors refused ${formatValue(listed)}`, error);
        }
        for (const [index, descriptor] of (listed as readonly unknown[]).entries()) {
          assertNoEmptyFields(descriptor, `AgentDescriptor[${index}]`);
        }
      },
    },
    {
      id: id('list-agents.unique-ids'),
      title: 'list_agents() lists each non-empty agent id once',
      section: 'AgentConnector v1.0 §list_agents',
      level: 'recommended',
      requires: 'list-agents',
      since,
      run: async (ctx) => {
        const ids = (await mustResolve('list_agents()', () => ctx.connector.list_agents())).map(
          (descriptor) => descriptor.agent_id,
        );
        assertTrue(!ids.includes(''), 'an agent id is empty');
        assertEqual(ids.length, new Set(ids).size, `agent ids are unique (${formatValue(ids)})`);
      },
    },
    {
      id: id('health-check.boolean'),
      title: 'health_check() resolves to a boolean',
      section: 'AgentConnector v1.0 §health_check',
      level: 'required',
      since,
      run: async (ctx) => {
        const healthy: unknown = await mustResolve('health_check()', () => ctx.connector.health_check());
        assertTrue(typeof healthy === 'boolean', `health_check() resolved to ${formatValue(healthy)}`);
      },
    },
    {
      id: id('agent-status.valid'),
      title: 'agent_status() resolves to one of the four statuses',
      section: 'AgentConnector v1.0 §agent_status',
      level: 'required',
      requires: 'agent-status',
      since,
      run: async (ctx) => {
        const status: unknown = await mustResolve('agent_status()', async () =>
          ctx.connector.agent_status?.(ctx.agentId),
        );
        try {
          parseAgentStatus(status);
        } catch (error) {
          fail(`agent_status() resolved to ${formatValue(status)}`, error);
        }
      },
    },
    {
      id: id('request-response.works-or-not-implemented'),
      title: 'request_response() answers or rejects with NotImplementedError, as the class declares',
      section: 'AgentConnector v1.0 §request_response',
      level: 'required',
      since,
      run: async (ctx) => {
        const declared = ctx.staticCapabilities?.features.request_response === true;
        const payload = augmentPayload({ ...minimalMeta('request'), correlation_id: 'conformance-corr' });
        let response: unknown;
        try {
          response = await ctx.connector.request_response(ctx.agentId, payload, { timeout_ms: 5000 });
        } catch (error) {
          const name = (error as { readonly name?: unknown } | null)?.name;
          if (name !== 'NotImplementedError') {
            fail(`request_response() rejected with ${formatValue(name)}, not NotImplementedError`, error);
          }
          assertTrue(!declared, 'request_response() is declared as a feature but is not implemented');
          return;
        }
        try {
          parseAgentResponse(response);
        } catch (error) {
          fail(`request_response() resolved to ${formatValue(response)}`, error);
        }
      },
    },
  ];
}

const SESSION = 'conformance-session';

async function wakeAndCheck(ctx: AgentConnectorContext, agentId: string, opts?: WakeOpts) {
  const receipt = await mustResolve(`wake('${agentId}'${opts === undefined ? '' : ', opts'})`, () =>
    opts === undefined ? ctx.connector.wake(agentId) : ctx.connector.wake(agentId, opts),
  );
  return assertWakeReceipt(receipt);
}

/**
 * `wake()`: never throws for a capability gap (a substrate that cannot interrupt degrades to `woken:
 * false`), accepts `agent@session`, and echoes the session when the connector declares sessions.
 */
export function wakeCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.wake.${rest}`;
  return [
    {
      id: id('with-context'),
      title: 'wake() with context resolves to a receipt with a boolean woken',
      section: 'AgentConnector v1.0 §wake',
      level: 'required',
      since,
      run: async (ctx) => {
        await wakeAndCheck(ctx, ctx.agentId, { context: 'Conformance check: please look at the queue.' });
      },
    },
    {
      id: id('without-context'),
      title: 'wake() without options resolves to a receipt with a boolean woken',
      section: 'AgentConnector v1.0 §wake',
      level: 'required',
      since,
      run: async (ctx) => {
        await wakeAndCheck(ctx, ctx.agentId);
      },
    },
    {
      id: id('session-address'),
      title: 'wake() accepts an agent@session address',
      section: 'AgentConnector v1.0 §addressing',
      level: 'required',
      since,
      run: async (ctx) => {
        await wakeAndCheck(ctx, `${ctx.agentId}@${SESSION}`, { context: 'Conformance check (session).' });
      },
    },
    {
      id: id('session-echo-address'),
      title: 'wake(agent@session) echoes the session on the receipt',
      section: 'AgentConnector v1.0 §WakeReceipt',
      level: 'required',
      requires: 'sessions',
      since,
      run: async (ctx) => {
        const receipt = await wakeAndCheck(ctx, `${ctx.agentId}@${SESSION}`, { context: 'Session echo.' });
        assertEqual(receipt.session_id, SESSION, 'session_id');
      },
    },
    {
      id: id('session-echo-opts'),
      title: 'wake() echoes opts.session_id, which wins over the address',
      section: 'AgentConnector v1.0 §WakeOpts',
      level: 'required',
      requires: 'sessions',
      since,
      run: async (ctx) => {
        const plain = await wakeAndCheck(ctx, ctx.agentId, { session_id: 'opts-session' });
        assertEqual(plain.session_id, 'opts-session', 'session_id of wake(agent, { session_id })');
        const both = await wakeAndCheck(ctx, `${ctx.agentId}@${SESSION}`, { session_id: 'opts-session' });
        assertEqual(both.session_id, 'opts-session', 'session_id of wake(agent@session, { session_id })');
      },
    },
  ];
}

/** Options of {@link agentConnectorSuite}. */
export interface AgentConnectorSuiteOptions {
  /** Builds the connector under test; called once per run, in the suite's `setup`. */
  readonly create: () => ConnectorFactoryResult | Promise<ConnectorFactoryResult>;
}

const SUITE_NAME = 'agent-connector.contract';

/**
 * The AgentConnector v1.0 contract, checked more strictly than the reference suite: receipts that
 * `parseDeliveryReceipt` / `parseWakeReceipt` accept with no `null` or `undefined` field, `woken` a boolean,
 * `wake()` never throwing for a capability gap, `health_check()` a boolean, `request_response()` working
 * or rejecting with `NotImplementedError`. Capabilities: `deliver` and `list-agents` (from the class's
 * `staticCapabilities()` features; all on without them), `static-capabilities`, `agent-status` (the
 * method exists), `observe-deliveries` (the factory's `observe`), `sessions` and `delivery-sessions`.
 *
 * @example
 * ```ts
 * const report = await runSuite(
 *   agentConnectorSuite({ create: () => ({ connector: new MyConnector(), agentId: 'perry', sessions: true }) }),
 * );
 * ```
 */
export function agentConnectorSuite(
  options: AgentConnectorSuiteOptions,
): ConformanceSuite<AgentConnectorContext> {
  return {
    name: SUITE_NAME,
    version: AGENT_CONNECTOR_SUITE_VERSION,
    description:
      'The AgentConnector v1.0 contract: list_agents descriptors, deliver receipts for both payload kinds, ' +
      'meta pass-through, wake receipts and degradation, agent@session addresses and session echo, ' +
      'health_check, agent_status and request_response.',
    cases: [...methodCases(SUITE_NAME), ...deliveryCases(SUITE_NAME), ...wakeCases(SUITE_NAME)],
    setup: async () => prepareConnector(await options.create()),
  };
}
