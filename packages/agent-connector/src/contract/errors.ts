/**
 * Every condition `@agentwire/agent-connector` refuses, as `AgentConnectorError.code` names it. A code is
 * stable: it never changes meaning, and fixtures and docs name it.
 *
 * Thrown as the separate classes the contract names (callers branch on them):
 * - `delivery_failed`: {@link DeliveryFailedError};
 * - `not_implemented`: {@link NotImplementedError};
 * - `skill_not_found`, `version_not_found`: {@link SkillNotFoundError};
 * - `unsupported_filter`: {@link UnsupportedFilterError}.
 *
 * Thrown as `AgentConnectorError` itself:
 * - `invalid_contract_value`: a value does not have the shape the contract gives it (a receipt without a
 *   numeric `delivered_at`, a payload of an unknown `kind`, `null` in an optional field …); `path` is the
 *   JSON path of the first failing field (`$`, `$.meta.origin.skill_name`, `$.warnings[0]`);
 * - `invalid_agent_connector`: a value handed over as an `AgentConnector` lacks required methods;
 * - `storage_conflict`: a `SkillStore.store()` write conflicts with what the store holds or allows (a
 *   name the substrate cannot hold, an explicit `metadata.author` that differs from the locked one);
 * - `storage_validation`: a value crossing the storage contract failed its rule (a helper's argument, a
 *   store's input, a record or manifest a store returned); `path` names the argument or field;
 * - `agent_connector_not_found`: `AgentConnectorRegistry.get()` found nothing under the name;
 * - `agent_connector_unhealthy`: `AgentConnectorRegistry.register()` refused a connector whose
 *   `health_check()` did not resolve to `true` (`cause` holds a rejection);
 * - `invalid_connector_name`: a registry name that is not a non-empty string;
 * - `invalid_dispatch_options`: `dispatch()` options of the wrong shape (`claim`, `restrictTo`, the
 *   connector list);
 * - `invalid_agent_address`: an address (`agent_id`) or a `session_id` that is not a string;
 * - `invalid_webhook_config`: an `HttpWebhookAgentConnector` option or `HTTP_WEBHOOK_*` environment
 *   variable is invalid; `path` names it;
 * - `invalid_file_drop_config`: a `FileDropAgentConnector` option it cannot use;
 * - `dispatch_id_conflict`: a different file-drop dispatch file already exists under the `dispatch_id`
 *   (the `cause` of the `DeliveryFailedError` that `deliver()` throws);
 * - `file_drop_directory_unreadable`: `FileDropAgentConnector.list_agents()` could not read the drop
 *   directory;
 * - `invalid_tmux_config`: a `TmuxAgentConnector` option it cannot use; `path` names it;
 * - `tmux_command_failed`: a tmux command failed (the `cause` of the `DeliveryFailedError` that the tmux
 *   connector throws).
 */
export type AgentConnectorErrorCode =
  | 'delivery_failed'
  | 'not_implemented'
  | 'skill_not_found'
  | 'version_not_found'
  | 'unsupported_filter'
  | 'invalid_contract_value'
  | 'invalid_agent_connector'
  | 'storage_conflict'
  | 'storage_validation'
  | 'agent_connector_not_found'
  | 'agent_connector_unhealthy'
  | 'invalid_connector_name'
  | 'invalid_dispatch_options'
  | 'invalid_agent_address'
  | 'invalid_webhook_config'
  | 'invalid_file_drop_config'
  | 'dispatch_id_conflict'
  | 'file_drop_directory_unreadable'
  | 'invalid_tmux_config'
  | 'tmux_command_failed';

/** The contract value a parse function was reading when it failed (`details.contract_type`). */
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
 * How one tmux command failed (`details.failure` of `tmux_command_failed`): it could not be started
 * (`spawn`: binary missing, not executable), it ran past the connector's `timeoutMs` and was killed
 * (`timeout`), or it exited with a non-zero status (`exit`: no server on the socket, no such session,
 * window or pane).
 */
export type TmuxFailure = 'spawn' | 'timeout' | 'exit';

/** The facts particular to a code; each field says which codes set it. */
export interface AgentConnectorErrorDetails {
  /** `invalid_contract_value`: the contract value being read. */
  readonly contract_type?: ContractValueType;
  /** `invalid_agent_connector`: the required methods that are missing or not functions, in contract order. */
  readonly missing?: readonly string[];
  /** `storage_conflict`: always `'skill_store'`, the connector kind as the contract's capability surface names it. */
  readonly connector_type?: 'skill_store';
  /** `storage_conflict`: the skill the write was about. */
  readonly skill_name?: string;
  /** `storage_conflict`: the store implementation that refused, such as `'FilesystemSkillStore'`. */
  readonly implementation?: string;
  /** `storage_conflict`: why the write was refused. */
  readonly reason?: string;
  /** `version_not_found`: the version that was asked for. */
  readonly version?: string;
  /** `agent_connector_not_found`, `agent_connector_unhealthy`: the registry name. */
  readonly connector_name?: string;
  /** `agent_connector_not_found`: the names registered at the time, in registration order. */
  readonly registered?: readonly string[];
  /**
   * `dispatch_id_conflict`: absolute path of the dispatch file that was kept;
   * `file_drop_directory_unreadable`: absolute path of the drop directory.
   */
  readonly file?: string;
  /** `tmux_command_failed`: the tmux sub-command that failed, e.g. `send-keys`. */
  readonly subcommand?: string;
  /** `tmux_command_failed`: how it failed. */
  readonly failure?: TmuxFailure;
  /** `tmux_command_failed`: the exit status for `exit` failures; `null` otherwise. */
  readonly exit_code?: number | null;
  /** `tmux_command_failed`: what tmux wrote to stderr, trimmed; `''` when nothing. */
  readonly stderr?: string;
}

/** The optional parts of an {@link AgentConnectorError}. */
export interface AgentConnectorErrorOptions {
  /** The argument, option, field or JSON path that failed; `''` (the default) for the value as a whole. */
  readonly path?: string;
  /** Whether the same call may succeed when made again unchanged; `false` by default. */
  readonly retryable?: boolean;
  readonly details?: AgentConnectorErrorDetails;
  /** The underlying error. */
  readonly cause?: unknown;
}

/**
 * The error `@agentwire/agent-connector` throws for everything it refuses: catch it to handle them all,
 * and switch on {@link AgentConnectorError.code}, never on the message. The four classes the contract
 * names ({@link DeliveryFailedError}, {@link NotImplementedError}, {@link SkillNotFoundError},
 * {@link UnsupportedFilterError}) extend it.
 *
 * @example
 * throw new AgentConnectorError('invalid_connector_name', 'connector name must be a non-empty string, got 42');
 */
export class AgentConnectorError extends Error {
  override readonly name: string = 'AgentConnectorError';
  /** A stable, machine-readable identifier of the condition. */
  readonly code: AgentConnectorErrorCode;
  /** The argument, option, field or JSON path that failed; `''` for the value as a whole. */
  readonly path: string;
  /** Whether the same call may succeed when made again unchanged. */
  readonly retryable: boolean;
  /** The facts particular to {@link AgentConnectorError.code}. */
  readonly details: AgentConnectorErrorDetails;

  constructor(code: AgentConnectorErrorCode, message: string, options: AgentConnectorErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.path = options.path ?? '';
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? {};
  }
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
 * A separate class because the contract names it and callers branch on it: the runtime catches it to
 * report or retry a delivery, where any other error is a bug or a misconfiguration.
 *
 * `retryable` says whether sending the same payload again (with the same `dispatch_id`, so receivers can
 * dedupe) may succeed:
 * - `network`, `timeout`: yes — transient; a timed-out request may have arrived, which the
 *   `dispatch_id` dedupe covers;
 * - `http_status`: only for 408, 425, 429 and 5xx other than 501 and 505 (those two are structural);
 * - `malformed_response`: no — the substrate answered, so the delivery may have been accepted;
 * - `client_validation`: no — nothing was sent and the same call fails the same way.
 *
 * @example
 * throw new DeliveryFailedError(`HTTP 503 from ${url}`, { agent_id, cause_kind: 'http_status', http_status: 503 });
 */
export class DeliveryFailedError extends AgentConnectorError {
  override readonly name = 'DeliveryFailedError';
  declare readonly code: 'delivery_failed';
  readonly agent_id: string;
  readonly cause_kind: DeliveryFailureKind;
  readonly http_status: number | null;

  constructor(message: string, details: DeliveryFailureDetails) {
    const http_status = details.http_status ?? null;
    super('delivery_failed', message, {
      retryable: isRetryableFailure(details.cause_kind, http_status),
      cause: details.cause,
    });
    this.agent_id = details.agent_id;
    this.cause_kind = details.cause_kind;
    this.http_status = http_status;
  }
}

function isRetryableFailure(cause_kind: DeliveryFailureKind, http_status: number | null): boolean {
  if (cause_kind === 'network' || cause_kind === 'timeout') return true;
  if (cause_kind === 'http_status') return http_status !== null && isRetryableStatus(http_status);
  return false;
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
 * A separate class because the contract names it and callers branch on it: the runtime reads it as "this
 * substrate has no synchronous reply", not as a failure. Not retryable.
 *
 * @example
 * async request_response(): Promise<never> {
 *   throw new NotImplementedError('request_response', 'MyConnector');
 * }
 */
export class NotImplementedError extends AgentConnectorError {
  override readonly name = 'NotImplementedError';
  declare readonly code: 'not_implemented';
  /** The contract method name, e.g. `request_response`. */
  readonly method: string;

  constructor(method: string, implementation?: string, options?: ErrorOptions) {
    const owner = implementation === undefined ? '' : `${implementation}.`;
    super('not_implemented', `${owner}${method}() is not implemented`, { cause: options?.cause });
    this.method = method;
  }
}
