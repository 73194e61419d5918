import { RelayError } from '../errors.js';

/** Stable codes of the errors an {@link InboundBuffer} implementation throws. */
export type InboundBufferErrorCode = 'invalid_buffer_argument' | 'corrupt_buffered_frame' | 'buffer_closed';

/** Base class of the errors inbound buffer implementations throw; `path` names what was refused. */
export abstract class InboundBufferError extends RelayError {
  abstract override readonly code: InboundBufferErrorCode;
}

/**
 * An argument the buffer refuses: a tenant that is not a non-empty, well-formed string, a frame that
 * is not a `BufferedFrame` of plain JSON data, a `limit` that is not a positive integer, an `afterId`
 * that is not a buffer id of this implementation.
 */
export class InvalidInboundBufferArgumentError extends InboundBufferError {
  override readonly name = 'InvalidInboundBufferArgumentError';
  readonly code = 'invalid_buffer_argument';
}

/** What a shared backend holds for an entry is not a stored `BufferedFrame` (written by something else). */
export class CorruptBufferedFrameError extends InboundBufferError {
  override readonly name = 'CorruptBufferedFrameError';
  readonly code = 'corrupt_buffered_frame';
}

/** The buffer was used after `close()`. */
export class InboundBufferClosedError extends InboundBufferError {
  override readonly name = 'InboundBufferClosedError';
  readonly code = 'buffer_closed';

  constructor() {
    super('the inbound buffer is closed');
  }
}
