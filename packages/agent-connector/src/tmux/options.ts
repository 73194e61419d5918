import { describeValue } from '@agentwire/internal';
import { AgentConnectorError } from '../contract/errors.js';

/** Where an agent's pane lives: a tmux session, and optionally a window and a pane in it. */
export interface TmuxPaneAddress {
  /** The tmux session name, matched exactly; must not contain `:` or `.`. */
  readonly session: string;
  /**
   * A window index (a non-negative integer, or a string of decimal digits) or a window name (matched
   * exactly; must not contain `:` or `.`); default `0`.
   */
  readonly window?: number | string;
  /** A pane index (a non-negative integer, or a string of decimal digits); default `0`. */
  readonly pane?: number | string;
}

/** Options of `TmuxAgentConnector`. */
export interface TmuxAgentConnectorOptions {
  /**
   * Agent id → the pane it runs in: a session name (window `0`, pane `0`) or a `TmuxPaneAddress`.
   * Key order is `list_agents()` order. Ids are matched against the part of an address before its first
   * `@`, so an id must be non-empty and must not contain `@`.
   */
  readonly sessions: Readonly<Record<string, string | TmuxPaneAddress>>;
  /** The tmux binary, looked up on `PATH` unless it contains a `/`; default `'tmux'`. */
  readonly tmuxPath?: string;
  /** Server socket name (`tmux -L`), for a server other than the default one. */
  readonly socketName?: string;
  /** Server socket path (`tmux -S`); exclusive with `socketName`. */
  readonly socketPath?: string;
  /** Limit of each tmux command, in ms (an integer ≥ 1); default 5000. */
  readonly timeoutMs?: number;
  /** Clock for receipts (unix ms); default `Date.now`. */
  readonly now?: () => number;
  /** The tmux key name pressed after the text (`send-keys` syntax: `Enter`, `C-m`, `M-Enter` …); default `'Enter'`. */
  readonly submitKey?: string;
  /**
   * The attention sequence `wake()` sends after the context: tmux key names (`send-keys` syntax, e.g.
   * `['Escape', 'Enter']`), pressed in order by one `send-keys`; default `[submitKey]`. A name tmux does
   * not know as a key is typed as its characters, as `send-keys` does.
   */
  readonly wakeKeys?: readonly string[];
}

/** {@link TmuxAgentConnectorOptions} after validation, defaults applied. */
export interface ResolvedTmuxOptions {
  readonly targets: ReadonlyMap<string, TmuxPaneTarget>;
  readonly tmuxPath: string;
  /** `['-L', name]`, `['-S', path]` or `[]`: the arguments before every tmux sub-command. */
  readonly serverArgs: readonly string[];
  readonly timeoutMs: number;
  readonly now: () => number;
  readonly submitKey: string;
  readonly wakeKeys: readonly string[];
}

/** Default `timeoutMs`: the limit of one tmux command. */
export const DEFAULT_TMUX_TIMEOUT_MS = 5000;

/** Longest timer the runtimes honour (2^31 - 1 ms). */
const MAX_TIMEOUT_MS = 2_147_483_647;

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * Validates constructor options and applies defaults.
 *
 * @throws {AgentConnectorError} `invalid_tmux_config`: naming the first invalid option.
 */
export function resolveTmuxOptions(options: TmuxAgentConnectorOptions): ResolvedTmuxOptions {
  if (options === null || typeof options !== 'object') {
    throw configError('options', 'options must be an object');
  }
  const { sessions, tmuxPath, socketName, socketPath, timeoutMs, now, submitKey, wakeKeys } = options;
  if (sessions === null || typeof sessions !== 'object' || Array.isArray(sessions)) {
    throw configError('sessions', 'sessions must be an object (map of agent_id → pane)');
  }
  requireText('tmuxPath', tmuxPath);
  requireText('socketName', socketName);
  requireText('socketPath', socketPath);
  if (socketName !== undefined && socketPath !== undefined) {
    throw configError('socketPath', 'give socketName or socketPath, not both');
  }
  if (
    timeoutMs !== undefined &&
    !(Number.isSafeInteger(timeoutMs) && timeoutMs >= 1 && timeoutMs <= MAX_TIMEOUT_MS)
  ) {
    throw configError(
      'timeoutMs',
      `timeoutMs must be an integer from 1 to ${MAX_TIMEOUT_MS} (got: ${String(timeoutMs)})`,
    );
  }
  if (now !== undefined && typeof now !== 'function') {
    throw configError('now', `now must be a function (got ${typeof now})`);
  }
  if (submitKey !== undefined) requireKeyName('submitKey', submitKey);
  const resolvedSubmitKey = submitKey ?? 'Enter';
  return {
    targets: resolveTargets(sessions),
    tmuxPath: tmuxPath ?? 'tmux',
    serverArgs:
      socketName !== undefined ? ['-L', socketName] : socketPath !== undefined ? ['-S', socketPath] : [],
    timeoutMs: timeoutMs ?? DEFAULT_TMUX_TIMEOUT_MS,
    now: now ?? Date.now,
    submitKey: resolvedSubmitKey,
    wakeKeys: wakeKeys === undefined ? [resolvedSubmitKey] : resolveWakeKeys(wakeKeys),
  };
}

function resolveWakeKeys(wakeKeys: unknown): readonly string[] {
  if (!Array.isArray(wakeKeys) || wakeKeys.length === 0) {
    const got = Array.isArray(wakeKeys) ? 'an empty array' : describeValue(wakeKeys);
    throw configError('wakeKeys', `wakeKeys must be a non-empty array of tmux key names (got ${got})`);
  }
  for (let index = 0; index < wakeKeys.length; index += 1) {
    requireKeyName(`wakeKeys[${index}]`, wakeKeys[index]);
  }
  return [...(wakeKeys as readonly string[])];
}

/** One tmux key name: a non-empty string without white space or control characters. */
function requireKeyName(setting: string, value: unknown): void {
  if (typeof value !== 'string' || value === '' || /\s/.test(value) || CONTROL_CHARACTER.test(value)) {
    throw configError(
      setting,
      `${setting} must be one tmux key name: non-empty, without white space (got ${describeValue(value)})`,
    );
  }
}

function resolveTargets(sessions: object): ReadonlyMap<string, TmuxPaneTarget> {
  const targets = new Map<string, TmuxPaneTarget>();
  for (const [agent_id, entry] of Object.entries(sessions)) {
    const setting = `sessions[${JSON.stringify(agent_id)}]`;
    if (agent_id === '' || agent_id.includes('@')) {
      throw configError(
        setting,
        `agent id ${JSON.stringify(agent_id)} must be non-empty and must not contain '@'`,
      );
    }
    targets.set(agent_id, resolveTarget(setting, entry));
  }
  return targets;
}

function resolveTarget(setting: string, entry: unknown): TmuxPaneTarget {
  if (typeof entry === 'string') return { session: sessionName(setting, entry), window: '0', pane: '0' };
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    throw configError(
      setting,
      `${setting} must be a session name or { session, window?, pane? } (got ${describeValue(entry)})`,
    );
  }
  const { session, window = 0, pane = 0 } = entry as Record<string, unknown>;
  return {
    session: sessionName(`${setting}.session`, session),
    window: windowReference(`${setting}.window`, window),
    pane: paneIndex(`${setting}.pane`, pane),
  };
}

function sessionName(setting: string, value: unknown): string {
  if (typeof value !== 'string' || !isName(value)) {
    throw configError(
      setting,
      `${setting} must be a tmux session name: non-empty, without ':', '.' or control characters (got ${describeValue(value)})`,
    );
  }
  return value;
}

function windowReference(setting: string, value: unknown): string {
  if (isIndexValue(value)) return String(value);
  if (typeof value !== 'string' || !isName(value)) {
    throw configError(
      setting,
      `${setting} must be a window index or a window name without ':', '.' or control characters (got ${describeValue(value)})`,
    );
  }
  return value;
}

function paneIndex(setting: string, value: unknown): string {
  if (!isIndexValue(value)) {
    throw configError(
      setting,
      `${setting} must be a pane index: a non-negative integer (got ${describeValue(value)})`,
    );
  }
  return String(value);
}

function isIndexValue(value: unknown): value is number | string {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0;
  return typeof value === 'string' && isIndex(value);
}

function isName(value: string): boolean {
  return value !== '' && !value.includes(':') && !value.includes('.') && !CONTROL_CHARACTER.test(value);
}

function requireText(setting: string, value: unknown): void {
  if (value !== undefined && (typeof value !== 'string' || value === '' || value.includes('\u0000'))) {
    throw configError(setting, `${setting} must be a non-empty string (got ${describeValue(value)})`);
  }
}

/**
 * The `invalid_tmux_config` error: `setting` (the error's `path`) is the option at fault (for one agent's
 * entry, `sessions["perry"]`).
 */
function configError(setting: string, message: string): AgentConnectorError {
  return new AgentConnectorError('invalid_tmux_config', `TmuxAgentConnector: ${message}`, { path: setting });
}

/**
 * One tmux pane, as the connector addresses it. `window` is an index (decimal digits) or a window name;
 * `pane` is an index.
 */
export interface TmuxPaneTarget {
  readonly session: string;
  readonly window: string;
  readonly pane: string;
}

/** Whether a window or pane reference is an index: one or more ASCII decimal digits. */
export function isIndex(reference: string): boolean {
  return /^[0-9]+$/.test(reference);
}
