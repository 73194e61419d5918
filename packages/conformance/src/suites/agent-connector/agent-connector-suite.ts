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
import { assertEqual, assertRejects, assertTrue, fail, formatValue } from '../../assert.js';
import { settleWithin } from '../../run-suite.js';
import type { CapabilityNeed, ConformanceCase, ConformanceSuite, SuiteSetup } from '../../suite.js';

/** A delivery as the substrate received it: the addressed agent and the payload, decoded. */
export interface ReceivedDelivery {
  readonly agent_id: string;
  readonly payload: unknown;
}

/** A wake (an interrupt of the agent) as the substrate received it. */
export interface ReceivedWake {
  /** The agent interrupted, without any `@session` suffix. */
  readonly agent_id: string;
  /** The session interrupted, when the substrate targets sessions. */
  readonly session_id?: string;
  /** The context the wake carried, as the substrate received it. */
  readonly context?: string;
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
   * `true` when the session is only echoed on receipts and never reaches the substrate, which has one
   * target per agent (a tmux pane): the case that observes which session a wake interrupted is then
   * skipped. Without it, `sessions: true` with `observeWakes` requires each observed wake to carry its
   * session (capability `wake-sessions`).
   */
  readonly sessionsEchoedOnly?: boolean;
  /**
   * `true` when `deliver()` routes to sessions too, so `deliver('agent@session')` must echo the session
   * on its receipt (capability `delivery-sessions`). Leave it off for agent-level substrates, such as a
   * webhook whose receiver decides about sessions.
   */
  readonly deliverySessions?: boolean;
  /**
   * The interrupts the substrate received so far, in any order (capability `observe-wakes`): a wake
   * that reports `woken: true` must show up here, for the agent and session it was sent to. A substrate
   * that cannot interrupt returns `[]`. Degraded wakes (`woken: false`) are deliveries, not wakes.
   */
  readonly observeWakes?: () => readonly ReceivedWake[] | Promise<readonly ReceivedWake[]>;
  /**
   * Takes the substrate down (`false`: unreachable, as when its endpoint or folder is gone) and back up
   * (`true`); capability `substrate-outage`. The cases check that `health_check()` then says `false` and
   * that `deliver()` and `wake()` reject instead of reporting success; each brings it back up.
   */
  readonly setSubstrateAvailable?: (available: boolean) => void | Promise<void>;
  /**
   * Stalls the substrate (`true`: it takes requests and never answers, as a hung receiver does) and
   * lets it go again (`false`); capability `substrate-stall`. The cases check that `deliver()` then
   * rejects with `DeliveryFailedError` of `cause_kind` `'timeout'` and `health_check()` resolves `false`,
   * each within {@link ConnectorUnderTest.stallTimeoutMs}.
   */
  readonly setSubstrateStalled?: (stalled: boolean) => void | Promise<void>;
  /**
   * The longest the connector waits for a stalled substrate in one call, its retries included, in
   * milliseconds (its configured timeout); the stall cases allow two seconds more. Default 10 000.
   */
  readonly stallTimeoutMs?: number;
  /**
   * `true` when the substrate has no registry of agents and accepts any agent id (a no-op, a broadcast
   * channel): the unknown-agent cases are then skipped. Leave it unset when the connector knows its
   * agents: it must refuse others with `DeliveryFailedError` (capability `agent-registry`).
   */
  readonly acceptsAnyAgent?: boolean;
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
  readonly observeWakes: (() => Promise<readonly ReceivedWake[]>) | undefined;
  readonly setSubstrateAvailable: ((available: boolean) => Promise<void>) | undefined;
  readonly setSubstrateStalled: ((stalled: boolean) => Promise<void>) | undefined;
  readonly stallTimeoutMs: number;
}

/** How long a connector may wait for a stalled substrate when `create` does not say. */
const DEFAULT_STALL_TIMEOUT_MS = 10_000;
/** What the stall cases allow beyond the connector's own timeout. */
const STALL_SLACK_MS = 2000;

/** The agent id used when neither `create` nor `list_agents()` names one. */
export const FALLBACK_AGENT_ID = 'conformance-agent';

/** Resolves what `create` returned into the case context, its capabilities and its dispose. */
export async function prepareConnector(
  result: ConnectorFactoryResult,
): Promise<SuiteSetup<AgentConnectorContext>> {
  const underTest: ConnectorUnderTest = isWrapped(result) ? result : { connector: result };
  const { connector, observe, observeWakes, setSubstrateAvailable, setSubstrateStalled } = underTest;
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
  if (underTest.sessions === true && underTest.sessionsEchoedOnly !== true) capabilities.add('wake-sessions');
  if (underTest.deliverySessions === true && capabilities.has('deliver'))
    capabilities.add('delivery-sessions');
  if (observeWakes !== undefined) capabilities.add('observe-wakes');
  if (setSubstrateAvailable !== undefined) capabilities.add('substrate-outage');
  if (setSubstrateStalled !== undefined) capabilities.add('substrate-stall');
  if (underTest.acceptsAnyAgent !== true) capabilities.add('agent-registry');
  return {
    ctx: {
      connector,
      agentId,
      staticCapabilities,
      observe: observe && (async () => observe()),
      observeWakes: observeWakes && (async () => observeWakes()),
      setSubstrateAvailable: setSubstrateAvailable && (async (available) => setSubstrateAvailable(available)),
      setSubstrateStalled: setSubstrateStalled && (async (stalled) => setSubstrateStalled(stalled)),
      stallTimeoutMs: underTest.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
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

/**
 * Version of the agent-connector suite; it follows the AgentConnector contract version (v1.0). 1.2.0
 * also gave `agent-connector.webhook-wire` the health check of an agent without a status URL and the
 * degraded wake's receipt (`health-no-status-url`, `degraded-wake-*`).
 */
export const AGENT_CONNECTOR_SUITE_VERSION = '1.2.0';

/** The suite version that added timestamps near now, exactly-once and wake observation, health and failure paths. */
const SINCE_1_1 = '1.1.0';
/**
 * The `cause_kind`s of a delivery to a substrate that is down: the contract's five kinds but `timeout`
 * (a stall), whichever way the substrate is out of reach (refused, answering an error, not set up).
 */
const DOWN_CAUSE_KINDS: readonly string[] = [
  'network',
  'http_status',
  'malformed_response',
  'client_validation',
];
/** The suite version that added the check of declared features and of the caller-fault refusals. */
const SINCE_1_2 = '1.2.0';
/** How long each call of `static-capabilities.features-honest` may take before it counts as not working. */
const FEATURE_CALL_MS = 2000;
/** Agent ids of the wrong type, which every method taking an agent id must refuse. */
const NOT_STRINGS: readonly unknown[] = [42, null, undefined];
/** What a refusal of the caller's mistake (an agent the connector does not know) carries. */
const CALLER_FAULT = { cause_kind: 'client_validation', retryable: false } as const;

type Case = ConformanceCase<AgentConnectorContext>;

const since = '1.0.0';
/** The session of the `agent@session` address the session case delivers to. */
const DELIVERY_SESSION = 'conformance-delivery-session';

/** How far a substrate's clock may be from this process's and its timestamps still count as "now". */
const CLOCK_SKEW_MS = 5 * 60_000;

/** Fails unless `value` is a unix-ms time between `before` and `after`, give or take the clock skew. */
function assertNear(value: number, before: number, after: number, field: string): void {
  assertTrue(
    value >= before - CLOCK_SKEW_MS && value <= after + CLOCK_SKEW_MS,
    `${field} must be the unix-ms time of the call (between ${before} and ${after}, ± ${CLOCK_SKEW_MS / 60_000} min), got ${formatValue(value)}` +
      (value > 0 && value < before / 100 ? ' — seconds instead of milliseconds?' : ''),
  );
}

/** The deliveries the substrate received with `dispatchId`. */
async function receivedWith(ctx: AgentConnectorContext, dispatchId: string): Promise<ReceivedDelivery[]> {
  const received = (await ctx.observe?.()) ?? [];
  return received.filter(
    (delivery) =>
      (delivery.payload as { readonly meta?: { readonly dispatch_id?: unknown } } | null)?.meta
        ?.dispatch_id === dispatchId,
  );
}

/**
 * Fails unless the substrate received `sent` exactly once, for the case's agent; resolves with what it
 * received. Checked after every delivery when the connector can be observed.
 */
async function assertReceivedOnce(
  ctx: AgentConnectorContext,
  sent: DeliveryPayload,
): Promise<ReceivedDelivery> {
  const matches = await receivedWith(ctx, sent.meta.dispatch_id);
  assertTrue(
    matches.length > 0,
    `the substrate received no delivery with dispatch_id ${formatValue(sent.meta.dispatch_id)}`,
  );
  assertEqual(
    matches.length,
    1,
    `deliveries the substrate received with dispatch_id ${sent.meta.dispatch_id}`,
  );
  const [match] = matches as [ReceivedDelivery];
  assertEqual(match.agent_id, ctx.agentId, 'agent_id the substrate received');
  return match;
}

async function deliverAndCheck(ctx: AgentConnectorContext, payload: DeliveryPayload): Promise<void> {
  const before = Date.now();
  const receipt = await mustResolve(`deliver('${ctx.agentId}', ${payload.kind})`, () =>
    ctx.connector.deliver(ctx.agentId, payload),
  );
  const after = Date.now();
  const checked = assertDeliveryReceipt(receipt);
  assertNear(checked.delivered_at, before, after, 'delivered_at');
  if (ctx.observe !== undefined && checked.delivery_skipped !== true) await assertReceivedOnce(ctx, payload);
}

async function assertPassedThrough(ctx: AgentConnectorContext, sent: DeliveryPayload): Promise<void> {
  await mustResolve(`deliver('${ctx.agentId}', ${sent.kind})`, () =>
    ctx.connector.deliver(ctx.agentId, sent),
  );
  const match = await assertReceivedOnce(ctx, sent);
  assertEqual(match.payload, sent, 'payload the substrate received');
}

/** An agent id no connector under test knows. */
function unknownAgentId(): string {
  return `conformance-unknown-${conformanceDispatchId('agent')}`;
}

/**
 * Fails unless `call` rejects with the contract's `DeliveryFailedError` for `agentId` (by name, `code`
 * and `agent_id`, so a connector of any package passes) that carries `fields`; resolves with the error.
 */
async function assertDeliveryFailed(
  what: string,
  agentId: string,
  call: () => Promise<unknown>,
  fields: Readonly<Record<string, unknown>> = {},
): Promise<unknown> {
  let resolved: unknown;
  try {
    resolved = await call();
  } catch (error) {
    const thrown = (error ?? {}) as Readonly<Record<string, unknown>>;
    const { name, code, agent_id } = thrown;
    if (name !== 'DeliveryFailedError') {
      fail(`${what} rejected with ${formatValue(name)}, not DeliveryFailedError`, error);
    }
    assertEqual(code, 'delivery_failed', `code of the DeliveryFailedError of ${what}`);
    assertEqual(agent_id, agentId, `agent_id of the DeliveryFailedError of ${what}`);
    for (const [field, value] of Object.entries(fields)) {
      assertEqual(thrown[field], value, `${field} of the DeliveryFailedError of ${what}`);
    }
    return error;
  }
  return fail(`${what} resolved to ${formatValue(resolved)}; it must reject with DeliveryFailedError`);
}

/** Runs `check` with the substrate down, and brings it back up whatever happens. */
async function whileSubstrateDown(ctx: AgentConnectorContext, check: () => Promise<void>): Promise<void> {
  const setAvailable = ctx.setSubstrateAvailable;
  if (setAvailable === undefined) return fail('the connector was given no setSubstrateAvailable');
  await setAvailable(false);
  try {
    await check();
  } finally {
    await setAvailable(true);
  }
}

/**
 * Runs `check` with the substrate stalled, and lets it go whatever happens (so that a call still
 * waiting on it settles).
 */
async function whileSubstrateStalled(ctx: AgentConnectorContext, check: () => Promise<void>): Promise<void> {
  const setStalled = ctx.setSubstrateStalled;
  if (setStalled === undefined) return fail('the connector was given no setSubstrateStalled');
  await setStalled(true);
  try {
    await check();
  } finally {
    await setStalled(false);
  }
}

/**
 * What `call` settled with, or a failure when it has not settled within the connector's stall timeout
 * and the slack: a call that waits forever on a hung substrate is the mistake the stall cases catch.
 */
async function settleWithinStall<T>(
  ctx: AgentConnectorContext,
  what: string,
  call: () => Promise<T>,
): Promise<{ readonly value: T } | { readonly error: unknown }> {
  const limitMs = ctx.stallTimeoutMs + STALL_SLACK_MS;
  const outcome = await settleWithin(call, limitMs);
  if (outcome === 'late') {
    return fail(
      `${what} had not settled after ${limitMs} ms (stallTimeoutMs ${ctx.stallTimeoutMs} + ${STALL_SLACK_MS})`,
    );
  }
  return outcome;
}

/**
 * The caller's mistakes with `method`: an agent id that is not a string (a number, `null`, nothing) is
 * refused, and an unknown agent is refused as the caller's fault (`cause_kind: 'client_validation'`,
 * not retryable: a retry cannot fix it).
 */
function callerMistakeCases(
  id: (rest: string) => string,
  method: 'deliver' | 'wake',
  requires: readonly string[],
  call: (ctx: AgentConnectorContext, agentId: unknown) => Promise<unknown>,
): Case[] {
  return [
    {
      id: id('agent-id-not-a-string'),
      title: `${method}() with an agent id that is not a string (a number, null, nothing) rejects`,
      section: `AgentConnector v1.0 §${method} (agent_id: an opaque string)`,
      level: 'required',
      ...(requires.length === 0 ? {} : { requires }),
      since: SINCE_1_2,
      run: async (ctx) => {
        for (const agentId of NOT_STRINGS) {
          await assertRejects(() => call(ctx, agentId), `${method}(${formatValue(agentId)})`);
        }
      },
    },
    {
      id: id('unknown-agent.caller-fault'),
      title: `${method}() of an unknown agent is the caller's fault: cause_kind 'client_validation', not retryable`,
      section:
        'AgentConnector v1.0 §Graceful degradation (caller misconfiguration); DeliveryFailedError.cause_kind',
      level: 'required',
      requires: ['agent-registry', ...requires],
      since: SINCE_1_2,
      run: async (ctx) => {
        const unknown = unknownAgentId();
        await assertDeliveryFailed(
          `${method}('${unknown}')`,
          unknown,
          () => call(ctx, unknown),
          CALLER_FAULT,
        );
      },
    },
  ];
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
    {
      id: id('exactly-once'),
      title: 'each of several deliveries reaches the substrate exactly once, for the addressed agent',
      section: 'AgentConnector v1.0 §deliver',
      level: 'required',
      requires: 'observe-deliveries',
      since: SINCE_1_1,
      run: async (ctx) => {
        const sent = [1, 2, 3].map((n) =>
          n % 2 === 0 ? templatePayload(minimalMeta(`once-${n}`)) : augmentPayload(minimalMeta(`once-${n}`)),
        );
        for (const payload of sent) {
          await mustResolve(`deliver('${ctx.agentId}', ${payload.kind})`, () =>
            ctx.connector.deliver(ctx.agentId, payload),
          );
        }
        for (const payload of sent) await assertReceivedOnce(ctx, payload);
      },
    },
    {
      id: id('unknown-agent'),
      title: 'deliver() to an agent the connector does not know rejects with DeliveryFailedError',
      section: 'AgentConnector v1.0 §Graceful degradation (caller misconfiguration)',
      level: 'required',
      requires: ['agent-registry', 'deliver'],
      since: SINCE_1_1,
      run: async (ctx) => {
        const unknown = unknownAgentId();
        await assertDeliveryFailed(`deliver('${unknown}', augment)`, unknown, () =>
          ctx.connector.deliver(unknown, augmentPayload(minimalMeta('unknown'))),
        );
        if (ctx.observe !== undefined) {
          const received = await ctx.observe();
          assertTrue(
            !received.some((delivery) => delivery.agent_id === unknown),
            'the substrate received a delivery for an agent the connector refused',
          );
        }
      },
    },
    {
      id: id('substrate-down'),
      title: 'deliver() while the substrate is down rejects with DeliveryFailedError, and works again after',
      section: 'AgentConnector v1.0 §Graceful degradation (substrate fault)',
      level: 'required',
      requires: ['substrate-outage', 'deliver'],
      since: SINCE_1_1,
      run: async (ctx) => {
        const what = `deliver('${ctx.agentId}', augment) with the substrate down`;
        await whileSubstrateDown(ctx, async () => {
          const error = await assertDeliveryFailed(what, ctx.agentId, () =>
            ctx.connector.deliver(ctx.agentId, augmentPayload(minimalMeta('down'))),
          );
          // Which kind depends on how the substrate is out of reach; a stall it is not.
          const { cause_kind } = error as { readonly cause_kind?: unknown };
          assertTrue(
            DOWN_CAUSE_KINDS.includes(cause_kind as string),
            `cause_kind of the DeliveryFailedError of ${what} must be one of ${formatValue(DOWN_CAUSE_KINDS)}, got ${formatValue(cause_kind)}`,
          );
        });
        await deliverAndCheck(ctx, augmentPayload(minimalMeta('back-up')));
      },
    },
    {
      id: id('substrate-stalled'),
      title:
        "deliver() to a substrate that never answers rejects in time with DeliveryFailedError, cause_kind 'timeout'",
      section: 'AgentConnector v1.0 §Graceful degradation (substrate fault); DeliveryFailedError.cause_kind',
      level: 'required',
      requires: ['substrate-stall', 'deliver'],
      since: SINCE_1_1,
      run: async (ctx) => {
        const what = `deliver('${ctx.agentId}', augment) with the substrate stalled`;
        await whileSubstrateStalled(ctx, async () => {
          const outcome = await settleWithinStall(ctx, what, () =>
            ctx.connector.deliver(ctx.agentId, augmentPayload(minimalMeta('stalled'))),
          );
          if ('value' in outcome) fail(`${what} resolved to ${formatValue(outcome.value)}; it must reject`);
          const { name, code, agent_id, cause_kind } = (outcome.error ?? {}) as Record<string, unknown>;
          assertEqual(
            { name, code, agent_id, cause_kind },
            {
              name: 'DeliveryFailedError',
              code: 'delivery_failed',
              agent_id: ctx.agentId,
              cause_kind: 'timeout',
            },
            `the rejection of ${what}`,
          );
        });
        await deliverAndCheck(ctx, augmentPayload(minimalMeta('unstalled')));
      },
    },
    ...callerMistakeCases(id, 'deliver', ['deliver'], (ctx, agentId) =>
      ctx.connector.deliver(agentId as string, augmentPayload(minimalMeta('caller-mistake'))),
    ),
  ];
}

/**
 * For each feature a connector may declare off, a call that resolves `true` when the method works
 * after all: a delivery not skipped, a wake with `woken: true`, a non-empty agent list, a status other
 * than `'unknown'`. Rejections count as not working. (`health_check` is left out: a connector without
 * one may answer a constant.)
 */
function featureChecks(ctx: AgentConnectorContext): [string, () => Promise<boolean>][] {
  const { connector, agentId } = ctx;
  const checks: [string, () => Promise<boolean>][] = [
    [
      'deliver',
      async () =>
        (await connector.deliver(agentId, augmentPayload(minimalMeta('features')))).delivery_skipped !== true,
    ],
    ['wake', async () => (await connector.wake(agentId, { context: 'Conformance check: features.' })).woken],
    ['list_agents', async () => (await connector.list_agents()).length > 0],
  ];
  const status = connector.agent_status;
  if (typeof status === 'function') {
    checks.push(['agent_status', async () => (await status.call(connector, agentId)) !== 'unknown']);
  }
  return checks;
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
      id: id('static-capabilities.features-honest'),
      title: 'a feature staticCapabilities() declares false or leaves out is one whose method does not work',
      section: 'AgentConnector v1.0 §staticCapabilities (features: which methods really work)',
      level: 'required',
      requires: 'static-capabilities',
      since: SINCE_1_2,
      run: async (ctx) => {
        const features: Readonly<Record<string, boolean | undefined>> =
          ctx.staticCapabilities?.features ?? {};
        const undeclared = featureChecks(ctx).filter(([feature]) => features[feature] !== true);
        // A method declared off that hangs is not working either: each call has FEATURE_CALL_MS.
        const outcomes = await Promise.all(
          undeclared.map(([, works]) => settleWithin(works, FEATURE_CALL_MS)),
        );
        for (const [index, [feature]] of undeclared.entries()) {
          const outcome = outcomes[index];
          if (outcome !== undefined && outcome !== 'late' && 'value' in outcome && outcome.value) {
            fail(
              `staticCapabilities() declares ${feature} ${feature in features ? 'false' : 'by leaving it out'} as not working, but ${feature}() works: declare it true (a feature declared off is taken as not offered)`,
            );
          }
        }
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
      id: id('list-agents.includes-agent'),
      title: 'list_agents() of a connector that knows its agents lists the agent the cases deliver to',
      section: 'AgentConnector v1.0 §list_agents',
      level: 'required',
      requires: ['list-agents', 'agent-registry'],
      since: SINCE_1_2,
      run: async (ctx) => {
        const ids = (await mustResolve('list_agents()', () => ctx.connector.list_agents())).map(
          (descriptor) => descriptor.agent_id,
        );
        assertTrue(
          ids.includes(ctx.agentId) || ids.includes(ctx.agentId.split('@')[0] as string),
          `list_agents() lists ${formatValue(ids)}, not the agent ${formatValue(ctx.agentId)} the connector delivers to`,
        );
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
      id: id('health-check.true-when-available'),
      title: 'health_check() is true for a reachable, configured substrate',
      section: 'AgentConnector v1.0 §Implementation checklist (health_check)',
      level: 'required',
      since: SINCE_1_1,
      run: async (ctx) => {
        const healthy: unknown = await mustResolve('health_check()', () => ctx.connector.health_check());
        assertEqual(healthy, true, 'health_check() of the substrate create built');
      },
    },
    {
      id: id('health-check.false-when-down'),
      title: 'health_check() resolves false (never throws) while the substrate is down, and true again after',
      section: 'AgentConnector v1.0 §Implementation checklist (health_check)',
      level: 'required',
      requires: 'substrate-outage',
      since: SINCE_1_1,
      run: async (ctx) => {
        await whileSubstrateDown(ctx, async () => {
          const healthy: unknown = await mustResolve('health_check() with the substrate down', () =>
            ctx.connector.health_check(),
          );
          assertEqual(healthy, false, 'health_check() with the substrate down');
        });
        const again: unknown = await mustResolve('health_check()', () => ctx.connector.health_check());
        assertEqual(again, true, 'health_check() once the substrate is back');
      },
    },
    {
      id: id('health-check.false-when-stalled'),
      title: 'health_check() resolves false in time (never hangs) while the substrate does not answer',
      section: 'AgentConnector v1.0 §Implementation checklist (health_check)',
      level: 'required',
      requires: 'substrate-stall',
      since: SINCE_1_1,
      run: (ctx) =>
        whileSubstrateStalled(ctx, async () => {
          const what = 'health_check() with the substrate stalled';
          const outcome = await settleWithinStall(ctx, what, () => ctx.connector.health_check());
          if ('error' in outcome) fail(`${what} threw; it must resolve false`, outcome.error);
          assertEqual(outcome.value, false, what);
        }),
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
  const before = Date.now();
  const receipt = await mustResolve(`wake('${agentId}'${opts === undefined ? '' : ', opts'})`, () =>
    opts === undefined ? ctx.connector.wake(agentId) : ctx.connector.wake(agentId, opts),
  );
  const after = Date.now();
  const checked = assertWakeReceipt(receipt);
  assertNear(checked.woken_at, before, after, 'woken_at');
  return checked;
}

/**
 * Wakes `address` with a context no other wake carries and checks what the substrate saw: a receipt
 * saying `woken: true` needs exactly one interrupt of `agent` (in `session`, when given) with that
 * context; `woken: false` needs none.
 */
async function assertWakeObserved(
  ctx: AgentConnectorContext,
  address: string,
  opts: WakeOpts,
  session: string | undefined,
): Promise<void> {
  const context = `${opts.context ?? 'Conformance wake'} [${conformanceDispatchId('wake')}]`;
  const receipt = await wakeAndCheck(ctx, address, { ...opts, context });
  const wakes = ((await ctx.observeWakes?.()) ?? []).filter((wake) => wake.context === context);
  if (!receipt.woken) {
    assertEqual(wakes.length, 0, `interrupts with the context of a wake that reported woken: false`);
    return;
  }
  assertTrue(
    wakes.length > 0,
    `wake('${address}') reported woken: true, but the substrate received no interrupt with its context`,
  );
  assertEqual(wakes.length, 1, `interrupts the substrate received for one wake('${address}')`);
  const [wake] = wakes as [ReceivedWake];
  assertEqual(wake.agent_id, ctx.agentId, 'agent_id of the interrupt the substrate received');
  if (session !== undefined) assertEqual(wake.session_id, session, 'session_id of the interrupt');
}

/**
 * Wakes the agent without options: a receipt saying `woken: true` needs exactly one more interrupt of
 * the agent than before (there is no context to tell it by), `woken: false` none.
 */
async function assertBareWakeObserved(ctx: AgentConnectorContext): Promise<void> {
  const ofAgent = async () =>
    ((await ctx.observeWakes?.()) ?? []).filter((wake) => wake.agent_id === ctx.agentId).length;
  const before = await ofAgent();
  const receipt = await wakeAndCheck(ctx, ctx.agentId);
  assertEqual(
    (await ofAgent()) - before,
    receipt.woken ? 1 : 0,
    `interrupts of ${ctx.agentId} made by wake() without options, which reported woken: ${receipt.woken}`,
  );
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
    {
      id: id('observed'),
      title: 'a wake that reports woken: true interrupted the agent once; woken: false interrupted nobody',
      section: 'AgentConnector v1.0 §WakeReceipt.woken, §Graceful degradation on wake',
      level: 'required',
      requires: 'observe-wakes',
      since: SINCE_1_1,
      run: async (ctx) => {
        await assertWakeObserved(ctx, ctx.agentId, { context: 'Conformance wake' }, undefined);
        await assertBareWakeObserved(ctx);
      },
    },
    {
      id: id('degraded-delivers'),
      title:
        'a wake with context that reports woken: false delivered the context instead, once, to the agent',
      section: 'AgentConnector v1.0 §Graceful degradation on wake',
      level: 'required',
      requires: 'observe-deliveries',
      since: SINCE_1_2,
      run: async (ctx) => {
        const context = `Conformance degraded wake [${conformanceDispatchId('wake')}]`;
        const address = ctx.agentId;
        const receipt = await wakeAndCheck(ctx, address, { context });
        if (receipt.woken) return;
        const carrying = ((await ctx.observe?.()) ?? []).filter((delivery) =>
          JSON.stringify(delivery.payload ?? null).includes(JSON.stringify(context).slice(1, -1)),
        );
        assertEqual(
          carrying.length,
          1,
          `deliveries carrying the context of wake('${address}'), which reported woken: false`,
        );
        assertEqual(carrying[0]?.agent_id, ctx.agentId, 'agent_id of the delivery a degraded wake made');
      },
    },
    {
      id: id('observed-session'),
      title: 'a wake of agent@session, or with opts.session_id, interrupts that session',
      section: 'AgentConnector v1.0 §agent@session targeting, §WakeOpts',
      level: 'required',
      requires: ['observe-wakes', 'wake-sessions'],
      since: SINCE_1_1,
      run: async (ctx) => {
        await assertWakeObserved(ctx, `${ctx.agentId}@${SESSION}`, { context: 'Session wake' }, SESSION);
        await assertWakeObserved(
          ctx,
          `${ctx.agentId}@${SESSION}`,
          { session_id: 'opts-session' },
          'opts-session',
        );
      },
    },
    {
      id: id('unknown-agent'),
      title: 'wake() of an agent the connector does not know rejects with DeliveryFailedError',
      section: 'AgentConnector v1.0 §Graceful degradation (caller misconfiguration)',
      level: 'required',
      requires: 'agent-registry',
      since: SINCE_1_1,
      run: async (ctx) => {
        const unknown = unknownAgentId();
        await assertDeliveryFailed(`wake('${unknown}')`, unknown, () =>
          ctx.connector.wake(unknown, { context: 'Conformance check: unknown agent.' }),
        );
      },
    },
    {
      id: id('substrate-down'),
      title: 'wake() while the substrate is down rejects (a fault, not a capability gap to degrade from)',
      section: 'AgentConnector v1.0 §Graceful degradation (substrate fault)',
      level: 'required',
      requires: 'substrate-outage',
      since: SINCE_1_1,
      run: (ctx) =>
        whileSubstrateDown(ctx, async () => {
          let receipt: unknown;
          try {
            receipt = await ctx.connector.wake(ctx.agentId, {
              context: 'Conformance check: substrate down.',
            });
          } catch {
            return;
          }
          fail(
            `wake('${ctx.agentId}') with the substrate down resolved to ${formatValue(receipt)}; it must reject`,
          );
        }),
    },
    ...callerMistakeCases(id, 'wake', [], (ctx, agentId) =>
      ctx.connector.wake(agentId as string, { context: 'Conformance check: a caller mistake.' }),
    ),
  ];
}

/** What gives each capability of the agent-connector suite, said to the implementer. */
const AGENT_CONNECTOR_NEEDS: Readonly<Record<string, CapabilityNeed>> = {
  deliver: { provide: 'a deliver() that staticCapabilities() features do not switch off' },
  'list-agents': { provide: 'a list_agents() that staticCapabilities() features do not switch off' },
  'static-capabilities': { provide: 'a static staticCapabilities() on the connector class' },
  'agent-status': { provide: 'an agent_status() method' },
  'observe-deliveries': {
    provide: 'observe() in what create returns, listing what the substrate received',
    observation: true,
  },
  'observe-wakes': {
    provide: 'observeWakes() in what create returns, listing the interrupts the substrate received',
    observation: true,
  },
  'substrate-outage': {
    provide: 'setSubstrateAvailable(available) in what create returns, taking the substrate down and up',
    observation: true,
  },
  'substrate-stall': {
    provide:
      'setSubstrateStalled(stalled) in what create returns, making the substrate take requests and never answer (and stallTimeoutMs, its timeout)',
    observation: true,
  },
  sessions: { provide: 'sessions: true in what create returns, when wake() knows sessions' },
  'wake-sessions': {
    provide:
      'sessions: true in what create returns, when a wake reaches the substrate with its session (not with sessionsEchoedOnly)',
  },
  'delivery-sessions': {
    provide: 'deliverySessions: true in what create returns, when deliver() routes to sessions',
  },
  'agent-registry': {
    provide: 'a connector that knows its agents (acceptsAnyAgent unset in what create returns)',
  },
};

/** Options of {@link agentConnectorSuite}. */
export interface AgentConnectorSuiteOptions {
  /** Builds the connector under test; called once per run, in the suite's `setup`. */
  readonly create: () => ConnectorFactoryResult | Promise<ConnectorFactoryResult>;
}

const SUITE_NAME = 'agent-connector.contract';

/**
 * The AgentConnector v1.0 contract, checked more strictly than the reference suite: receipts that
 * `parseDeliveryReceipt` / `parseWakeReceipt` accept with no `null` or `undefined` field, `woken` a boolean,
 * timestamps in unix milliseconds near the call, `wake()` never throwing for a capability gap,
 * `DeliveryFailedError` for an unknown agent, `health_check()` true for a working substrate,
 * `request_response()` working or rejecting with `NotImplementedError`. With what `create` returns the
 * suite also observes the substrate: every delivery arrives exactly once and untouched (`observe`), a
 * wake reported as `woken: true` interrupted the right agent and session (`observeWakes`), and with the
 * substrate down `health_check()` is false and `deliver()` / `wake()` reject (`setSubstrateAvailable`).
 * Without them those cases are `unobserved` and the run is reduced. The `needs` of the suite say what
 * gives each capability.
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
    needs: AGENT_CONNECTOR_NEEDS,
    setup: async () => prepareConnector(await options.create()),
  };
}
