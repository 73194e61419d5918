import { SqliteStoreError } from '../shared/errors.js';

/**
 * The `invalid_store_argument` error: an argument of `SqliteEventStore` is not what the method takes
 * (options that are neither `{ path }` nor `{ database }`, an id that is not a string, a range that is not
 * an object). `path` names the argument or option, such as `'options.path'` or `'communityId'`, and
 * starts the message. Not retryable with the same input. (Lamport bounds out of range throw the
 * `HearthNetLocalError` `invalid_lamport` of `@agentwire/hearthnet/events`, and malformed events
 * `invalid_event`, as every `EventStore` does.)
 */
export function invalidStoreArgumentError(message: string, path: string): SqliteStoreError {
  return new SqliteStoreError('invalid_store_argument', `${path} ${message}`, { path });
}
