import { RelayError } from '../errors.js';

/** Base class of every error the `SessionSource` functions throw; `path` names the offending field. */
export abstract class SessionSourceError extends RelayError {}

/**
 * The source is not a JSON object where the gateway needs one: a truthy non-object wire `source` (the
 * relay reader fails on `.get`), or any non-object `sessionSourceFromDict` input (`from_dict` fails on
 * `data["platform"]`).
 */
export class SessionSourceNotObjectError extends SessionSourceError {
  override readonly name = 'SessionSourceNotObjectError';
  readonly code = 'session_source_not_object';
}

/** The source holds a value plain JSON cannot carry (function, bigint, class instance, cycle). */
export class SessionSourceNotJsonError extends SessionSourceError {
  override readonly name = 'SessionSourceNotJsonError';
  readonly code = 'session_source_not_json';
}

/** `sessionSourceToWire` was given a source without a string `platform` or without `chat_id`. */
export class SessionSourceFieldError extends SessionSourceError {
  override readonly name = 'SessionSourceFieldError';
  readonly code = 'session_source_invalid_field';
}

/** `sessionSourceFromDict` input without a `platform` key (`from_dict` raises `KeyError`). */
export class SessionSourceMissingPlatformError extends SessionSourceError {
  override readonly name = 'SessionSourceMissingPlatformError';
  readonly code = 'session_source_missing_platform';
}

/**
 * `sessionSourceFromDict` input whose `platform` is no platform the gateway knows (`Platform(value)`
 * raises `ValueError`): unlike the wire path, there is no fallback to `"relay"`.
 */
export class SessionSourceUnknownPlatformError extends SessionSourceError {
  override readonly name = 'SessionSourceUnknownPlatformError';
  readonly code = 'session_source_unknown_platform';
}

/** `sessionSourceFromDict` input without a `chat_id` key (`from_dict` raises `KeyError`). */
export class SessionSourceMissingChatIdError extends SessionSourceError {
  override readonly name = 'SessionSourceMissingChatIdError';
  readonly code = 'session_source_missing_chat_id';
}

/**
 * `sessionSourceFromDict` input whose `chat_id` holds a number whose Python `str()` JavaScript cannot
 * know: an integral number beyond ±(2^53 − 1) (which Python `int`, or a float such as `1e+16`?) or
 * `-0` (`0` or `-0.0`?). Store such ids as strings.
 */
export class SessionSourceAmbiguousChatIdError extends SessionSourceError {
  override readonly name = 'SessionSourceAmbiguousChatIdError';
  readonly code = 'session_source_ambiguous_chat_id';
}
