/** One dispatched SSE event: its name (`message` when the stream gave none) and its data text. */
export interface SseEvent {
  readonly type: 'event';
  readonly event: string;
  /** The `data:` lines joined with `\n`. */
  readonly data: string;
}

/** One SSE comment line (`: keepalive`), without the colon and the one space after it. */
export interface SseComment {
  readonly type: 'comment';
  readonly text: string;
}

/** What an SSE stream carries, in order. */
export type SseItem = SseEvent | SseComment;

/**
 * A HearthNet stream frame (contract §5.3): an event name and its JSON data, e.g.
 * `{ event: 'token', data: { text: 'Sie ' } }`.
 */
export interface SseFrame<Event extends string = string, Data = unknown> {
  readonly event: Event;
  readonly data: Data;
}

/** The event name of the terminal success frame (contract §5.3). */
export const DONE_EVENT = 'done';
/** The event name of the terminal error frame; its data is a §5.4 error body. */
export const ERROR_EVENT = 'error';
/** The event name of a progress frame, `{current, total, stage}`, allowed on any stream. */
export const PROGRESS_EVENT = 'progress';
/** The event name of a back-pressure acknowledgement `{upto}`, sent client → server. */
export const ACK_EVENT = 'ack';
/**
 * The event name of the first frame of a client stream: its data is the call body `{params, input}`
 * that the request signature covers (see `createBusHandler`, client streams).
 */
export const REQUEST_EVENT = 'request';

/** Whether a frame ends its stream: `done` or `error` (contract §5.3). */
export function isTerminalEvent(event: string): boolean {
  return event === DONE_EVENT || event === ERROR_EVENT;
}
