import {
  AGENT_CONNECTOR_CONTRACT_VERSION,
  type AgentConnector,
  type AgentDescriptor,
  type AgentResponse,
  type AgentStatus,
  type DeliveryPayload,
  type DeliveryReceipt,
  parseDeliveryPayload,
  parseWakeOpts,
  type StaticCapabilities,
  type WakeOpts,
  type WakeReceipt,
} from './contract/agent-connector.js';
import { AgentConnectorError, NotImplementedError } from './contract/errors.js';

/** Options of {@link NoOpAgentConnector}. */
export interface NoOpAgentConnectorOptions {
  /**
   * Receives one line per dropped delivery or wake. Default `console.error` (the reference writes to
   * stderr, so a missing connector is visible); `null` silences it.
   */
  readonly log?: ((line: string) => void) | null;
  /** Clock for receipt timestamps (unix ms); default `Date.now`. */
  readonly now?: () => number;
}

/**
 * The connector used when none is wired: accepts everything and delivers nothing. `list_agents()` is
 * empty, `deliver()` returns `{ delivered_at }`, `wake()` returns `{ woken_at, woken: false }`,
 * `health_check()` is `true`, `agent_status()` is `'unknown'`, `request_response()` throws
 * `NotImplementedError` — the reference NoOp's behaviour, with the contract's error class. Inputs are
 * still validated, so a caller's mistake surfaces here as it would with a real connector.
 *
 * @example
 * const connector = registry.getOrDefault('primary'); // a NoOpAgentConnector when nothing is registered
 * await connector.wake('perry@kitchen'); // { woken_at: 1767225600000, woken: false }
 */
export class NoOpAgentConnector implements AgentConnector {
  readonly #log: ((line: string) => void) | null;
  readonly #now: () => number;

  constructor(options: NoOpAgentConnectorOptions = {}) {
    this.#log = options.log === undefined ? (line) => console.error(line) : options.log;
    this.#now = options.now ?? Date.now;
  }

  /** Every method but `request_response` works. */
  static staticCapabilities(): StaticCapabilities {
    return {
      connector_type: 'agent_connector',
      implementation: 'NoOpAgentConnector',
      contract_version: AGENT_CONNECTOR_CONTRACT_VERSION,
      features: { deliver: true, wake: true, list_agents: true, agent_status: true, health_check: true },
    };
  }

  /** Always `[]`: the NoOp claims no address during fan-out. */
  async list_agents(): Promise<readonly AgentDescriptor[]> {
    return [];
  }

  /**
   * Drops the payload and acknowledges it.
   *
   * @throws {AgentConnectorError} `invalid_agent_address`: `agent_id` is not a string.
   * @throws {AgentConnectorError} `invalid_contract_value`: `payload` is not a valid `DeliveryPayload`.
   */
  async deliver(agent_id: string, payload: DeliveryPayload): Promise<DeliveryReceipt> {
    requireAgentId(agent_id);
    const { kind, meta } = parseDeliveryPayload(payload);
    // The reference connector's line, word for word.
    this.#log?.(
      `[NoOpAgentConnector] deliver(${agent_id}, kind=${kind}, dispatch_id=${meta.dispatch_id}) — no substrate wired; payload discarded.`,
    );
    return { delivered_at: this.#now() };
  }

  /**
   * Drops the wake and reports it was not woken.
   *
   * @throws {AgentConnectorError} `invalid_agent_address`: `agent_id` is not a string.
   * @throws {AgentConnectorError} `invalid_contract_value`: `opts` is not a valid `WakeOpts`.
   */
  async wake(agent_id: string, opts?: WakeOpts): Promise<WakeReceipt> {
    requireAgentId(agent_id);
    parseWakeOpts(opts);
    this.#log?.(`[NoOpAgentConnector] wake(${agent_id}) — no substrate wired; wake skipped.`);
    return { woken_at: this.#now(), woken: false };
  }

  /** Always `true`. */
  async health_check(): Promise<boolean> {
    return true;
  }

  /** Always `'unknown'`. */
  async agent_status(): Promise<AgentStatus> {
    return 'unknown';
  }

  /** @throws {NotImplementedError} always. */
  async request_response(): Promise<AgentResponse> {
    throw new NotImplementedError('request_response', 'NoOpAgentConnector');
  }
}

function requireAgentId(agent_id: unknown): void {
  if (typeof agent_id !== 'string') {
    throw new AgentConnectorError(
      'invalid_agent_address',
      `agent_id must be a string, got ${agent_id === null ? 'null' : typeof agent_id}`,
      { path: 'agent_id' },
    );
  }
}
