// The ack deadline of frameStream (issue #17): a client that asked for ack back-pressure and then
// leaves the window full is not waited for forever — the stream ends with an `error` frame (`timeout`)
// after `ackTimeoutMs`, and the handler's iterator is stopped.

import { describe, expect, it } from 'vitest';
import { frameStream } from './call-streams.js';
import { AckWindow, type SseFrame } from './sse.js';

/** Endless `tick` frames; records whether the consumer stopped the iterator. */
function ticks() {
  const state = { produced: 0, returned: false };
  const frames: AsyncIterable<SseFrame> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        state.produced += 1;
        return { done: false, value: { event: 'tick', data: { i: state.produced } } };
      },
      return: async () => {
        state.returned = true;
        return { done: true, value: undefined };
      },
    }),
  };
  return { frames, state };
}

const decoder = new TextDecoder();
const TIMED_OUT = Symbol('still waiting');

async function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  const result = await Promise.race([reader.read(), late]);
  clearTimeout(timer);
  if (result === TIMED_OUT) return result;
  return result.done ? undefined : decoder.decode(result.value);
}

describe('frameStream ack deadline', () => {
  it('ends a stream whose ack window stays full for ackTimeoutMs with an error frame (timeout)', async () => {
    const { frames, state } = ticks();
    const closes: string[] = [];
    const credit = new AckWindow(2);
    const reader = frameStream(frames, {
      validate: (frame) => frame,
      keepaliveMs: 0,
      onClose: (reason) => closes.push(reason),
      onError: () => {},
      credit,
      ackTimeoutMs: 50,
    }).getReader();
    expect(await readWithin(reader, 1000)).toContain('event: tick\ndata: {"i":1}');
    // An ack in time keeps the stream going.
    credit.acknowledge(1);
    expect(await readWithin(reader, 1000)).toContain('"i":2');
    expect(await readWithin(reader, 1000)).toContain('"i":3');
    // Then no ack: the window (2) stays full.
    const started = Date.now();
    const last = await readWithin(reader, 2000);
    expect(last).not.toBe(TIMED_OUT);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(last).toMatch(/^event: error\ndata: \{"error":"timeout","message":"[^"]*ack_timeout/);
    expect(await readWithin(reader, 1000)).toBeUndefined();
    expect(closes).toEqual(['finished']);
    await expect.poll(() => state.returned).toBe(true);
    expect(state.produced).toBe(4);
  });
});
