import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeSseComment, encodeSseEvent, encodeSseFrame, type SseItem, SseParser } from './sse.js';

const utf8 = new TextEncoder();

function parseAll(chunks: readonly (Uint8Array | string)[]): SseItem[] {
  const parser = new SseParser();
  return [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.finish()];
}

/** Cuts bytes at the given (sorted, deduplicated) offsets. */
function cut(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.slice(start, point));
    start = point;
  }
  return pieces;
}

const eventName = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !/[\r\n]/.test(s));
const dataText = fc.string({ unit: 'grapheme', maxLength: 40 });
const item: fc.Arbitrary<SseItem> = fc.oneof(
  fc.record({ type: fc.constant('event' as const), event: eventName, data: dataText }),
  fc.record({
    type: fc.constant('comment' as const),
    text: fc.string({ unit: 'grapheme', maxLength: 20 }).filter((s) => !/[\r\n]/.test(s)),
  }),
);

function encodeItem(entry: SseItem): string {
  return entry.type === 'comment' ? encodeSseComment(entry.text) : encodeSseEvent(entry);
}

/** What the parser reports for an item: data line breaks of any kind become `\n`. */
function normalised(entry: SseItem): SseItem {
  return entry.type === 'event' ? { ...entry, data: entry.data.replace(/\r\n|\r/g, '\n') } : entry;
}

describe('SseParser (contract §5.3, WHATWG SSE)', () => {
  it('property: encode → chunk anywhere (also inside UTF-8 and CRLF) → parse is the identity', () => {
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.boolean(),
        (items, offsets, crlf) => {
          let text = items.map(encodeItem).join('');
          if (crlf) text = text.replace(/\n/g, '\r\n');
          const bytes = utf8.encode(text);
          expect(parseAll(cut(bytes, offsets))).toEqual(items.map(normalised));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: JSON frames survive byte-wise chunking', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ event: eventName, data: fc.jsonValue() }), { maxLength: 5 }),
        (frames) => {
          const bytes = utf8.encode(frames.map(encodeSseFrame).join(''));
          const parsed = parseAll([...bytes].map((b) => Uint8Array.of(b)));
          expect(
            parsed.map((e) => (e.type === 'event' ? { event: e.event, data: JSON.parse(e.data) } : e)),
          ).toEqual(frames.map((f) => ({ event: f.event, data: JSON.parse(JSON.stringify(f.data)) })));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('joins multi-line data, strips one space, defaults the name to message, ignores id/retry/unknown fields', () => {
    const text = 'data:first\ndata:  second\nid: 7\nretry: 100\nfoo: bar\n\nevent\ndata\n\n';
    expect(parseAll([text])).toEqual([
      { type: 'event', event: 'message', data: 'first\n second' },
      { type: 'event', event: 'message', data: '' },
    ]);
  });

  it('accepts CR-only line ends, a CR at the end of one chunk and the LF at the start of the next', () => {
    expect(parseAll(['event: a\rdata: 1\r\r'])).toEqual([{ type: 'event', event: 'a', data: '1' }]);
    expect(parseAll(['event: a\r', '\ndata: 1\r', '\n\r', '\n'])).toEqual([
      { type: 'event', event: 'a', data: '1' },
    ]);
  });

  it('does not dispatch an event without data, and resets the name after a blank line', () => {
    expect(parseAll(['event: lonely\n\ndata: x\n\n'])).toEqual([
      { type: 'event', event: 'message', data: 'x' },
    ]);
  });

  it('reports comments (keepalives) in order', () => {
    expect(parseAll([': keepalive\n\nevent: done\ndata: {}\n\n'])).toEqual([
      { type: 'comment', text: 'keepalive' },
      { type: 'event', event: 'done', data: '{}' },
    ]);
  });

  it('skips a leading BOM and discards an unterminated last event', () => {
    expect(parseAll([Uint8Array.of(0xef, 0xbb), Uint8Array.of(0xbf), 'data: 1\n\ndata: 2\n'])).toEqual([
      { type: 'event', event: 'message', data: '1' },
    ]);
    expect(parseAll(['\uFEFFdata: 1\n\n'])).toEqual([{ type: 'event', event: 'message', data: '1' }]);
  });

  it('decodes a multi-byte character split across chunks, and refuses invalid UTF-8', () => {
    const bytes = utf8.encode('data: "Grüße 😀"\n\n');
    expect(parseAll(cut(bytes, [8, 9, 13, 14, 15]))).toEqual([
      { type: 'event', event: 'message', data: '"Grüße 😀"' },
    ]);
    expect(() => parseAll([Uint8Array.of(0x64, 0x61, 0xff)])).toThrow(
      expect.objectContaining({ code: 'sse_protocol' }),
    );
    const truncated = new SseParser();
    truncated.push(Uint8Array.of(0x64, 0xc3));
    expect(() => truncated.finish()).toThrow(
      expect.objectContaining({ code: 'sse_protocol', details: { reason: 'invalid_utf8' } }),
    );
  });

  it('refuses an event past maxEventLength, whether in one line or many', () => {
    expect(() => new SseParser({ maxEventLength: 10 }).push(`data: ${'x'.repeat(20)}`)).toThrow(
      expect.objectContaining({ code: 'sse_protocol', details: { reason: 'frame_too_large' } }),
    );
    const parser = new SseParser({ maxEventLength: 10 });
    expect(() => {
      for (let i = 0; i < 10; i += 1) parser.push('data: xx\n');
    }).toThrow(expect.objectContaining({ code: 'sse_protocol', details: { reason: 'frame_too_large' } }));
  });
});

describe('SSE encoders', () => {
  it('write the contract framing with \\n line ends', () => {
    expect(encodeSseFrame({ event: 'token', data: { text: 'Sie ', logprob: -0.21 } })).toBe(
      'event: token\ndata: {"text":"Sie ","logprob":-0.21}\n\n',
    );
    expect(encodeSseEvent({ event: 'x', data: 'a\r\nb' })).toBe('event: x\ndata: a\ndata: b\n\n');
    expect(encodeSseComment()).toBe(': keepalive\n\n');
  });

  it('refuse what cannot be framed', () => {
    expect(() => encodeSseFrame({ event: '', data: 1 })).toThrow(
      expect.objectContaining({ code: 'invalid_sse_frame' }),
    );
    expect(() => encodeSseFrame({ event: 'a\nb', data: 1 })).toThrow(
      expect.objectContaining({ code: 'invalid_sse_frame' }),
    );
    expect(() => encodeSseFrame({ event: 'a', data: undefined })).toThrow(
      expect.objectContaining({ code: 'invalid_sse_frame' }),
    );
    expect(() => encodeSseFrame({ event: 'a', data: 1n })).toThrow(
      expect.objectContaining({ code: 'invalid_sse_frame' }),
    );
    expect(() => encodeSseComment('two\nlines')).toThrow(
      expect.objectContaining({ code: 'invalid_sse_frame' }),
    );
  });
});

describe('SseParser on bytes that are ASCII first', () => {
  it('reads ASCII chunks, then a UTF-8 sequence split across chunks, and refuses invalid UTF-8 after ASCII', () => {
    const text = `data: ${'x'.repeat(70_000)}\n\ndata: Grüße 水\n\n`;
    const bytes = new TextEncoder().encode(text);
    const cut = text.indexOf('ü') + 1; // inside the two bytes of ü
    const parser = new SseParser();
    const items = [...parser.push(bytes.subarray(0, 65_536)), ...parser.push(bytes.subarray(65_536, cut))];
    items.push(...parser.push(bytes.subarray(cut)), ...parser.finish());
    expect(items).toEqual([
      { type: 'event', event: 'message', data: 'x'.repeat(70_000) },
      { type: 'event', event: 'message', data: 'Grüße 水' },
    ]);
    const bad = new SseParser();
    bad.push(new TextEncoder().encode('data: ascii\n\n'));
    expect(() => bad.push(new Uint8Array([0x64, 0x61, 0xc3, 0x28]))).toThrow(
      expect.objectContaining({ code: 'sse_protocol' }),
    );
  });
});
