import { SqliteStorageError } from '../shared/errors.js';

/**
 * An argument of `SqliteEventStore` is not what the method takes: options that are neither `{ path }` nor
 * `{ database }`, an id that is not a string, a range that is not an object. Not retryable with the same
 * input. (Lamport bounds out of range throw `InvalidLamportError` of `@agentwire/hearthnet/events`, and
 * malformed events `InvalidEventError`, as every `EventStore` does.)
 */
export class InvalidStoreArgumentError extends SqliteStorageError {
  override readonly name = 'InvalidStoreArgumentError';
  readonly code = 'invalid_store_argument';
  /** The argument or option at fault, such as `'options.path'` or `'communityId'`. */
  readonly path: string;

  constructor(message: string, path: string, options?: ErrorOptions) {
    super(`${path} ${message}`, options);
    this.path = path;
  }
}
