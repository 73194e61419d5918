import { RelayError } from '@agentwire/relay';

/** An option of a Redis relay backend that is missing or of the wrong type. */
export class InvalidRedisRelayOptionError extends RelayError {
  override readonly name = 'InvalidRedisRelayOptionError';
  readonly code = 'invalid_redis_relay_option';
}

/** A Redis edge store (enrollment tokens, provision registry, policies) was used after `close()`. */
export class EdgeStoreClosedError extends RelayError {
  override readonly name = 'EdgeStoreClosedError';
  readonly code = 'edge_store_closed';

  /** @param store Which store, e.g. `'RedisPolicyStore'`. */
  constructor(store: string) {
    super(`the ${store} is closed`);
  }
}

/**
 * A record a Redis edge store read back is not one it wrote: not JSON, or missing or mistyped fields
 * (another writer under the same key prefix). `path` names the field that failed.
 */
export class CorruptEdgeRecordError extends RelayError {
  override readonly name = 'CorruptEdgeRecordError';
  readonly code = 'corrupt_edge_record';
}
