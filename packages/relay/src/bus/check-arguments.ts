import { describeKeyString, isKeyString } from '../buffer/key-string.js';
import { RelayError } from '../errors.js';
import type { RelayBusMessage } from './relay-bus.js';

/**
 * Checks a tenant given to a relay bus: a non-empty string of well-formed Unicode. For bus
 * implementations, which call it before touching their backend.
 *
 * @throws {RelayError} `invalid_bus_argument`, path `tenant`.
 */
export function checkRelayBusTenant(tenant: unknown): string {
  if (isKeyString(tenant)) return tenant;
  throw new RelayError(
    'invalid_bus_argument',
    `tenant must be a non-empty, well-formed string, got ${describeKeyString(tenant)}`,
    { path: 'tenant' },
  );
}

/**
 * Checks a relay bus message and returns a frozen copy holding only the fields of its type, so a
 * publisher that changes its object afterwards changes nothing that was published. Bus
 * implementations call it on `publish`, and on what they receive from a shared backend.
 *
 * @throws {RelayError} `invalid_bus_argument`, path `message` or `message.<field>`.
 * @example
 * ```ts
 * checkRelayBusMessage(JSON.parse('{"type":"buffered"}')); // { type: 'buffered' }
 * ```
 */
export function checkRelayBusMessage(message: unknown): RelayBusMessage {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw new RelayError('invalid_bus_argument', 'message must be an object', { path: 'message' });
  }
  const fields = message as { readonly [key: string]: unknown };
  switch (fields['type']) {
    case 'buffered':
      return Object.freeze({ type: 'buffered' });
    case 'interrupt_inbound':
      return Object.freeze({
        type: 'interrupt_inbound',
        session_key: stringField(fields, 'session_key'),
        chat_id: stringField(fields, 'chat_id'),
      });
    case 'takeover':
      return Object.freeze({
        type: 'takeover',
        instanceId: stringField(fields, 'instanceId'),
        connectionId: stringField(fields, 'connectionId'),
      });
    default:
      throw new RelayError(
        'invalid_bus_argument',
        'message.type must be "buffered", "interrupt_inbound" or "takeover"',
        { path: 'message.type' },
      );
  }
}

function stringField(fields: { readonly [key: string]: unknown }, name: string): string {
  const value = fields[name];
  if (typeof value === 'string') return value;
  throw new RelayError('invalid_bus_argument', `message.${name} must be a string`, {
    path: `message.${name}`,
  });
}
