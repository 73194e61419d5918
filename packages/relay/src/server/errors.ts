import { RelayError } from '../errors.js';

/**
 * `relay_server_callback_failed`: a callback the server calls (`authenticate`, an adapter's
 * `onInterrupt`, the bus or buffer) threw; `cause` is what it threw, `details.callback` which callback.
 */
export function callbackError(callback: string, cause: unknown): RelayError {
  return new RelayError(
    'relay_server_callback_failed',
    `${callback} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    { details: { callback }, cause },
  );
}
