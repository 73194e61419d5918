/** The wire `source` is neither falsy nor an object: the gateway's reader fails on `.get`. */
export class SessionSourceNotObjectError extends Error {
  override readonly name = 'SessionSourceNotObjectError';
  readonly code = 'session_source_not_object';
  /** Path of the offending value, `''` for the source itself. */
  readonly path: string;

  constructor(message: string, path = '', options?: { cause?: unknown }) {
    super(message, options);
    this.path = path;
  }
}

/** The source holds a value plain JSON cannot carry (function, bigint, class instance, cycle). */
export class SessionSourceNotJsonError extends Error {
  override readonly name = 'SessionSourceNotJsonError';
  readonly code = 'session_source_not_json';
  /** Dotted path of the offending value. */
  readonly path: string;

  constructor(message: string, path: string, options?: { cause?: unknown }) {
    super(message, options);
    this.path = path;
  }
}

/** `sessionSourceToWire` was given a source without a string `platform` or without `chat_id`. */
export class SessionSourceFieldError extends Error {
  override readonly name = 'SessionSourceFieldError';
  readonly code = 'session_source_invalid_field';
  /** The offending field. */
  readonly path: string;

  constructor(message: string, path: string) {
    super(message);
    this.path = path;
  }
}
