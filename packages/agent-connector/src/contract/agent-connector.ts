import type { AgentDescriptor, AgentStatus } from './agent-descriptor.js';
import type { DeliveryPayload } from './delivery-payload.js';
import type { DeliveryReceipt } from './delivery-receipt.js';
import { AgentConnectorError } from './errors.js';
import type { AgentResponse, RequestResponseOpts } from './request-response.js';
import { parseStaticCapabilities, type StaticCapabilities } from './static-capabilities.js';
import type { WakeOpts, WakeReceipt } from './wake.js';

/**
 * The AgentConnector v1.0 contract: substrate-neutral delivery of payloads to an agent. The runtime calls
 * it; the adopter implements the substrate (webhook, file drop, tmux, …). Method names are the contract's.
 *
 * `agent_id` is opaque: a bare id (`alice`, an e-mail address) or an `agent@session` composite, passed
 * exactly as the caller wrote it (see `parseAgentAddress`).
 *
 * A connector may also have a `dispose()` method; `AgentConnectorRegistry.disposeAll()` calls it.
 */
export interface AgentConnector {
  /** Every agent this connector can reach; the runtime claims addresses against these ids. */
  list_agents(): Promise<readonly AgentDescriptor[]>;
  /** Delivers a payload; throws (`DeliveryFailedError`) only when delivery failed. */
  deliver(agent_id: string, payload: DeliveryPayload): Promise<DeliveryReceipt>;
  /**
   * Rouses the agent. Never throws because the substrate cannot interrupt: it delivers `opts.context`
   * instead and returns `woken: false`. Throws on misconfiguration and operational faults.
   */
  wake(agent_id: string, opts?: WakeOpts): Promise<WakeReceipt>;
  /** `true` when the substrate is reachable and configured. */
  health_check(): Promise<boolean>;
  /** Locked for the future `exchange()` op; throw `NotImplementedError` until the runtime supports it. */
  request_response(
    agent_id: string,
    payload: DeliveryPayload,
    opts: RequestResponseOpts,
  ): Promise<AgentResponse>;
  /** Presence metadata; optional, and never a reason to skip delivery. */
  agent_status?(agent_id: string): Promise<AgentStatus>;
}

/** A connector class: constructible, and declaring its capabilities statically. */
export interface AgentConnectorClass {
  new (...args: never): AgentConnector;
  staticCapabilities(): StaticCapabilities;
}

/** The methods every connector must have, in contract order (`agent_status` is optional). */
export const REQUIRED_AGENT_CONNECTOR_METHODS = [
  'list_agents',
  'deliver',
  'wake',
  'health_check',
  'request_response',
] as const;

/** Whether `value` has every required method of {@link AgentConnector} (and `agent_status`, if any, is one). */
export function isAgentConnector(value: unknown): value is AgentConnector {
  return missingMethods(value).length === 0;
}

/**
 * Asserts that `value` has every required method of {@link AgentConnector}; `subject` names it in the
 * error message (default `value`).
 *
 * @throws {AgentConnectorError} `invalid_agent_connector`, listing what is missing in `details.missing`.
 */
export function assertAgentConnector(value: unknown, subject = 'value'): asserts value is AgentConnector {
  const missing = missingMethods(value);
  if (missing.length > 0) {
    throw new AgentConnectorError(
      'invalid_agent_connector',
      `${subject} is not an AgentConnector: missing method(s) ${missing.join(', ')}`,
      { details: { missing } },
    );
  }
}

/**
 * The class of a connector instance — its `constructor` — when that class declares a static
 * `staticCapabilities()`; `undefined` otherwise (a plain-object connector, a class without the method).
 */
export function agentConnectorClassOf(connector: AgentConnector): AgentConnectorClass | undefined {
  const ctor: unknown = (connector as { readonly constructor?: unknown }).constructor;
  if (typeof ctor !== 'function') return undefined;
  const read: unknown = (ctor as { readonly staticCapabilities?: unknown }).staticCapabilities;
  return typeof read === 'function' ? (ctor as AgentConnectorClass) : undefined;
}

/**
 * The validated static capabilities of a connector instance's class, or `undefined` when the class has
 * no static `staticCapabilities()`.
 *
 * @throws {AgentConnectorError} `invalid_contract_value`: `staticCapabilities()` returned an invalid shape.
 */
export function staticCapabilitiesOf(connector: AgentConnector): StaticCapabilities | undefined {
  const ctor = agentConnectorClassOf(connector);
  return ctor === undefined ? undefined : parseStaticCapabilities(ctor.staticCapabilities());
}

function missingMethods(value: unknown): readonly string[] {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    return [...REQUIRED_AGENT_CONNECTOR_METHODS];
  }
  const record = value as Record<string, unknown>;
  const missing: string[] = REQUIRED_AGENT_CONNECTOR_METHODS.filter((m) => typeof record[m] !== 'function');
  if (record.agent_status !== undefined && typeof record.agent_status !== 'function')
    missing.push('agent_status');
  return missing;
}
