import { RelayError } from '../errors.js';

/** Stable codes of the errors a {@link RelayBus} implementation throws. */
export type RelayBusErrorCode = 'invalid_bus_argument' | 'bus_closed';

/** Base class of the errors relay bus implementations throw; `path` names the refused argument. */
export abstract class RelayBusError extends RelayError {
  abstract override readonly code: RelayBusErrorCode;
}

/** A tenant that is not a non-empty, well-formed string, or a message that is not a `RelayBusMessage`. */
export class InvalidRelayBusArgumentError extends RelayBusError {
  override readonly name = 'InvalidRelayBusArgumentError';
  readonly code = 'invalid_bus_argument';
}

/** The bus was used after `close()`. */
export class RelayBusClosedError extends RelayBusError {
  override readonly name = 'RelayBusClosedError';
  readonly code = 'bus_closed';

  constructor() {
    super('the relay bus is closed');
  }
}
