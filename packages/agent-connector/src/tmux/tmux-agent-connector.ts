import { execFile } from 'node:child_process';
import { parseAgentAddress, resolveSessionId } from '../address.js';
import {
  AGENT_CONNECTOR_CONTRACT_VERSION,
  type AgentCapability,
  type AgentConnector,
  type AgentDescriptor,
  type AgentResponse,
  type AgentStatus,
  type DeliveryPayload,
  type DeliveryReceipt,
  parseDeliveryPayload,
  parseWakeOpts,
  payloadText,
  type StaticCapabilities,
  type WakeOpts,
  type WakeReceipt,
} from '../contract/agent-connector.js';
import {
  AgentConnectorError,
  DeliveryFailedError,
  type DeliveryFailureKind,
  NotImplementedError,
  type TmuxFailure,
} from '../contract/errors.js';
import { KeyedSerialQueue } from '../internal/keyed-serial-queue.js';
import {
  isIndex,
  resolveTmuxOptions,
  type TmuxAgentConnectorOptions,
  type TmuxPaneTarget,
} from './options.js';

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

/** How to reach the tmux server: the binary, the arguments before each sub-command, the time limit. */
export interface TmuxInvocation {
  readonly tmuxPath: string;
  /** `['-L', name]`, `['-S', path]` or `[]`. */
  readonly serverArgs: readonly string[];
  readonly timeoutMs: number;
}

/**
 * Runs `tmux <serverArgs> <args>` as a child process with an argument array — never through a shell — and
 * resolves when it exits with status 0. Every argument reaches tmux as written: one ending in `;`, which
 * tmux would take as a command separator, is escaped (see {@link tmuxArgument}).
 *
 * @throws {AgentConnectorError} `tmux_command_failed`: `spawn` (tmux could not be started), `timeout` (killed
 *   after `timeoutMs`) or `exit` (a non-zero status; tmux's stderr in the message).
 */
export function runTmux(invocation: TmuxInvocation, args: readonly string[]): Promise<void> {
  const subcommand = args[0] ?? '';
  const argv = [...invocation.serverArgs, ...args].map(tmuxArgument);
  return new Promise((resolve, reject) => {
    execFile(
      invocation.tmuxPath,
      argv,
      { timeout: invocation.timeoutMs, killSignal: 'SIGKILL', encoding: 'utf8', windowsHide: true },
      (error, _stdout, stderr) => {
        if (error === null) {
          resolve();
          return;
        }
        reject(commandError(error, subcommand, invocation, stderr.trim()));
      },
    );
  });
}

/**
 * `argument` as tmux must receive it in an argument array to read it back unchanged. tmux ends a command
 * at an argument that ends in `;` (dropping the `;`), and turns a final `\;` into `;`. So a `\` is put
 * before a final `;`: tmux drops the `;` and turns the `\` back into it. Other arguments are unchanged.
 *
 * @example
 * tmuxArgument('ls;');   // 'ls\\;' — tmux reads 'ls;'
 * tmuxArgument('a\\;');  // 'a\\\\;' — tmux reads 'a\\;'
 */
export function tmuxArgument(argument: string): string {
  return argument.endsWith(';') ? `${argument.slice(0, -1)}\\;` : argument;
}

type ExecError = Error & {
  readonly code?: string | number | null;
  readonly killed?: boolean;
  readonly signal?: NodeJS.Signals | null;
};

function commandError(
  error: ExecError,
  subcommand: string,
  invocation: TmuxInvocation,
  stderr: string,
): AgentConnectorError {
  if (typeof error.code === 'string') {
    return tmuxCommandError(
      `cannot run ${invocation.tmuxPath} (${error.code})`,
      subcommand,
      'spawn',
      null,
      stderr,
      error,
    );
  }
  if (error.killed === true) {
    return tmuxCommandError(
      `tmux ${subcommand} timed out after ${invocation.timeoutMs} ms`,
      subcommand,
      'timeout',
      null,
      stderr,
      error,
    );
  }
  const exit_code = typeof error.code === 'number' ? error.code : null;
  const status =
    exit_code === null ? `was killed by ${error.signal ?? 'a signal'}` : `exited with code ${exit_code}`;
  return tmuxCommandError(
    `tmux ${subcommand} ${status}${stderr === '' ? '' : `: ${stderr}`}`,
    subcommand,
    'exit',
    exit_code,
    stderr,
    error,
  );
}

function tmuxCommandError(
  message: string,
  subcommand: string,
  failure: TmuxFailure,
  exit_code: number | null,
  stderr: string,
  cause: ExecError,
): AgentConnectorError {
  return new AgentConnectorError('tmux_command_failed', message, {
    details: { subcommand, failure, exit_code, stderr },
    cause,
  });
}

/** Whether `error` is the `tmux_command_failed` error of {@link runTmux}, optionally of one `failure` kind. */
export function isTmuxCommandError(error: unknown, failure?: TmuxFailure): error is AgentConnectorError {
  return (
    error instanceof AgentConnectorError &&
    error.code === 'tmux_command_failed' &&
    (failure === undefined || error.details.failure === failure)
  );
}

/** The text a delivery types into a pane, and how many characters were left out to get it. */
export interface TypedText {
  /** What `send-keys -l` types: line breaks as LF, no other control characters, no trailing LF. */
  readonly text: string;
  /** How many control characters were removed (line breaks and tabs are not counted). */
  readonly removed: number;
}

/** C0 controls other than TAB and LF, DEL, and the C1 controls. */
const KEYSTROKE_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Turns a payload's text into what may be typed into a pane, where every character is a keystroke:
 * - line breaks (`\r\n`, `\r`, `\n`) become LF (`C-j`); a trailing run of them is dropped, since the
 *   submit key ends the text;
 * - other control characters (C0 but TAB, DEL, C1) are removed — typed, they would act as keys
 *   (`C-c` interrupts, `C-d` ends input, `ESC` starts a terminal sequence), not as text;
 * - everything else, Unicode included, is kept as written.
 *
 * @example
 * typedText('deploy\r\nnow\u0003\n'); // { text: 'deploy\nnow', removed: 1 }
 */
export function typedText(raw: string): TypedText {
  const lines = raw.replace(/\r\n?/g, '\n');
  let removed = 0;
  const text = lines
    .replace(KEYSTROKE_CONTROLS, () => {
      removed += 1;
      return '';
    })
    .replace(/\n+$/, '');
  return { text, removed };
}

/**
 * Splits `text` into consecutive pieces of at most `maxBytes` UTF-8 bytes each, never inside a code
 * point; joined, the pieces are `text`. `''` gives `[]`. (A lone surrogate counts as the 3 bytes of the
 * U+FFFD it is encoded as.)
 *
 * @example
 * chunkUtf8('héllo', 3); // ['hé', 'llo']
 */
export function chunkUtf8(text: string, maxBytes: number): readonly string[] {
  const chunks: string[] = [];
  let chunk = '';
  let bytes = 0;
  for (const codePoint of text) {
    const size = utf8Length(codePoint.codePointAt(0) ?? 0);
    if (bytes + size > maxBytes && chunk !== '') {
      chunks.push(chunk);
      chunk = '';
      bytes = 0;
    }
    chunk += codePoint;
    bytes += size;
  }
  if (chunk !== '') chunks.push(chunk);
  return chunks;
}

function utf8Length(codePoint: number): number {
  if (codePoint <= 0x7f) return 1;
  if (codePoint <= 0x7ff) return 2;
  return codePoint <= 0xffff ? 3 : 4;
}

/**
 * The `-t` argument for `target`: `=<session>:<window>.<pane>`, with `=` before the session (and before a
 * window name) so tmux matches it exactly — without it, `-t s1` may pick `s10` by prefix or by pattern.
 *
 * @example
 * tmuxTargetArgument({ session: 'perry', window: '0', pane: '1' });      // '=perry:0.1'
 * tmuxTargetArgument({ session: 'perry', window: 'agent', pane: '0' });  // '=perry:=agent.0'
 */
export function tmuxTargetArgument(target: TmuxPaneTarget): string {
  const window = isIndex(target.window) ? target.window : `=${target.window}`;
  return `=${target.session}:${window}.${target.pane}`;
}

/** `<session>:<window>.<pane>` as configured: the pane's name in receipts and messages. */
export function paneLabel(target: TmuxPaneTarget): string {
  return `${target.session}:${target.window}.${target.pane}`;
}

/**
 * Whether the pane `targetArgument` (an exact `-t` argument, see `tmuxTargetArgument`) exists: resolves
 * `undefined` when it does, and tmux's error when tmux says it does not — no server on the socket, no
 * such session, window or pane (an `exit` failure, `stderr` naming what is missing).
 *
 * The check is `capture-pane -p -t <target> -S 0 -E 0` (prints the pane's first visible line, which is
 * dropped; nothing in the pane changes). `display-message -p -t <target>` would not do: it may fall back
 * to another pane instead of failing when the target is missing (tmux 3.3a does).
 *
 * @throws {AgentConnectorError} `tmux_command_failed`: `spawn` (tmux could not be started) or `timeout`: the
 *   check itself failed.
 */
export async function probePane(
  invocation: TmuxInvocation,
  targetArgument: string,
): Promise<AgentConnectorError | undefined> {
  try {
    await runTmux(invocation, ['capture-pane', '-p', '-t', targetArgument, '-S', '0', '-E', '0']);
    return undefined;
  } catch (error) {
    if (isTmuxCommandError(error, 'exit')) return error;
    throw error;
  }
}

/** Spawn errors that a retry cannot fix: the binary is missing or not executable. */
const SETUP_ERROR_CODES: ReadonlySet<string> = new Set(['ENOENT', 'EACCES', 'ENOTDIR', 'ELOOP']);

/**
 * The `DeliveryFailedError` for a failed tmux command while typing into `pane`:
 * - `timeout`: tmux did not finish within `timeoutMs` (retryable);
 * - `network`: tmux ran and failed — no server on the socket, no such session, window or pane — the
 *   substrate could not take the delivery, retryable once the pane is back (`wake()` reports a missing
 *   pane as `woken: false` and only gets here when it vanishes after the check); also spawn errors other
 *   than those below (`EAGAIN`, `ENOMEM`);
 * - `client_validation`: tmux could not be started (`ENOENT`, `EACCES` …): a setup fault, not retryable.
 */
export function deliveryFault(
  error: unknown,
  agent_id: string,
  action: 'deliver' | 'wake',
  pane: string,
): DeliveryFailedError {
  const message = `${action} to tmux pane ${pane} failed: ${error instanceof Error ? error.message : String(error)}`;
  return new DeliveryFailedError(message, { agent_id, cause_kind: causeKind(error), cause: error });
}

function causeKind(error: unknown): DeliveryFailureKind {
  if (!isTmuxCommandError(error)) return 'network';
  if (error.details.failure === 'timeout') return 'timeout';
  if (error.details.failure === 'spawn') {
    const code = (error.cause as NodeJS.ErrnoException | undefined)?.code;
    return code !== undefined && SETUP_ERROR_CODES.has(code) ? 'client_validation' : 'network';
  }
  return 'network';
}
