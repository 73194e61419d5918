import { randomUUID } from 'node:crypto';
import { access, constants, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '@agentwire/internal/node';
import { parseAgentAddress, resolveSessionId } from '../address.js';
import {
  AGENT_CONNECTOR_CONTRACT_VERSION,
  type AgentCapability,
  type AgentConnector,
  type AgentDescriptor,
  type AgentResponse,
  type DeliveryKind,
  type DeliveryPayload,
  type DeliveryReceipt,
  parseDeliveryPayload,
  parseWakeOpts,
  type StaticCapabilities,
  type WakeOpts,
  type WakeReceipt,
} from '../contract/agent-connector.js';
import { AgentConnectorError, DeliveryFailedError, NotImplementedError } from '../contract/errors.js';

/** Options of {@link FileDropAgentConnector}. */
export interface FileDropAgentConnectorOptions {
  /** The drop directory; must exist. Relative paths are resolved against the working directory once. */
  readonly dir: string;
  /**
   * The agents this connector serves. When given, `list_agents()` returns them and any other agent is
   * refused; when absent, any safe agent id is accepted and `list_agents()` reads the sub-folders.
   */
  readonly agents?: readonly string[];
  /** Clock for receipt timestamps (unix ms); default `Date.now`. */
  readonly now?: () => number;
}

/** What every listed agent can take: files carry both kinds; nothing interrupts the agent. */
const DROP_CAPABILITIES: readonly AgentCapability[] = ['deliver', 'augment', 'template'];

/**
 * A passive substrate: every delivery becomes one JSON file that the agent (or a poller) picks up later.
 *
 * - Layout: `<dir>/<agent>/<dispatch_id>.json` for `deliver()`, `<dir>/<agent>/wake-<uuid>.json` for
 *   `wake()`; contents are a `DeliveryDropDocument` / `WakeDropDocument`, bytes as
 *   `serializeDropDocument` writes them. `<agent>` is the text before the first `@` of the address
 *   (`parseAgentAddress`), so `perry` and `perry@kitchen` share the folder `perry`; the session
 *   (`resolveSessionId`, `opts.session_id` first for `wake()`) is written into the file as `session_id`
 *   and echoed on the receipt. The folder is created on first use; `dir` itself must exist.
 * - Atomic and idempotent: a file is written under a hidden `.<name>.<random hex>.tmp` name and renamed into place, so
 *   a `*.json` file is always complete. Delivering the same `dispatch_id` again with the same content is
 *   a no-op (the receipt carries a warning); different content is refused and the first file kept.
 * - `wake()` cannot interrupt: it writes the wake file (the context, when given) and returns
 *   `woken: false`, as the contract asks of passive substrates. A numeric `when` is written, not scheduled.
 * - Errors: an agent folder name or `dispatch_id` that is not a safe file name (empty, `.`, `..`, `/`,
 *   `\`, control characters, over 255 bytes), an unconfigured agent, a missing `dir`, a conflicting
 *   `dispatch_id` or a payload JSON cannot carry → `DeliveryFailedError` with `cause_kind:
 *   'client_validation'`; file-system faults → `cause_kind: 'network'` (see `deliveryFault`).
 *
 * @example
 * const connector = new FileDropAgentConnector({ dir: '/var/spool/agents', agents: ['perry'] });
 * await connector.deliver('perry', payload);
 * // → /var/spool/agents/perry/<payload.meta.dispatch_id>.json
 * // { delivered_at: 1767225600000, delivery_id: 'perry/<dispatch_id>.json' }
 */
export class FileDropAgentConnector implements AgentConnector {
  /** The absolute drop directory. */
  readonly dir: string;
  readonly #agents: readonly string[] | undefined;
  readonly #now: () => number;

  /** @throws {AgentConnectorError} `invalid_file_drop_config`: `dir` is not a non-empty string, or an agent id is unsafe. */
  constructor(options: FileDropAgentConnectorOptions) {
    const dir: unknown = options?.dir;
    if (typeof dir !== 'string' || dir === '' || dir.includes('\u0000')) {
      throw new AgentConnectorError(
        'invalid_file_drop_config',
        'FileDropAgentConnector: dir must be a non-empty path string',
        { path: 'dir' },
      );
    }
    this.dir = resolve(dir);
    this.#agents = options.agents === undefined ? undefined : configuredAgents(options.agents);
    this.#now = options.now ?? Date.now;
  }

  /** Delivers and wakes (degraded), lists agents and checks health; `request_response` is not implemented. */
  static staticCapabilities(): StaticCapabilities {
    return {
      connector_type: 'agent_connector',
      implementation: 'FileDropAgentConnector',
      contract_version: AGENT_CONNECTOR_CONTRACT_VERSION,
      features: { deliver: true, wake: true, list_agents: true, health_check: true },
    };
  }

  /**
   * The configured agents, or else every sub-folder of `dir` whose name is a safe agent id and does not
   * start with `.`, sorted by code unit. Symbolic links are not followed.
   *
   * @throws {AgentConnectorError} `file_drop_directory_unreadable`: `dir` cannot be read (missing, not a
   *   directory, no permission).
   */
  async list_agents(): Promise<readonly AgentDescriptor[]> {
    const ids = this.#agents ?? (await this.#agentFolders());
    return ids.map((agent_id) => ({ agent_id, capabilities: [...DROP_CAPABILITIES] }));
  }

  /**
   * Writes `payload` to `<dir>/<agent>/<payload.meta.dispatch_id>.json` and returns
   * `{ delivered_at, delivery_id: '<agent>/<dispatch_id>.json', session_id? }`; a retry that finds the
   * identical file adds a `warnings` entry instead of rewriting it.
   *
   * @throws {AgentConnectorError} `invalid_agent_address`: `agent_id` is not a string.
   * @throws {AgentConnectorError} `invalid_contract_value`: `payload` is not a valid `DeliveryPayload`.
   * @throws {DeliveryFailedError} see the class description for `cause_kind`.
   */
  async deliver(agent_id: string, payload: DeliveryPayload): Promise<DeliveryReceipt> {
    const { agent } = parseAgentAddress(agent_id);
    const parsed = parseDeliveryPayload(payload);
    this.#requireAgent(agent_id, agent);
    const { dispatch_id } = parsed.meta;
    const unsafe = unsafeSegmentReason(dispatch_id, MAX_DISPATCH_ID_BYTES);
    if (unsafe !== undefined) {
      throw refusal(agent_id, `dispatch_id ${JSON.stringify(dispatch_id)} ${unsafe}`);
    }
    const session_id = resolveSessionId(agent_id);
    const content = serialize(agent_id, {
      agent_id,
      ...(session_id === undefined ? {} : { session_id }),
      kind: parsed.kind,
      payload: parsed,
    });
    const name = `${dispatch_id}.json`;
    const outcome = await this.#publish(agent_id, agent, name, content, 'deliver');
    return {
      delivered_at: this.#now(),
      delivery_id: `${agent}/${name}`,
      ...(session_id === undefined ? {} : { session_id }),
      ...(outcome === 'unchanged'
        ? { warnings: [`duplicate dispatch_id: ${agent}/${name} already holds this delivery; not rewritten`] }
        : {}),
    };
  }

  /**
   * Degrades to delivery: writes `<dir>/<agent>/wake-<uuid>.json` with the context and returns
   * `{ woken_at, woken: false, session_id? }`, plus a warning when `opts.when` asked for a scheduled wake.
   *
   * @throws {AgentConnectorError} `invalid_agent_address`: `agent_id` or `opts.session_id` is not a string.
   * @throws {AgentConnectorError} `invalid_contract_value`: `opts` is not a valid `WakeOpts`.
   * @throws {DeliveryFailedError} see the class description for `cause_kind`.
   */
  async wake(agent_id: string, opts?: WakeOpts): Promise<WakeReceipt> {
    const { agent } = parseAgentAddress(agent_id);
    const { context, when } = parseWakeOpts(opts);
    this.#requireAgent(agent_id, agent);
    const session_id = resolveSessionId(agent_id, opts);
    const content = serialize(agent_id, {
      agent_id,
      ...(session_id === undefined ? {} : { session_id }),
      kind: 'wake',
      ...(context === undefined ? {} : { context }),
      ...(when === undefined ? {} : { when }),
    });
    await this.#publish(agent_id, agent, `wake-${randomUUID()}.json`, content, 'wake');
    return {
      woken_at: this.#now(),
      woken: false,
      ...(session_id === undefined ? {} : { session_id }),
      ...(typeof when === 'number'
        ? { warnings: ['scheduled wake not supported by file-drop: written immediately'] }
        : {}),
    };
  }

  /** `true` when `dir` is a directory this process may create files in; `false` (never a throw) otherwise. */
  async health_check(): Promise<boolean> {
    try {
      if (!(await stat(this.dir)).isDirectory()) return false;
      await access(this.dir, constants.W_OK | constants.X_OK);
      return true;
    } catch {
      return false;
    }
  }

  /** @throws {NotImplementedError} always. */
  async request_response(): Promise<AgentResponse> {
    throw new NotImplementedError('request_response', 'FileDropAgentConnector');
  }

  #requireAgent(agent_id: string, agent: string): void {
    const unsafe = unsafeSegmentReason(agent);
    if (unsafe !== undefined) {
      throw refusal(agent_id, `agent folder name ${JSON.stringify(agent)} ${unsafe}`);
    }
    if (this.#agents !== undefined && !this.#agents.includes(agent)) {
      const wired = this.#agents.length === 0 ? '(none)' : this.#agents.join(', ');
      throw refusal(agent_id, `Agent '${agent}' is not configured. Wired agents: ${wired}.`);
    }
  }

  async #publish(
    agent_id: string,
    agent: string,
    name: string,
    content: string,
    action: 'deliver' | 'wake',
  ): Promise<'written' | 'unchanged'> {
    const folder = join(this.dir, agent);
    try {
      await mkdir(folder);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        throw refusal(agent_id, `drop directory ${this.dir} does not exist`, error);
      }
      if (code !== 'EEXIST') throw deliveryFault(error, agent_id, `file-drop ${action}`);
    }
    try {
      return await publishFileOnce(folder, name, content);
    } catch (error) {
      throw deliveryFault(error, agent_id, `file-drop ${action}`);
    }
  }

  async #agentFolders(): Promise<readonly string[]> {
    let entries: readonly { readonly name: string; isDirectory(): boolean }[];
    try {
      entries = await readdir(this.dir, { withFileTypes: true });
    } catch (error) {
      throw new AgentConnectorError(
        'file_drop_directory_unreadable',
        `cannot list agent folders in ${this.dir}`,
        {
          details: { file: this.dir },
          cause: error,
        },
      );
    }
    return entries
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
      .map((entry) => entry.name)
      .filter((name) => unsafeSegmentReason(name) === undefined)
      .sort();
  }
}

function configuredAgents(agents: unknown): readonly string[] {
  if (!Array.isArray(agents)) {
    throw new AgentConnectorError(
      'invalid_file_drop_config',
      'FileDropAgentConnector: agents must be an array of strings',
      { path: 'agents' },
    );
  }
  const ids: string[] = [];
  for (const id of agents as unknown[]) {
    if (typeof id !== 'string') {
      throw new AgentConnectorError(
        'invalid_file_drop_config',
        'FileDropAgentConnector: agents must be an array of strings',
        { path: 'agents' },
      );
    }
    const unsafe = unsafeSegmentReason(id) ?? (id.includes('@') ? "contains '@'" : undefined);
    if (unsafe !== undefined) {
      throw new AgentConnectorError(
        'invalid_file_drop_config',
        `FileDropAgentConnector: agent id ${JSON.stringify(id)} ${unsafe}; it must be a folder name`,
        { path: 'agents' },
      );
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

function serialize(agent_id: string, document: DropDocument): string {
  try {
    return serializeDropDocument(document);
  } catch (error) {
    throw refusal(agent_id, 'the payload cannot be written as JSON', error);
  }
}

function refusal(agent_id: string, message: string, cause?: unknown): DeliveryFailedError {
  return new DeliveryFailedError(message, {
    agent_id,
    cause_kind: 'client_validation',
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * The JSON object `deliver()` writes to `<dir>/<agent>/<dispatch_id>.json`, keys in this order:
 * `agent_id` (the address exactly as passed, `agent@session` included), `session_id` (only when one was
 * resolved), `kind` (the payload's kind, repeated so a reader can route without opening `payload`) and
 * `payload` (the validated payload with its `meta`, unknown keys kept). No timestamp is written, so a retry
 * of the same dispatch produces the same bytes; `payload.meta.sent_at` is the emit time.
 */
export interface DeliveryDropDocument {
  readonly agent_id: string;
  readonly session_id?: string;
  readonly kind: DeliveryKind;
  readonly payload: DeliveryPayload;
}

/**
 * The JSON object `wake()` writes to `<dir>/<agent>/wake-<uuid>.json`: `agent_id`, `session_id` (when
 * resolved), `kind: 'wake'`, then `context` and `when` when `WakeOpts` carried them.
 */
export interface WakeDropDocument {
  readonly agent_id: string;
  readonly session_id?: string;
  readonly kind: 'wake';
  readonly context?: string;
  readonly when?: 'immediate' | number;
}

/** Any file a `FileDropAgentConnector` writes; discriminated on `kind`. */
export type DropDocument = DeliveryDropDocument | WakeDropDocument;

/**
 * The exact bytes of a drop file: `JSON.stringify` with 2-space indentation, characters outside ASCII
 * written raw (UTF-8), followed by one `\n`.
 *
 * @throws {TypeError} a value JSON cannot carry (a `bigint` in an unknown payload key).
 */
export function serializeDropDocument(document: DropDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** `written`: the file was created; `unchanged`: an identical file was already there. */
export type PublishOutcome = 'written' | 'unchanged';

/**
 * Publishes `content` as `<folder>/<name>` so that readers never see a partial file, and at most once:
 * - an existing file with identical bytes is left alone (`unchanged`), one with different bytes is kept
 *   and `dispatch_id_conflict` {@link AgentConnectorError} is thrown;
 * - otherwise the bytes go to a hidden `<folder>/.<name>.<random hex>.tmp` (never `*.json`), are flushed
 *   with `fsync`, and the temp file is renamed onto `name` — atomic within one file system. A failed
 *   write removes the temp file.
 *
 * Two concurrent publishers of different bytes under one name both pass the existence check and the
 * last rename wins; a `dispatch_id` names one emit, so only retries with identical bytes collide.
 *
 * @throws {AgentConnectorError} `dispatch_id_conflict`: a different file already exists under `name`.
 * @throws {NodeJS.ErrnoException} the file system refused a read, write or rename.
 */
export async function publishFileOnce(
  folder: string,
  name: string,
  content: string,
): Promise<PublishOutcome> {
  const target = join(folder, name);
  const existing = await readExisting(target);
  if (existing !== undefined) {
    if (existing === content) return 'unchanged';
    throw new AgentConnectorError(
      'dispatch_id_conflict',
      `a different dispatch file already exists at ${target}`,
      {
        details: { file: target },
      },
    );
  }
  await writeFileAtomic(target, content);
  return 'written';
}

async function readExisting(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Longest file name, in UTF-8 bytes, that common file systems accept (`NAME_MAX`). */
const MAX_NAME_BYTES = 255;

const utf8 = new TextEncoder();

/**
 * Why `name` cannot be used as one path segment (a folder or file name inside the drop directory), or
 * `undefined` when it can. Refused: the empty string, `.` and `..`, `/` and `\` (path separators on POSIX
 * and Windows), NUL and the other C0 control characters and DEL, and names longer than
 * `maxBytes` UTF-8 bytes. Nothing is trimmed or normalised: the name is used exactly as given.
 */
export function unsafeSegmentReason(name: string, maxBytes = MAX_NAME_BYTES): string | undefined {
  if (name === '') return 'is empty';
  if (name === '.' || name === '..') return `is '${name}'`;
  if (name.includes('/') || name.includes('\\')) return 'contains a path separator';
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'contains a control character';
  if (utf8.encode(name).length > maxBytes) return `is longer than ${maxBytes} UTF-8 bytes`;
  return undefined;
}

/** The longest `dispatch_id` in UTF-8 bytes: room for the `.json` suffix within `NAME_MAX`. */
export const MAX_DISPATCH_ID_BYTES = MAX_NAME_BYTES - '.json'.length;

/**
 * The `DeliveryFailedError` for a failed file-drop write. A `dispatch_id_conflict` `AgentConnectorError` is
 * the caller's mistake (`client_validation`, not retryable). Every file-system fault
 * (`EACCES`, `EROFS`, `ENOSPC`, `EIO`, …) is `network`: the contract has no storage kind, and `network` is
 * the one that means "the substrate could not take the delivery", retryable — a retry with the same
 * `dispatch_id` is idempotent, so retrying a permanent fault costs nothing but the attempt.
 */
export function deliveryFault(error: unknown, agent_id: string, action: string): DeliveryFailedError {
  if (error instanceof AgentConnectorError && error.code === 'dispatch_id_conflict') {
    return new DeliveryFailedError(`${action} refused: ${error.message}`, {
      agent_id,
      cause_kind: 'client_validation',
      cause: error,
    });
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const detail = error instanceof Error ? error.message : String(error);
  return new DeliveryFailedError(`${action} failed${code === undefined ? '' : ` (${code})`}: ${detail}`, {
    agent_id,
    cause_kind: 'network',
    cause: error,
  });
}
