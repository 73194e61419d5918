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
