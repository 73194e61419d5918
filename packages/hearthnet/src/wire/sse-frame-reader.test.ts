import { describe, expect, it } from 'vitest';
import { FILE_READ, LLM_CHAT } from '../capabilities/catalogue/catalogue.js';
import {
  encodeSseComment,
  encodeSseFrame,
  readSseFrames,
  SseFrameReader,
  streamFrameValidator,
} from './sse.js';

const token = encodeSseFrame({ event: 'token', data: { text: 'Sie ' } });
const done = encodeSseFrame({ event: 'done', data: { tokens_out: 1, stop_reason: 'end', ms: 3 } });

function readAll(text: string, validate = streamFrameValidator(LLM_CHAT)) {
  const reader = new SseFrameReader({ validate });
  return [...reader.push(text), ...reader.finish()];
}

describe('SseFrameReader (contract §5.3)', () => {
  it('yields typed frames and stops at the terminal frame', () => {
    const comments: string[] = [];
    const reader = new SseFrameReader({
      validate: streamFrameValidator(LLM_CHAT),
      onComment: (t) => comments.push(t),
    });
    const frames = [...reader.push(token + encodeSseComment() + done), ...reader.finish()];
    expect(frames.map((f) => f.event)).toEqual(['token', 'done']);
    expect(reader.terminal?.event).toBe('done');
    expect(comments).toEqual(['keepalive']);
  });

  it('accepts an error frame as the terminal frame', () => {
    const error = encodeSseFrame({ event: 'error', data: { error: 'timeout', retry_after_ms: 10 } });
    expect(readAll(token + error).at(-1)).toEqual({
      event: 'error',
      data: { error: 'timeout', retry_after_ms: 10 },
    });
  });

  it('refuses a frame after the terminal one, and a stream without one', () => {
    expect(() => readAll(done + token)).toThrow(
      expect.objectContaining({ code: 'sse_protocol', details: { reason: 'frame_after_terminal' } }),
    );
    expect(() => readAll(done + done)).toThrow(expect.objectContaining({ code: 'sse_protocol' }));
    expect(() => readAll(token)).toThrow(
      expect.objectContaining({ code: 'sse_protocol', details: { reason: 'missing_terminal' } }),
    );
  });

  it('refuses non-JSON data and frames that break the capability or contract-wide schemas', () => {
    expect(() => readAll('event: token\ndata: {nope\n\n')).toThrow(
      expect.objectContaining({ code: 'sse_protocol', details: { reason: 'invalid_json' } }),
    );
    expect(() => readAll(encodeSseFrame({ event: 'token', data: { text: 3 } }) + done)).toThrow(
      expect.objectContaining({ code: 'sse_protocol', details: { reason: 'invalid_frame' } }),
    );
    expect(() => readAll(encodeSseFrame({ event: 'progress', data: { total: 3 } }) + done)).toThrow(
      expect.objectContaining({ code: 'sse_protocol', details: { reason: 'invalid_frame' } }),
    );
    expect(() => readAll(encodeSseFrame({ event: 'chunk', data: { i: 0 } }) + done)).toThrow(
      expect.objectContaining({ code: 'sse_protocol', details: { reason: 'invalid_frame' } }),
    );
  });

  it('types frames per capability: file.read chunks pass, progress frames pass anywhere', () => {
    const frames = readAll(
      encodeSseFrame({ event: 'progress', data: { current: 1, total: 2, stage: 'read' } }) +
        encodeSseFrame({ event: 'chunk', data: { i: 0, cid: 'blake3:00', data_b64: 'AA' } }) +
        encodeSseFrame({ event: 'done', data: { chunks: 1 } }),
      streamFrameValidator(FILE_READ),
    );
    expect(frames.map((f) => f.event)).toEqual(['progress', 'chunk', 'done']);
  });

  it('reads a ReadableStream and cancels it when the consumer stops early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(token + token));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const frame of readSseFrames(body)) {
      expect(frame.event).toBe('token');
      break;
    }
    expect(cancelled).toBe(true);
  });
});

describe('readSseFrames on a body that reuses one buffer for every chunk', () => {
  it('reads the frames as they were sent: nothing of a chunk is kept once the next one is read', async () => {
    const text =
      'event: token\ndata: {"text":"a long line split over many chunks, é"}\n\nevent: done\ndata: {}\n\n';
    const bytes = new TextEncoder().encode(text);
    const shared = new Uint8Array(8);
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      // The next chunk is written over the last one once the reader has had it (a reader of a file would).
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (at >= bytes.length) return controller.close();
        const length = Math.min(shared.length, bytes.length - at);
        shared.set(bytes.subarray(at, at + length));
        at += length;
        controller.enqueue(shared.subarray(0, length));
      },
    });
    const frames = [];
    for await (const frame of readSseFrames(body)) frames.push(frame);
    expect(frames).toEqual([
      { event: 'token', data: { text: 'a long line split over many chunks, é' } },
      { event: 'done', data: {} },
    ]);
  });
});
