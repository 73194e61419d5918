import { AgentConnectorError } from '../contract/errors.js';

/** `AgentConnectorRegistry.get()` found nothing under the name. */
export class AgentConnectorNotFoundError extends AgentConnectorError {
  override readonly name = 'AgentConnectorNotFoundError';
  readonly code = 'agent_connector_not_found';
  readonly connector_name: string;
  /** The names that were registered at the time, in registration order. */
  readonly registered: readonly string[];

  constructor(connector_name: string, registered: readonly string[]) {
    const names = registered.length === 0 ? '(none)' : registered.join(', ');
    super(`AgentConnector '${connector_name}' not registered. Registered: ${names}.`);
    this.connector_name = connector_name;
    this.registered = registered;
  }
}

/**
 * `AgentConnectorRegistry.register()` refused a connector whose `health_check()` did not resolve to
 * `true`; when it rejected, `cause` holds the rejection.
 */
export class UnhealthyConnectorError extends AgentConnectorError {
  override readonly name = 'UnhealthyConnectorError';
  readonly code = 'agent_connector_unhealthy';
  readonly connector_name: string;

  constructor(connector_name: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.connector_name = connector_name;
  }
}

/** A registry name that is not a non-empty string. */
export class InvalidConnectorNameError extends AgentConnectorError {
  override readonly name = 'InvalidConnectorNameError';
  readonly code = 'invalid_connector_name';
}
