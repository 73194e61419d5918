import { RelayError } from '@agentwire/relay';
import { RedisRelayError } from './errors.js';

// Records the Redis edge stores read back are checked with the same rules as the arguments they were
// written from (`checkProvisionRegistration`, `checkRelevancePolicy`, `checkEdgeName` of
// @agentwire/relay/edge); a record those rules refuse is not one the store wrote.

/**
 * Runs the check of a stored record, answering a refusal as a `RedisRelayError` `corrupt_edge_record`
 * (same path, the message prefixed with `stored`) instead of an `invalid_enrollment_argument`.
 */
export function checkStored<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof RelayError && error.code === 'invalid_enrollment_argument')) throw error;
    throw new RedisRelayError('corrupt_edge_record', `stored ${error.message}`, { path: error.path });
  }
}

/** Refuses a record read back from Redis. */
export function refuseRecord(path: string, message: string): never {
  throw new RedisRelayError('corrupt_edge_record', `stored ${path} ${message}`, { path });
}

/** Parses a stored JSON text, refusing text that is not JSON as a corrupt record. */
export function parseRecord(text: string, path: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new RedisRelayError('corrupt_edge_record', `stored ${path} is not JSON`, { path, cause: error });
  }
}
