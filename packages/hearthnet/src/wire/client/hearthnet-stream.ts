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
 * The frames of a streamed call, as an async iterator: the capability's frames (and `progress`)
 * up to and including `done`. An `error` frame is thrown as its `HearthNetError`; a broken stream as
 * `SseProtocolError`. Leaving the loop early, {@link close}, or the call's `AbortSignal` closes the
 * connection, which cancels the work on the server (contract §4.1).
 */
export interface HearthNetStream<Frame> extends AsyncIterable<Frame> {
  /** `X-HearthNet-Request-Id` of the call. */
  readonly requestId: string;
  /** `X-HearthNet-From` of the response: the serving node. */
  readonly from: string | undefined;
  /** Stops reading and closes the connection. */
  close(): Promise<void>;
}
