import { RelayError } from '@agentwire/relay';

/** An option of a Redis relay backend that is missing or of the wrong type. */
export class InvalidRedisRelayOptionError extends RelayError {
  override readonly name = 'InvalidRedisRelayOptionError';
  readonly code = 'invalid_redis_relay_option';
}
