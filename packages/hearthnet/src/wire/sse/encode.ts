import { HearthNetLocalError } from '../../errors.js';
import type { SseEvent, SseFrame } from './sse-event.js';

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * One SSE event as text: `event: <name>`, one `data:` line per line of `data` (so multi-line data
 * survives), then a blank line. Line breaks are `\n`, as the reference writes them.
 *
 * @throws {HearthNetLocalError} `invalid_sse_frame` when the event name is empty or holds a line break.
 * @example
 * encodeSseEvent({ event: 'token', data: '{"text":"Sie "}' }); // 'event: token\ndata: {"text":"Sie "}\n\n'
 */
export function encodeSseEvent(event: Pick<SseEvent, 'event' | 'data'>): string {
  assertEventName(event.event);
  if (typeof event.data !== 'string')
    throw new HearthNetLocalError('invalid_sse_frame', 'SSE event data must be a string');
  const lines = event.data.split(LINE_BREAK).map((line) => `data: ${line}\n`);
  return `event: ${event.event}\n${lines.join('')}\n`;
}

/**
 * A HearthNet stream frame as SSE text (contract §5.3): `event: <name>` and `data: <JSON, single
 * line>`. The JSON is compact `JSON.stringify` output, which never holds a raw line break; frames are
 * not signed, so their JSON need not be canonical.
 *
 * @throws {HearthNetLocalError} `invalid_sse_frame` for an unusable event name, or data JSON cannot carry
 *   (`undefined`, a function, a bigint, a cycle).
 * @example
 * encodeSseFrame({ event: 'done', data: { tokens_out: 3, stop_reason: 'end' } });
 * // 'event: done\ndata: {"tokens_out":3,"stop_reason":"end"}\n\n'
 */
export function encodeSseFrame(frame: SseFrame): string {
  if (frame === null || typeof frame !== 'object')
    throw new HearthNetLocalError('invalid_sse_frame', 'a frame must be an object');
  let json: string | undefined;
  try {
    json = JSON.stringify(frame.data);
  } catch (error) {
    throw new HearthNetLocalError(
      'invalid_sse_frame',
      `frame data is not JSON: ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (json === undefined)
    throw new HearthNetLocalError('invalid_sse_frame', 'frame data is not JSON (undefined or a function)');
  return encodeSseEvent({ event: frame.event, data: json });
}

/**
 * An SSE comment line, e.g. the keepalive `: keepalive\n\n` the reference's writer sends. Readers
 * skip comments; they keep idle connections open through proxies.
 *
 * @throws {HearthNetLocalError} `invalid_sse_frame` when the text holds a line break.
 */
export function encodeSseComment(text = 'keepalive'): string {
  if (typeof text !== 'string' || LINE_BREAK.test(text)) {
    throw new HearthNetLocalError('invalid_sse_frame', 'an SSE comment must be one line of text');
  }
  return `: ${text}\n\n`;
}

function assertEventName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || name === '' || LINE_BREAK.test(name)) {
    throw new HearthNetLocalError(
      'invalid_sse_frame',
      `an SSE event name must be a non-empty single line, got ${JSON.stringify(name)}`,
    );
  }
}
