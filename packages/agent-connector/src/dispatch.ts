import { messageOf } from '@agentwire/internal';
import { z } from 'zod';
import { claimingAgentIds, isWakeAddress } from './address.js';
import {
  type AgentConnector,
  assertAgentConnector,
  type DeliveryKind,
  type DeliveryMeta,
  type DeliveryOrigin,
  type DeliveryPayload,
  type DeliveryReceipt,
  deliveryMetaSchema,
  invalidContractValue,
  parseContractValue,
  parseDeliveryPayload,
  parseDeliveryReceipt,
  parseWakeOpts,
  parseWakeReceipt,
  type TriggerKind,
  type WakeOpts,
  type WakeReceipt,
} from './contract/agent-connector.js';
import { AgentConnectorError } from './contract/errors.js';
import { NoOpAgentConnector } from './noop.js';
import type { NamedAgentConnector } from './registry.js';

/** Options of {@link dispatch}. */
export interface DispatchOptions {
  /**
   * The envelope of this emit (from `createDeliveryMeta`), handed by reference to every `deliver()` of
   * the dispatch so a broadcast shares one `dispatch_id`. Validated, but unused on the wake route
   * (wake carries no envelope).
   */
  readonly meta: DeliveryMeta;
  /** Payload kind on the deliver route: `augment` (default; `notify()`, `# Output: agent:`) or `template`. */
  readonly kind?: DeliveryKind | undefined;
  /**
   * `true` (default) — `notify()` fan-out: each connector is asked `list_agents()` on every dispatch and
   * receives the call only when it lists the full address or, for a composite, the part before its first
   * `@`. `false` — `# Output:` hooks: every given connector (normally just the primary or the NoOp) is
   * called, without `list_agents()`, and a wake's receipt gets {@link HOOK_WAKE_WARNING} first in its
   * `warnings`, as the reference runtime records it.
   */
  readonly claim?: boolean | undefined;
  /** Only connectors registered under these names take part (`notify(connectors=[…])`); others are ignored. */
  readonly restrictTo?: readonly string[] | undefined;
}

/**
 * Sends `message` to `address` the way the reference runtime does: an address containing `@` goes to
 * `wake(address, { context: message })` (the full address; `{}` when the message is empty; `session_id`
 * never filled), any other to `deliver(address, { kind, content | prompt: message, meta })`. Connectors
 * run one after another, in order. Nothing a connector does makes this reject: throws, rejections and
 * invalid receipts become `ok: false` outcomes, and a `list_agents()` that throws or resolves to a
 * non-array leaves its connector out (recorded in `listing_failures`). Listed entries are only read for
 * `agent_id`, so a descriptor with fields this version does not know still claims.
 *
 * @throws {AgentConnectorError} `invalid_agent_address`: `address` is not a string (the promise rejects).
 * @throws {AgentConnectorError} `invalid_contract_value`: `message`, `kind` or `meta` would not make a valid
 *   payload.
 * @throws {AgentConnectorError} `invalid_dispatch_options`: `claim`, `restrictTo` or the connector list has
 *   the wrong shape.
 * @throws {AgentConnectorError} `invalid_agent_connector`: an entry of `connectors` is not an
 *   `AgentConnector`.
 * @example
 * const meta = createDeliveryMeta({ skill_name: 'triage', trigger_kind: 'cron' });
 * const result = await dispatch(registry.list(), 'perry@kitchen', 'Build failed', { meta });
 * // result.route === 'wake'; result.outcomes: one entry per connector listing 'perry' or 'perry@kitchen'
 */
export async function dispatch(
  connectors: Iterable<NamedAgentConnector>,
  address: string,
  message: string,
  options: DispatchOptions,
): Promise<DispatchResult> {
  if (typeof address !== 'string') {
    throw new AgentConnectorError(
      'invalid_agent_address',
      `address must be a string, got ${address === null ? 'null' : typeof address}`,
      { path: 'address' },
    );
  }
  const { claim, restrictTo } = readOptions(options);
  const entries = readConnectors(connectors);
  const route: DispatchRoute = isWakeAddress(address) ? 'wake' : 'deliver';
  const kind = options.kind ?? 'augment';
  parseDeliveryPayload(buildPayload(kind, message, options.meta));
  const wakeOpts = parseWakeOpts(message === '' ? {} : { context: message });
  const claimIds = claimingAgentIds(address);

  const outcomes: DispatchOutcome[] = [];
  const listing_failures: ListingFailure[] = [];
  for (const { name, connector } of entries) {
    if (restrictTo !== undefined && !restrictTo.has(name)) continue;
    if (claim) {
      let listed: readonly unknown[];
      try {
        listed = listedAgents(await connector.list_agents());
      } catch (error) {
        listing_failures.push({ connector: name, error, message: messageOf(error) });
        continue;
      }
      if (!listed.some((agent) => isClaimedBy(agent, claimIds))) continue;
    }
    outcomes.push(
      route === 'wake'
        ? await callWake(name, connector, address, wakeOpts, claim ? [] : [HOOK_WAKE_WARNING])
        : await callDeliver(name, connector, address, buildPayload(kind, message, options.meta)),
    );
  }
  return { address, route, outcomes, listing_failures };
}

async function callDeliver(
  name: string,
  connector: AgentConnector,
  address: string,
  payload: DeliveryPayload,
): Promise<DispatchOutcome> {
  try {
    const receipt = parseDeliveryReceipt(await connector.deliver(address, payload));
    const noop = connector instanceof NoOpAgentConnector;
    return {
      connector: name,
      route: 'deliver',
      ok: true,
      receipt,
      skipped: noop || receipt.delivery_skipped === true,
      ...(noop ? { reason: NOOP_SKIP_REASON } : {}),
    };
  } catch (error) {
    return { connector: name, route: 'deliver', ok: false, error, message: messageOf(error) };
  }
}

async function callWake(
  name: string,
  connector: AgentConnector,
  address: string,
  opts: WakeOpts,
  leadingWarnings: readonly string[],
): Promise<DispatchOutcome> {
  try {
    const answered = parseWakeReceipt(await connector.wake(address, { ...opts }));
    const receipt =
      leadingWarnings.length === 0
        ? answered
        : { ...answered, warnings: [...leadingWarnings, ...(answered.warnings ?? [])] };
    const noop = connector instanceof NoOpAgentConnector;
    return {
      connector: name,
      route: 'wake',
      ok: true,
      receipt,
      skipped: noop,
      ...(noop ? { reason: NOOP_WAKE_SKIP_REASON } : {}),
    };
  } catch (error) {
    return { connector: name, route: 'wake', ok: false, error, message: messageOf(error) };
  }
}

/** `list_agents()`'s result must be an array; its entries are only read for `agent_id`, as in the reference. */
function listedAgents(value: unknown): readonly unknown[] {
  if (!Array.isArray(value)) {
    throw invalidContractValue('AgentDescriptor[]', '$', 'list_agents() must resolve to an array');
  }
  return value;
}

function isClaimedBy(entry: unknown, claimIds: readonly string[]): boolean {
  if (entry === null || typeof entry !== 'object') return false;
  const agent_id: unknown = (entry as { readonly agent_id?: unknown }).agent_id;
  return typeof agent_id === 'string' && claimIds.includes(agent_id);
}

function buildPayload(kind: DeliveryKind, text: string, meta: DeliveryMeta): DeliveryPayload {
  return kind === 'template' ? { kind, prompt: text, meta } : { kind, content: text, meta };
}

function readOptions(options: DispatchOptions): {
  claim: boolean;
  restrictTo: ReadonlySet<string> | undefined;
} {
  if (options === null || typeof options !== 'object') {
    throw new AgentConnectorError('invalid_dispatch_options', 'options must be an object with a meta', {
      path: 'options',
    });
  }
  const { claim = true, restrictTo } = options;
  if (typeof claim !== 'boolean') {
    throw new AgentConnectorError('invalid_dispatch_options', 'options.claim must be a boolean', {
      path: 'options.claim',
    });
  }
  if (restrictTo === undefined) return { claim, restrictTo: undefined };
  if (!Array.isArray(restrictTo) || !restrictTo.every((n) => typeof n === 'string')) {
    throw new AgentConnectorError(
      'invalid_dispatch_options',
      'options.restrictTo must be an array of connector names',
      { path: 'options.restrictTo' },
    );
  }
  return { claim, restrictTo: new Set(restrictTo) };
}

function readConnectors(connectors: Iterable<NamedAgentConnector>): readonly NamedAgentConnector[] {
  const iterator: unknown = (connectors as { [Symbol.iterator]?: unknown } | null | undefined)?.[
    Symbol.iterator
  ];
  if (typeof iterator !== 'function') {
    throw new AgentConnectorError(
      'invalid_dispatch_options',
      'connectors must be an iterable of { name, connector }',
      { path: 'connectors' },
    );
  }
  const entries = [...connectors];
  for (const entry of entries) {
    if (entry === null || typeof entry !== 'object' || typeof entry.name !== 'string') {
      throw new AgentConnectorError(
        'invalid_dispatch_options',
        'each connector entry must be { name: string, connector }',
        { path: 'connectors' },
      );
    }
    assertAgentConnector(entry.connector, `connector '${entry.name}'`);
  }
  return entries;
}

/** Which connector method an address routes to: `wake` when it contains `@`, else `deliver`. */
export type DispatchRoute = 'deliver' | 'wake';

/**
 * The warning the reference runtime puts first in the receipt of a wake that an `# Output:` hook sent
 * (an address with `@` turns the hook's delivery into a wake).
 */
export const HOOK_WAKE_WARNING = "lifecycle-hook routed to wake-class because agent_id contains '@session'";

/** Why a delivery handled by the NoOp fallback is marked skipped: the reference runtime's words. */
export const NOOP_SKIP_REASON =
  "No AgentConnector wired for runtime; NoOpAgentConnector accepted but didn't deliver. Wire an AgentConnector via registry.registerAgentConnector('primary', <YourImpl>) to enable real delivery.";

/** Why a wake handled by the NoOp fallback is marked skipped: the reference runtime's words. */
export const NOOP_WAKE_SKIP_REASON =
  "No AgentConnector wired for runtime; NoOpAgentConnector accepted but didn't wake. Wire an AgentConnector via registry.registerAgentConnector('primary', <YourImpl>) to enable real wake.";

/** A connector accepted a `deliver()`. */
export interface DeliveredOutcome {
  readonly connector: string;
  readonly route: 'deliver';
  readonly ok: true;
  /** The connector's receipt, validated. */
  readonly receipt: DeliveryReceipt;
  /** `true` when the receipt says `delivery_skipped: true` or the NoOp handled it. */
  readonly skipped: boolean;
  /** Set when the NoOp handled it ({@link NOOP_SKIP_REASON}). */
  readonly reason?: string;
}

/** A connector answered a `wake()` (`receipt.woken` says whether it really interrupted). */
export interface WokenOutcome {
  readonly connector: string;
  readonly route: 'wake';
  readonly ok: true;
  /** The connector's receipt, validated. */
  readonly receipt: WakeReceipt;
  /** `true` when the NoOp handled it. */
  readonly skipped: boolean;
  /** Set when the NoOp handled it ({@link NOOP_SKIP_REASON}). */
  readonly reason?: string;
}

/**
 * A connector's `deliver()` / `wake()` threw or rejected, or returned a receipt that is not one (then
 * `error` is an `invalid_contract_value` `AgentConnectorError`).
 */
export interface FailedOutcome {
  readonly connector: string;
  readonly route: DispatchRoute;
  readonly ok: false;
  /** What was thrown. */
  readonly error: unknown;
  /** `error.message`, or the thrown value as text. */
  readonly message: string;
}

/** What happened at one connector that received the dispatch. */
export type DispatchOutcome = DeliveredOutcome | WokenOutcome | FailedOutcome;

/** A connector left out of a fan-out because its `list_agents()` threw or returned an invalid list. */
export interface ListingFailure {
  readonly connector: string;
  readonly error: unknown;
  readonly message: string;
}

/** The result of `dispatch()`: it always resolves, whatever the connectors did. */
export interface DispatchResult {
  /** The address as given. */
  readonly address: string;
  readonly route: DispatchRoute;
  /** One entry per connector that was called, in connector order; empty when none claimed the address. */
  readonly outcomes: readonly DispatchOutcome[];
  /** Connectors skipped because they could not list their agents (the reference skips them silently). */
  readonly listing_failures: readonly ListingFailure[];
}

/**
 * What the runtime knows at an emit, from which {@link createDeliveryMeta} builds the envelope. An input
 * bag: `undefined` counts as absent.
 */
export interface DeliveryMetaInit {
  /** The emitting skill. */
  readonly skill_name: string;
  /**
   * How the skill was fired; default `'inline'`, as in the reference runtime. Any string is kept as given
   * (an unknown kind, even `''`), as the reference runtime passes its trigger source through.
   */
  readonly trigger_kind?: TriggerKind | undefined;
  /** The root entry skill; dropped when equal to `skill_name`. */
  readonly entry_skill_name?: string | undefined;
  /** The authenticated caller, if any — never the skill's owner. */
  readonly caller_agent_id?: string | undefined;
  /** Per-emit event type (`notify(event_type=…)`); wins over `skill_event_type`. */
  readonly event_type?: string | undefined;
  /** Skill-wide event type (`# Event-type:` frontmatter), used when `event_type` is absent. */
  readonly skill_event_type?: string | undefined;
  /** Reply correlation (`notify(correlation_id=…)`); lifecycle hooks never set it. */
  readonly correlation_id?: string | undefined;
}

/** Where {@link createDeliveryMeta} takes time and ids from; inject both for deterministic tests. */
export interface DeliveryMetaSource {
  /** Emit clock, unix ms; default `Date.now`. */
  readonly now?: () => number;
  /** A fresh `dispatch_id` per call; default `crypto.randomUUID()` (lowercase v4 UUID, as the reference). */
  readonly newDispatchId?: () => string;
}

const optionalText = z.string().exactOptional();
const deliveryMetaInitSchema = z.looseObject({
  skill_name: z.string(),
  trigger_kind: optionalText,
  entry_skill_name: optionalText,
  caller_agent_id: optionalText,
  event_type: optionalText,
  skill_event_type: optionalText,
  correlation_id: optionalText,
});

/**
 * Builds the {@link DeliveryMeta} of one emit event: a fresh `dispatch_id` and `sent_at` = now. Call it
 * once per emit (one `notify()`, one `# Output:` declaration) and hand the same object to every
 * connector of a broadcast, so they all share the id; sequential emits call it again and get new ids.
 *
 * Fields come out in the reference runtime's order (`dispatch_id, sent_at, origin{skill_name,
 * entry_skill_name?, trigger_kind, caller_agent_id?}, event_type?, correlation_id?`), optional ones absent
 * rather than `undefined` — this order is what a webhook body and its HMAC cover. The result is frozen,
 * so one connector cannot alter what the next one receives.
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: an invalid `init` (`contract_type`
 *   `DeliveryMetaInit`), or a clock / id source that produced an invalid `sent_at` / `dispatch_id`
 *   (`contract_type` `DeliveryMeta`).
 * @example
 * const meta = createDeliveryMeta({ skill_name: 'triage', trigger_kind: 'cron', event_type: 'alert' });
 * // { dispatch_id: '1b4e…', sent_at: 1767225600000, origin: { skill_name: 'triage', trigger_kind: 'cron' },
 * //   event_type: 'alert' }
 */
export function createDeliveryMeta(init: DeliveryMetaInit, source: DeliveryMetaSource = {}): DeliveryMeta {
  const fields = parseContractValue(deliveryMetaInitSchema, 'DeliveryMetaInit', init);
  const now = source.now ?? Date.now;
  const newDispatchId = source.newDispatchId ?? (() => globalThis.crypto.randomUUID());
  const origin: DeliveryOrigin = Object.freeze({
    skill_name: fields.skill_name,
    ...(fields.entry_skill_name !== undefined && fields.entry_skill_name !== fields.skill_name
      ? { entry_skill_name: fields.entry_skill_name }
      : {}),
    trigger_kind: fields.trigger_kind ?? 'inline',
    ...(fields.caller_agent_id !== undefined ? { caller_agent_id: fields.caller_agent_id } : {}),
  });
  const event_type = fields.event_type ?? fields.skill_event_type;
  const meta: DeliveryMeta = {
    dispatch_id: newDispatchId(),
    sent_at: now(),
    origin,
    ...(event_type !== undefined ? { event_type } : {}),
    ...(fields.correlation_id !== undefined ? { correlation_id: fields.correlation_id } : {}),
  };
  parseContractValue(deliveryMetaSchema, 'DeliveryMeta', meta);
  return Object.freeze(meta);
}
