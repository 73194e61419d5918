import { RelayError } from '../errors.js';

/** Base class of the errors `eventFromWire`, `eventToWire` and `createMessageEvent` throw. */
export abstract class MessageEventError extends RelayError {}

/** The event, or a part the gateway calls `.get` on (`reply_to`), is not an object. */
export class MessageEventShapeError extends MessageEventError {
  override readonly name = 'MessageEventShapeError';
  readonly code = 'message_event_not_object';
}

/** The event holds a value plain JSON cannot carry (function, bigint, class instance, cycle). */
export class MessageEventNotJsonError extends MessageEventError {
  override readonly name = 'MessageEventNotJsonError';
  readonly code = 'message_event_not_json';
}

/** `createMessageEvent` refused its input. */
export class MessageEventInitError extends MessageEventError {
  override readonly name = 'MessageEventInitError';
  readonly code = 'message_event_invalid';
}
