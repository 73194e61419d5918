/** Why an SSE byte stream broke the framing rules of contract §5.3. */
export type SseProtocolErrorReason =
  /** A frame arrived after the terminal `done` or `error` frame. */
  | 'frame_after_terminal'
  /** The stream ended without a terminal `done` or `error` frame. */
  | 'missing_terminal'
  /** A frame's `data` is not one JSON value. */
  | 'invalid_json'
  /** A frame's data does not match the schema of its event (the capability's, or `progress`/`ack`/`error`). */
  | 'invalid_frame'
  /** The stream is not valid UTF-8. */
  | 'invalid_utf8'
  /** A frame or a line grew past the parser's size limit. */
  | 'frame_too_large';

/**
 * Thrown when an event stream breaks contract §5.3: anything after the terminal frame, no terminal
 * frame at all, undecodable data, or a frame that fails its schema.
 */
export class SseProtocolError extends Error {
  override readonly name = 'SseProtocolError';
  readonly code = 'sse_protocol';
  /** Which rule the stream broke. */
  readonly reason: SseProtocolErrorReason;

  constructor(reason: SseProtocolErrorReason, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}

/** Thrown when a frame cannot be written as SSE: an event name with a line break, or data JSON cannot carry. */
export class InvalidSseFrameError extends Error {
  override readonly name = 'InvalidSseFrameError';
  readonly code = 'invalid_sse_frame';
}

/**
 * Thrown when the fields of a request or response envelope (contract §5.1) are unusable: a missing
 * or non-string field, a malformed timestamp, node id or request id.
 */
export class InvalidEnvelopeError extends Error {
  override readonly name = 'InvalidEnvelopeError';
  readonly code = 'invalid_envelope';
}

/**
 * Thrown by the client when a peer answers with something that is not a HearthNet response: a body
 * that is not JSON, an unexpected content type, or a stream where a JSON body was asked for (and
 * the reverse).
 */
export class UnexpectedResponseError extends Error {
  override readonly name = 'UnexpectedResponseError';
  readonly code = 'unexpected_response';
  /** The HTTP status of the response. */
  readonly status: number;

  constructor(status: number, message: string, options?: ErrorOptions) {
    super(message, options);
    this.status = status;
  }
}

/** Thrown when client or handler options are unusable (see the message for the option). */
export class InvalidWireOptionsError extends Error {
  override readonly name = 'InvalidWireOptionsError';
  readonly code = 'invalid_wire_options';
}
