import { z } from 'zod';

/** The WebSocket pub-sub path of the reference: `/pubsub/v1/ws/{topic}` (topic URI-encoded), query `cursor`. */
export const PUBSUB_WS_PATH_PREFIX = '/pubsub/v1/ws/';

/**
 * The frame every server message is, as in the reference: `{"event", "data", "seq"}` JSON.
 * - `ready`: first frame, `data: {cursor}` — where the connection starts (the client's cursor, or
 *   "now" when it sent none);
 * - `<topic>` (the topic name): an item, `data` its payload, `seq` its cursor;
 * - `gap`: `data: {after, cursor}` — items after `after` are lost, delivery goes on from `cursor`;
 * - `error`: `data` a contract §5.4 error body; the server closes the connection after it.
 *
 * `seq` is the hub cursor the frame leaves the client at (for `error`, where it was).
 */
export interface ServerFrame {
  readonly event: string;
  readonly data: unknown;
  readonly seq: number;
}

/** The event names of the control frames (topic names always contain a dot, these do not). */
export const WS_EVENTS = Object.freeze({ ready: 'ready', gap: 'gap', error: 'error', ack: 'ack' });

const seqSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** A server frame's outer shape. */
export const serverFrameSchema = z.object({ event: z.string(), data: z.unknown(), seq: seqSchema });
/** `data` of a `ready` frame. */
export const readyDataSchema = z.object({ cursor: seqSchema });
/** `data` of a `gap` frame. */
export const gapDataSchema = z.object({ after: seqSchema, cursor: seqSchema });

const uptoSchema = z.union([
  z.object({ upto: seqSchema }).transform((value) => value.upto),
  z.object({ up_to: seqSchema }).transform((value) => value.up_to),
]);

/**
 * The `upto` of a client ack, or `undefined` for any other message. Accepted shapes: this SDK's
 * `{"event":"ack","data":{"upto":N}}` (contract §5.3's field name), the same with the reference's
 * `up_to`, and the reference client's own `{"type":"ack","upto":N}` (its server strips `type` and
 * reads the rest as `data`). `N` is the `seq` of the last frame the client holds.
 */
export function ackUpto(message: unknown): number | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const frame = message as { readonly event?: unknown; readonly type?: unknown; readonly data?: unknown };
  const data = frame.event === WS_EVENTS.ack ? frame.data : frame.type === WS_EVENTS.ack ? frame : undefined;
  const parsed = uptoSchema.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}

/** The ack this SDK's client sends: `{"event":"ack","data":{"upto":seq}}`. */
export function ackFrame(seq: number): string {
  return JSON.stringify({ event: WS_EVENTS.ack, data: { upto: seq } });
}

/** The URL path of a topic's WebSocket. */
export function webSocketPath(topic: string): string {
  return `${PUBSUB_WS_PATH_PREFIX}${encodeURIComponent(topic)}`;
}
