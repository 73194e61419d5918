import type { BufferedFrame } from '../buffer/index.js';
import { RelayError, type RelayErrorCode } from '../errors.js';
import { frameToWireObject, type PassthroughForward, passthroughForwardSchema } from '../frames/index.js';
import { safeParseInEnglish } from '../internal/english-issues.js';
import { isJsonValue, type JsonValue, jsonPath, toJsonValue } from '../json/index.js';
import { eventToWire, type MessageEvent, type MessageEventWire } from '../message-event/index.js';

/** The codes `eventToWire` refuses an event with (its own, and those of its `source`). */
const EVENT_ERROR_CODES: ReadonlySet<RelayErrorCode> = new Set<RelayErrorCode>([
  'message_event_not_object',
  'message_event_not_json',
  'message_event_invalid',
  'session_source_not_object',
  'session_source_not_json',
  'session_source_invalid_field',
  'session_source_missing_platform',
  'session_source_unknown_platform',
  'session_source_missing_chat_id',
  'session_source_ambiguous_chat_id',
]);

/** A `passthrough_forward`'s `forward` object as given to `forwardPassthrough` (defaults filled). */
export type PassthroughForwardInput = Partial<PassthroughForward>;

/**
 * The buffered `inbound` frame of an event. A gateway-view `MessageEvent` (recognised by its
 * `reply_to_is_own_message` and `media_types` keys, which no wire event has) is written with
 * `eventToWire`; anything else is taken as a wire `event` object (what `createMessageEvent` returns):
 * used as it is when it already is plain JSON data (the buffer encodes it before `append` returns, so
 * later changes to it change nothing stored), else copied as plain JSON (dropping `undefined` values).
 *
 * @throws {RelayError} `relay_server_invalid_input`: the event is not an object, holds non-JSON values or
 * cannot be written.
 */
export function inboundFrame(event: MessageEvent | MessageEventWire): BufferedFrame {
  if (event === null || typeof event !== 'object' || Array.isArray(event)) {
    throw new RelayError(
      'relay_server_invalid_input',
      'event must be a MessageEvent or a wire event object',
      { path: 'event' },
    );
  }
  if (Object.hasOwn(event, 'reply_to_is_own_message') && Object.hasOwn(event, 'media_types')) {
    try {
      return { type: 'inbound', event: eventToWire(event as MessageEvent) };
    } catch (error) {
      if (!(error instanceof RelayError && EVENT_ERROR_CODES.has(error.code))) throw error;
      throw new RelayError('relay_server_invalid_input', `event: ${error.message}`, {
        path: `event.${error.path}`,
        cause: error,
      });
    }
  }
  return { type: 'inbound', event: plainObject(event, 'event') };
}

/**
 * The buffered `passthrough_forward` frame of a forward, checked with the frame schema (`bodyB64` and
 * headers as strings, missing keys defaulted) and with its keys in wire order.
 *
 * @throws {RelayError} `relay_server_invalid_input`: a forward the gateway could not read.
 */
export function passthroughFrame(forward: PassthroughForwardInput): BufferedFrame {
  const parsed = safeParseInEnglish(passthroughForwardSchema, forward);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = jsonPath(['forward', ...(issue?.path ?? [])]);
    throw new RelayError('relay_server_invalid_input', `invalid passthrough forward: ${issue?.message}`, {
      path,
      cause: parsed.error,
    });
  }
  const wire = frameToWireObject({ type: 'passthrough_forward', forward: parsed.data })['forward'];
  return { type: 'passthrough_forward', forward: plainObject(wire, 'forward') };
}

function plainObject(value: unknown, path: string): { readonly [key: string]: JsonValue } {
  if (isJsonValue(value)) return value as { readonly [key: string]: JsonValue };
  return toJsonValue(
    value,
    ({ message }) => new RelayError('relay_server_invalid_input', `${path}: ${message}`, { path }),
  ) as { readonly [key: string]: JsonValue };
}
