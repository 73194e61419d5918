import { AgentConnectorError } from '../contract/errors.js';

/** `dispatch()` was called with options of the wrong shape (`claim`, `restrictTo`, the connector list). */
export class InvalidDispatchOptionsError extends AgentConnectorError {
  override readonly name = 'InvalidDispatchOptionsError';
  readonly code = 'invalid_dispatch_options';
}
