/**
 * Base class of every error `@agentwire/agent-connector` throws: catch it to handle them all. `code` is a
 * stable, machine-readable identifier of the condition; `cause` keeps the underlying error, if any.
 */
export abstract class AgentConnectorError extends Error {
  abstract readonly code: string;
}

/**
 * Why a delivery failed, as `DeliveryFailedError.cause_kind` reports it (the reference webhook's five values):
 * - `network`: the request never got an answer (connection refused or reset, DNS, TLS);
 * - `timeout`: no answer within the connector's time limit;
 * - `http_status`: the substrate answered with an error status (`http_status` holds it);
 * - `malformed_response`: the substrate answered, but with something the connector cannot read;
 * - `client_validation`: refused before anything was sent (unknown `agent_id`, missing configuration).
 */
export type DeliveryFailureKind =
  | 'network'
  | 'timeout'
  | 'http_status'
  | 'malformed_response'
  | 'client_validation';

/** Every {@link DeliveryFailureKind}, in the order the contract lists them. */
export const DELIVERY_FAILURE_KINDS: readonly DeliveryFailureKind[] = [
  'network',
  'timeout',
  'http_status',
  'malformed_response',
  'client_validation',
];

/** What a connector knows about a failed `deliver()` / `wake()`. */
export interface DeliveryFailureDetails {
  /** The `agent_id` the caller addressed, exactly as passed to the connector. */
  readonly agent_id: string;
  readonly cause_kind: DeliveryFailureKind;
  /** The substrate's HTTP status for `http_status` failures; `null` (the default) otherwise. */
  readonly http_status?: number | null;
  /** The underlying error (a fetch rejection, a parse error …). */
  readonly cause?: unknown;
}

/**
 * A connector could not deliver to (or wake) an agent: the operational fault the contract says must throw,
 * as opposed to a capability gap (`woken: false`) or an accepted-but-not-pushed delivery
 * (`delivery_skipped: true`). Fields and `cause_kind` values are the reference webhook's.
 *
 * @example
 * throw new DeliveryFailedError(`HTTP 503 from ${url}`, { agent_id, cause_kind: 'http_status', http_status: 503 });
 */
export class DeliveryFailedError extends AgentConnectorError {
  override readonly name = 'DeliveryFailedError';
  readonly code = 'delivery_failed';
  readonly agent_id: string;
  readonly cause_kind: DeliveryFailureKind;
  readonly http_status: number | null;

  constructor(message: string, details: DeliveryFailureDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.agent_id = details.agent_id;
    this.cause_kind = details.cause_kind;
    this.http_status = details.http_status ?? null;
  }

  /**
   * Whether sending the same payload again (with the same `dispatch_id`, so receivers can dedupe) may
   * succeed:
   * - `network`, `timeout`: yes — transient; a timed-out request may have arrived, which the
   *   `dispatch_id` dedupe covers;
   * - `http_status`: only for 408, 425, 429 and 5xx other than 501 and 505 (those two are structural);
   * - `malformed_response`: no — the substrate answered, so the delivery may have been accepted;
   * - `client_validation`: no — nothing was sent and the same call fails the same way.
   */
  get retryable(): boolean {
    if (this.cause_kind === 'network' || this.cause_kind === 'timeout') return true;
    if (this.cause_kind === 'http_status')
      return this.http_status !== null && isRetryableStatus(this.http_status);
    return false;
  }
}

function isRetryableStatus(status: number): boolean {
  if (status === 408 || status === 425 || status === 429) return true;
  return status >= 500 && status <= 599 && status !== 501 && status !== 505;
}

/**
 * A contract method the connector does not implement yet — today `request_response`, which stays
 * unimplemented until the runtime ships `exchange()`. The message contains "not implemented", as the
 * reference connectors' plain errors do.
 *
 * @example
 * async request_response(): Promise<never> {
 *   throw new NotImplementedError('request_response', 'MyConnector');
 * }
 */
export class NotImplementedError extends AgentConnectorError {
  override readonly name = 'NotImplementedError';
  readonly code = 'not_implemented';
  /** The contract method name, e.g. `request_response`. */
  readonly method: string;

  constructor(method: string, implementation?: string, options?: ErrorOptions) {
    const owner = implementation === undefined ? '' : `${implementation}.`;
    super(`${owner}${method}() is not implemented`, options);
    this.method = method;
  }
}

/** The contract value a parse function was reading when it failed. */
export type ContractValueType =
  | 'AgentDescriptor'
  | 'AgentDescriptor[]'
  | 'AgentStatus'
  | 'DeliveryMeta'
  | 'DeliveryMetaInit'
  | 'DeliveryPayload'
  | 'DeliveryReceipt'
  | 'RequestResponseOpts'
  | 'AgentResponse'
  | 'StaticCapabilities'
  | 'WakeOpts'
  | 'WakeReceipt';

/**
 * A value does not have the shape the contract gives it (a receipt without a numeric `delivered_at`, a
 * payload of an unknown `kind`, `null` in an optional field …). `path` names the first failing field as a
 * JSON path (`$` for the value itself, `$.meta.origin.skill_name`, `$.warnings[0]`).
 */
export class InvalidContractValueError extends AgentConnectorError {
  override readonly name = 'InvalidContractValueError';
  readonly code = 'invalid_contract_value';
  readonly contract_type: ContractValueType;
  readonly path: string;

  constructor(contract_type: ContractValueType, path: string, rule: string, options?: ErrorOptions) {
    super(`invalid ${contract_type} at ${path}: ${rule}`, options);
    this.contract_type = contract_type;
    this.path = path;
  }
}

/** A value handed over as an `AgentConnector` lacks required methods (a non-object lacks them all). */
export class InvalidAgentConnectorError extends AgentConnectorError {
  override readonly name = 'InvalidAgentConnectorError';
  readonly code = 'invalid_agent_connector';
  /** The required methods that are missing or not functions, in contract order. */
  readonly missing: readonly string[];

  /** `subject` names the value in the message, e.g. `connector 'primary'`. */
  constructor(missing: readonly string[], subject = 'value') {
    super(`${subject} is not an AgentConnector: missing method(s) ${missing.join(', ')}`);
    this.missing = missing;
  }
}
