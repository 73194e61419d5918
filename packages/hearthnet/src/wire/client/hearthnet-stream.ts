import type { SseFrame } from '../sse/sse-event.js';

/** `progress` frame data (contract §5.3). */
export interface ProgressFrameData {
  readonly current: number;
  readonly total?: number;
  readonly stage?: string;
}

/** A `progress` frame; any stream may carry them. */
export type ProgressFrame = SseFrame<'progress', ProgressFrameData>;

/**
 * The frames of a streamed call, as an async iterator: the capability's frames (and `progress`) up to and
 * including `done`. An `error` frame is thrown as its `HearthNetError`; a broken stream as
 * `HearthNetLocalError` `sse_protocol`. Leaving the loop early, {@link close}, or the call's `AbortSignal`
 * closes the connection, which cancels the work on the server (contract §4.1).
 */
export interface HearthNetStream<Frame> extends AsyncIterable<Frame> {
  /** `X-HearthNet-Request-Id` of the call. */
  readonly requestId: string;
  /** `X-HearthNet-From` of the response: the serving node. */
  readonly from: string | undefined;
  /** Stops reading and closes the connection. */
  close(): Promise<void>;
}

/**
 * The frames of a call that also streams frames to the server (`CallOptions.duplex`, e.g. `file.put`
 * chunks): read the server's frames as with {@link HearthNetStream}, and {@link send} frames while
 * doing so; {@link end} says no more frames will come. Closing the stream ends both directions.
 */
export interface HearthNetDuplexStream<Frame> extends HearthNetStream<Frame> {
  /**
   * Sends one frame, checked against the capability's stream schema first. Resolves when it is
   * queued (the queue is kept under 1 MiB, so a fast sender is paced by the connection).
   *
   * @throws {HearthNetLocalError} `sse_protocol` (`invalid_frame`) when the frame does not match the schema.
   * @throws {HearthNetLocalError} `invalid_wire_options` after {@link end}.
   */
  send(frame: SseFrame): Promise<void>;
  /** Ends the frames sent to the server; the server's frames keep coming until its `done`. */
  end(): void;
}
