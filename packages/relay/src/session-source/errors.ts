import { RelayError } from '../errors.js';

/** Base class of every error the `SessionSource` wire functions throw; `path` names the offending field. */
export abstract class SessionSourceError extends RelayError {}

/** The wire `source` is neither falsy nor an object: the gateway's reader fails on `.get`. */
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
