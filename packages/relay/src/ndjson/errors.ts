import { FrameError } from '../frames/errors.js';

/**
 * A line grew past the decoder's `maxLineBytes`. Reported once, as soon as the limit is passed; the
 * rest of the line is discarded and decoding resumes after the next `\n`.
 */
export class FrameLineTooLongError extends FrameError {
  override readonly name = 'FrameLineTooLongError';
  readonly code = 'line_too_long';
  /** The limit that was passed, in UTF-8 bytes. */
  readonly maxLineBytes: number;

  constructor(maxLineBytes: number) {
    super(`frame line longer than ${maxLineBytes} bytes; skipped to the next newline`, '$');
    this.maxLineBytes = maxLineBytes;
  }
}

/**
 * A line received as bytes is not valid UTF-8. The line is skipped. (The gateway decodes each
 * binary WebSocket message on its own and stops reading on invalid UTF-8.)
 */
export class FrameUtf8Error extends FrameError {
  override readonly name = 'FrameUtf8Error';
  readonly code = 'invalid_utf8';

  constructor(options?: ErrorOptions) {
    super('frame line is not valid UTF-8', '$', options);
  }
}

/**
 * The stream ended inside a frame: text after the last `\n` that is not blank. The gateway never
 * processes a frame that lacks its terminating newline.
 */
export class FrameIncompleteError extends FrameError {
  override readonly name = 'FrameIncompleteError';
  readonly code = 'incomplete_frame';
  /** How many bytes of the unterminated line were buffered. */
  readonly bufferedBytes: number;

  constructor(bufferedBytes: number) {
    super(`stream ended inside a frame (${bufferedBytes} bytes without a terminating newline)`, '$');
    this.bufferedBytes = bufferedBytes;
  }
}
