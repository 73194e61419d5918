import { isWakeAddress } from '../address/address.js';
import { claimingAgentIds } from '../address/claiming.js';
import { type AgentConnector, assertAgentConnector } from '../contract/agent-connector.js';
import type { DeliveryMeta } from '../contract/delivery-meta.js';
import {
  type DeliveryKind,
  type DeliveryPayload,
  parseDeliveryPayload,
} from '../contract/delivery-payload.js';
import { parseDeliveryReceipt } from '../contract/delivery-receipt.js';
import { AgentConnectorError } from '../contract/errors.js';
import { invalidContractValue } from '../contract/validate.js';
import { parseWakeOpts, parseWakeReceipt, type WakeOpts } from '../contract/wake.js';
import { NoOpAgentConnector } from '../noop/noop-agent-connector.js';
import type { NamedAgentConnector } from '../registry/agent-connector-registry.js';
import { messageOf } from './message-of.js';
import {
  type DispatchOutcome,
  type DispatchResult,
  type DispatchRoute,
  HOOK_WAKE_WARNING,
  type ListingFailure,
  NOOP_SKIP_REASON,
  NOOP_WAKE_SKIP_REASON,
} from './outcome.js';

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
