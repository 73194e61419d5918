import { parseAgentAddress, resolveSessionId } from '../address/address.js';
import type { AgentConnector } from '../contract/agent-connector.js';
import type { AgentCapability, AgentDescriptor, AgentStatus } from '../contract/agent-descriptor.js';
import { type DeliveryPayload, parseDeliveryPayload, payloadText } from '../contract/delivery-payload.js';
import type { DeliveryReceipt } from '../contract/delivery-receipt.js';
import { DeliveryFailedError, NotImplementedError } from '../contract/errors.js';
import type { AgentResponse } from '../contract/request-response.js';
import {
  AGENT_CONNECTOR_CONTRACT_VERSION,
  type StaticCapabilities,
} from '../contract/static-capabilities.js';
import { parseWakeOpts, type WakeOpts, type WakeReceipt } from '../contract/wake.js';
import { KeyedSerialQueue } from '../internal/keyed-serial-queue.js';
import { deliveryFault } from './delivery-fault.js';
import { resolveTmuxOptions, type TmuxAgentConnectorOptions } from './options.js';
import { probePane } from './pane-probe.js';
import { paneLabel, type TmuxPaneTarget, tmuxTargetArgument } from './pane-target.js';
import { runTmux, type TmuxInvocation } from './run-tmux.js';
import { chunkUtf8, typedText } from './typed-text.js';

/** What every mapped agent can take: both payload kinds, and a wake (typing into its pane). */
const PANE_CAPABILITIES: readonly AgentCapability[] = ['deliver', 'wake', 'augment', 'template'];

/**
 * Most UTF-8 bytes of text one `send-keys` carries. tmux refuses a command over about 16 KiB
 * ("command too long"); longer texts are typed in several commands, in order.
 */
const SEND_CHUNK_BYTES = 8000;

/**
 * Types deliveries into the tmux panes agents run in — the reference's example `TmuxShellAgentConnector`,
 * made contract-grade.
 *
 * - Routing: the agent is the part of the address before its first `@` (`perry@kitchen` → `perry`),
 *   looked up in `sessions`; the pane is `<session>:<window>.<pane>` (window and pane default to `0`),
 *   matched exactly (`s1` never reaches `s10`). The address's session (`resolveSessionId`; for `wake()`,
 *   `opts.session_id` first) selects no other pane: it is echoed on the receipt as `session_id`.
 * - Typing: tmux runs as a child process with an argument array, never through a shell, so `$(…)`, quotes
 *   and `;` arrive as text. The text — an augment's `content` or a template's `prompt`, as written; the
 *   pane cannot tell the kinds apart — is sent with `send-keys -l` (in pieces of at most 8000 bytes), then
 *   `submitKey` is pressed once. Deliveries to one pane never interleave.
 * - Multi-line text: line breaks (`\r\n`, `\r`, `\n`) are typed as LF (`C-j`), trailing ones dropped. A
 *   program reading lines (a shell, `cat`) takes each line as entered; a full-screen agent UI reading keys
 *   usually inserts the newline into its input and submits the whole text on the final `submitKey`.
 *   Other control characters are removed (typed, they would be keys: `C-c`, `ESC` …) and counted in a
 *   receipt warning.
 * - `wake()` checks that the pane exists, types `opts.context` the same way (without `submitKey`), then
 *   presses the attention sequence `wakeKeys` (default: `submitKey`) and returns `woken: true`. When the
 *   pane, its session or the tmux server is missing, nothing is sent: `woken: false` and a warning — an
 *   unreachable agent is not an error of the caller or of the substrate.
 * - Errors (`DeliveryFailedError`): an unknown agent → `client_validation`, no tmux call; tmux cannot be
 *   started → `client_validation`; a tmux command that times out → `timeout`; `deliver()` to a missing
 *   pane, or any other failed tmux command → `network` (see `deliveryFault`). The tmux error is the
 *   `cause`.
 *
 * @example
 * const connector = new TmuxAgentConnector({
 *   sessions: { perry: 'agents', ada: { session: 'agents', window: 'ada', pane: 1 } },
 * });
 * await connector.deliver('perry', { kind: 'augment', content: 'build failed on main', meta });
 * // types "build failed on main" into agents:0.0 and presses Enter
 * // → { delivered_at: 1767225600000, delivery_id: 'tmux:agents:0.0:1767225600000' }
 */
export class TmuxAgentConnector implements AgentConnector {
  readonly #targets: ReadonlyMap<string, TmuxPaneTarget>;
  readonly #tmux: TmuxInvocation;
  readonly #submitKey: string;
  readonly #wakeKeys: readonly string[];
  readonly #now: () => number;
  readonly #panes = new KeyedSerialQueue();

  /** @throws {AgentConnectorError} `invalid_tmux_config`: an invalid option. */
  constructor(options: TmuxAgentConnectorOptions) {
    const resolved = resolveTmuxOptions(options);
    this.#targets = resolved.targets;
    this.#tmux = {
      tmuxPath: resolved.tmuxPath,
      serverArgs: resolved.serverArgs,
      timeoutMs: resolved.timeoutMs,
    };
    this.#submitKey = resolved.submitKey;
    this.#wakeKeys = resolved.wakeKeys;
    this.#now = resolved.now;
  }

  /** Delivers, wakes, lists agents, reports their status and checks health; no `request_response`. */
  static staticCapabilities(): StaticCapabilities {
    return {
      connector_type: 'agent_connector',
      implementation: 'TmuxAgentConnector',
      contract_version: AGENT_CONNECTOR_CONTRACT_VERSION,
      features: { deliver: true, wake: true, list_agents: true, agent_status: true, health_check: true },
    };
  }

  /** The configured agents, in configuration order; no tmux call. */
  async list_agents(): Promise<readonly AgentDescriptor[]> {
    return [...this.#targets.keys()].map((agent_id) => ({ agent_id, capabilities: [...PANE_CAPABILITIES] }));
  }

  /**
   * Types the payload's text into the agent's pane and presses `submitKey`. Returns `{ delivered_at,
   * delivery_id: 'tmux:<session>:<window>.<pane>:<delivered_at>', session_id?, warnings? }`. Text that is
   * empty once prepared is not typed: no tmux call, `delivery_id` ends in `:noop`, a warning says so.
   *
   * @throws {AgentConnectorError} `invalid_agent_address`: `agent_id` is not a string.
   * @throws {AgentConnectorError} `invalid_contract_value`: `payload` is not a valid `DeliveryPayload`.
   * @throws {DeliveryFailedError} unknown agent (`client_validation`); a failed tmux command (`network`,
   *   `timeout`, or `client_validation` when tmux cannot be started) — the pane may then hold part of the
   *   text, unsubmitted.
   */
  async deliver(agent_id: string, payload: DeliveryPayload): Promise<DeliveryReceipt> {
    const { agent } = parseAgentAddress(agent_id);
    const parsed = parseDeliveryPayload(payload);
    const target = this.#requireTarget(agent_id, agent);
    const session_id = resolveSessionId(agent_id);
    const session = session_id === undefined ? {} : { session_id };
    const { text, removed } = typedText(payloadText(parsed));
    const warnings = removedWarnings(removed);
    const pane = paneLabel(target);
    if (text === '') {
      return {
        delivered_at: this.#now(),
        delivery_id: `tmux:${pane}:noop`,
        ...session,
        warnings: [...warnings, 'empty text: nothing typed into the pane'],
      };
    }
    const targetArgument = tmuxTargetArgument(target);
    await this.#panes.run(targetArgument, async () => {
      try {
        await this.#typeAndPress(targetArgument, text, [this.#submitKey]);
      } catch (error) {
        throw deliveryFault(error, agent_id, 'deliver', pane);
      }
    });
    const delivered_at = this.#now();
    return {
      delivered_at,
      delivery_id: `tmux:${pane}:${delivered_at}`,
      ...session,
      ...(warnings.length === 0 ? {} : { warnings }),
    };
  }

  /**
   * Rouses the agent in its pane: checks that the pane exists, types `opts.context` literally if it has
   * text (as `deliver()` prepares it, without `submitKey`), then presses `wakeKeys` with one `send-keys` →
   * `{ woken_at, woken: true, session_id?, warnings? }`. The check and the keys never interleave with other
   * deliveries to the pane. A numeric `opts.when` is not scheduled: the agent is woken at once, and a
   * warning says so.
   *
   * When tmux reports the pane missing — no server on the socket, no such session, window or pane —
   * nothing is sent and nothing is thrown: `{ woken_at, woken: false, session_id?, warnings }`, with one
   * warning naming the pane and tmux's error, and saying that the agent was not woken (and, given a
   * context, that it was not delivered).
   *
   * @example
   * await connector.wake('perry@kitchen', { context: 'build failed on main' });
   * // types "build failed on main" into agents:0.0, presses Enter
   * // → { woken_at: 1767225600000, woken: true, session_id: 'kitchen' }
   *
   * @throws {AgentConnectorError} `invalid_agent_address`: `agent_id` or `opts.session_id` is not a string.
   * @throws {AgentConnectorError} `invalid_contract_value`: `opts` is not a valid `WakeOpts`.
   * @throws {DeliveryFailedError} unknown agent (`client_validation`, no tmux call); tmux cannot be started
   *   (`client_validation`); a tmux command times out (`timeout`); typing or the keys fail after the check
   *   found the pane (`network`) — the pane may then hold part of the context.
   */
  async wake(agent_id: string, opts?: WakeOpts): Promise<WakeReceipt> {
    const { agent } = parseAgentAddress(agent_id);
    const wakeOpts = parseWakeOpts(opts);
    const target = this.#requireTarget(agent_id, agent);
    const session_id = resolveSessionId(agent_id, wakeOpts);
    const session = session_id === undefined ? {} : { session_id };
    const { text, removed } = typedText(wakeOpts.context ?? '');
    const pane = paneLabel(target);
    const targetArgument = tmuxTargetArgument(target);
    const missing = await this.#panes.run(targetArgument, async () => {
      try {
        const absent = await probePane(this.#tmux, targetArgument);
        if (absent === undefined) await this.#typeAndPress(targetArgument, text, this.#wakeKeys);
        return absent;
      } catch (error) {
        throw deliveryFault(error, agent_id, 'wake', pane);
      }
    });
    if (missing !== undefined) {
      const stderr = missing.details.stderr ?? '';
      const reason = stderr === '' ? '' : ` (${stderr})`;
      const lost = text === '' ? '' : ' and the context was not delivered';
      return {
        woken_at: this.#now(),
        woken: false,
        ...session,
        warnings: [`tmux pane ${pane} not found${reason}: the agent was not woken${lost}`],
      };
    }
    const warnings = [
      ...removedWarnings(removed),
      ...(wakeOpts.context !== undefined && text === ''
        ? ['empty context: only the wake keys were sent']
        : []),
      ...(typeof wakeOpts.when === 'number'
        ? ['scheduled wake not supported by tmux: woken immediately']
        : []),
    ];
    return {
      woken_at: this.#now(),
      woken: true,
      ...session,
      ...(warnings.length === 0 ? {} : { warnings }),
    };
  }

  /** `true` when `tmux -V` runs and exits with status 0; `false` (never a throw) otherwise. */
  async health_check(): Promise<boolean> {
    try {
      await runTmux(this.#tmux, ['-V']);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * `'active'` when the agent (the part of `agent_id` before its first `@`) is configured and its tmux
   * session exists (`has-session`); `'unknown'` otherwise — unknown agent, no server, tmux failing. Never
   * throws for those.
   *
   * @throws {AgentConnectorError} `invalid_agent_address`: `agent_id` is not a string.
   */
  async agent_status(agent_id: string): Promise<AgentStatus> {
    const target = this.#targets.get(parseAgentAddress(agent_id).agent);
    if (target === undefined) return 'unknown';
    try {
      await runTmux(this.#tmux, ['has-session', '-t', `=${target.session}`]);
      return 'active';
    } catch {
      return 'unknown';
    }
  }

  /** @throws {NotImplementedError} always: waits for the runtime's `exchange()` op. */
  async request_response(): Promise<AgentResponse> {
    throw new NotImplementedError('request_response', 'TmuxAgentConnector');
  }

  #requireTarget(agent_id: string, agent: string): TmuxPaneTarget {
    const target = this.#targets.get(agent);
    if (target === undefined) {
      const wired = [...this.#targets.keys()].join(', ') || '(none)';
      throw new DeliveryFailedError(`Agent '${agent}' is not configured. Wired agents: ${wired}.`, {
        agent_id,
        cause_kind: 'client_validation',
      });
    }
    return target;
  }

  /**
   * Types `text` literally (in pieces; nothing when empty), then presses `keys` with one `send-keys`. Run
   * inside the pane's queue, so that one pane's deliveries and wakes never interleave.
   */
  async #typeAndPress(targetArgument: string, text: string, keys: readonly string[]): Promise<void> {
    for (const chunk of chunkUtf8(text, SEND_CHUNK_BYTES)) {
      await runTmux(this.#tmux, ['send-keys', '-t', targetArgument, '-l', '--', chunk]);
    }
    await runTmux(this.#tmux, ['send-keys', '-t', targetArgument, '--', ...keys]);
  }
}

function removedWarnings(removed: number): string[] {
  return removed === 0
    ? []
    : [`removed ${removed} control character(s) that the pane would have taken as keystrokes`];
}
