import { describe, expect, it } from 'vitest';
import { decodeConnectorFrame, decodeGatewayFrame } from './frames/decode.js';
import { CONNECTOR_LINES, GATEWAY_LINES } from './frames/test-frames.js';
import { DEFAULT_MAX_LINE_BYTES, FrameDecoder, type FrameDecoderResult } from './ndjson.js';

const utf8 = new TextEncoder();

/** Each result as `{ type }` for a frame or `{ error: code }`. */
function summary(results: readonly FrameDecoderResult<{ type: string }>[]) {
  return results.map((r) => (r.ok ? { type: r.frame.type } : { error: r.error.code }));
}

describe('FrameDecoder', () => {
  it('decodes one frame per message, as the gateway sends them', () => {
    const decoder = new FrameDecoder({ decode: decodeGatewayFrame });
    for (const line of Object.values(GATEWAY_LINES)) {
      const results = decoder.push(line);
      expect(results).toHaveLength(1);
      expect(results[0]).toEqual({ ok: true, frame: decodeGatewayFrame(line) });
    }
    expect(decoder.bufferedBytes).toBe(0);
  });

  it('decodes a batch of frames in one message and a frame split over many', () => {
    const decoder = new FrameDecoder({ decode: decodeConnectorFrame });
    const batch = Object.values(CONNECTOR_LINES).join('');
    expect(summary(decoder.push(batch)).map((s) => s.type)).toEqual([
      'descriptor',
      'inbound',
      'outbound_result',
      'interrupt_inbound',
      'passthrough_forward',
      'going_idle_ack',
    ]);
    const line = CONNECTOR_LINES.inbound;
    for (let i = 0; i < line.length - 1; i++) expect(decoder.push(line[i]!)).toEqual([]);
    expect(decoder.bufferedBytes).toBe(utf8.encode(line.slice(0, -1)).length);
    expect(summary(decoder.push('\n'))).toEqual([{ type: 'inbound' }]);
  });

  it('joins a multi-byte UTF-8 character split across binary messages', () => {
    const bytes = utf8.encode('{"type":"hello","platform":"discord","botId":"€😀"}\n');
    const at = bytes.indexOf(0xf0) + 2; // inside the 4-byte emoji
    const decoder = new FrameDecoder();
    expect(decoder.push(bytes.slice(0, at))).toEqual([]);
    expect(decoder.push(bytes.slice(at))).toEqual([
      { ok: true, frame: { type: 'hello', platform: 'discord', botId: '€😀' } },
    ]);
  });

  it('accepts text and binary chunks of one stream together', () => {
    const decoder = new FrameDecoder();
    expect(decoder.push(utf8.encode('{"type":"inbound_ack",'))).toEqual([]);
    expect(decoder.push('"bufferId":"é"}\n{"type":')).toEqual([
      { ok: true, frame: { type: 'inbound_ack', bufferId: 'é' } },
    ]);
    expect(summary(decoder.push(utf8.encode('"going_idle"}\n')))).toEqual([{ type: 'going_idle' }]);
  });

  it('skips blank lines, Python whitespace included, and accepts \\r\\n line ends', () => {
    const decoder = new FrameDecoder();
    const results = decoder.push(
      '\n  \n\t\r\n\u001c\u0085\u3000\n{"type":"going_idle"}\r\n\r\n{"type":"going_idle_ack"}\n',
    );
    expect(summary(results)).toEqual([{ type: 'going_idle' }, { type: 'going_idle_ack' }]);
    // U+FEFF is not Python whitespace: a line of it is malformed, not blank.
    expect(summary(decoder.push('\ufeff\n'))).toEqual([{ error: 'malformed_json' }]);
  });

  it('reports malformed, non-object, invalid and unknown lines and keeps going', () => {
    const decoder = new FrameDecoder({ decode: decodeGatewayFrame });
    const text = [
      '{bad',
      '[1,2]',
      '"hello"',
      'null',
      '{"type":"hello"}',
      '{"type":"ping"}',
      '{"type":"going_idle"}',
    ].join('\n');
    expect(summary(decoder.push(`${text}\n`))).toEqual([
      { error: 'malformed_json' },
      { error: 'not_object' },
      { error: 'not_object' },
      { error: 'not_object' },
      { error: 'invalid_frame' },
      { type: 'unknown' },
      { type: 'going_idle' },
    ]);
  });

  it('reports invalid UTF-8 in a binary line and resumes at the next line', () => {
    const decoder = new FrameDecoder();
    const bad = new Uint8Array([0x7b, 0xff, 0x7d, 0x0a, ...utf8.encode('{"type":"going_idle"}\n')]);
    expect(summary(decoder.push(bad))).toEqual([{ error: 'invalid_utf8' }, { type: 'going_idle' }]);
  });

  it('enforces the line limit in UTF-8 bytes, reports once, and resyncs after the next newline', () => {
    const frame = '{"type":"hello","platform":"p","botId":"éé"}';
    const size = utf8.encode(frame).length;
    const exact = new FrameDecoder({ maxLineBytes: size });
    expect(summary(exact.push(`${frame}\n`))).toEqual([{ type: 'hello' }]);
    const tight = new FrameDecoder({ maxLineBytes: size - 1 });
    expect(summary(tight.push(`${frame}\n{"type":"going_idle"}\n`))).toEqual([
      { error: 'line_too_long' },
      { type: 'going_idle' },
    ]);
    // Split over chunks: the error comes as soon as the limit is passed, the tail is dropped.
    expect(summary(tight.push(frame.slice(0, 20)))).toEqual([]);
    expect(summary(tight.push(frame.slice(20)))).toEqual([{ error: 'line_too_long' }]);
    expect(tight.bufferedBytes).toBe(0);
    expect(summary(tight.push('more garbage'))).toEqual([]);
    expect(summary(tight.push(utf8.encode('still\n{"type":"going_idle"}\n')))).toEqual([
      { type: 'going_idle' },
    ]);
  });

  it('reports an unterminated frame at end(), ignores an unterminated blank, and can be reused', () => {
    const decoder = new FrameDecoder();
    expect(decoder.push('{"type":"going_idle"}')).toEqual([]);
    expect(summary(decoder.end())).toEqual([{ error: 'incomplete_frame' }]);
    expect(decoder.bufferedBytes).toBe(0);
    expect(decoder.push('  ')).toEqual([]);
    expect(decoder.end()).toEqual([]);
    expect(decoder.push(utf8.encode('€').slice(0, 1))).toEqual([]);
    expect(summary(decoder.end())).toEqual([{ error: 'incomplete_frame' }]);
    expect(summary(decoder.push('{"type":"going_idle"}\n'))).toEqual([{ type: 'going_idle' }]);
  });

  it('is reusable after end() cut a line it was dropping for its length', () => {
    const decoder = new FrameDecoder({ decode: decodeGatewayFrame, maxLineBytes: 25 });
    expect(summary(decoder.push('x'.repeat(30)))).toEqual([{ error: 'line_too_long' }]);
    expect(decoder.end()).toEqual([]);
    expect(summary(decoder.push('{"type":"going_idle"}\n'))).toEqual([{ type: 'going_idle' }]);
  });

  it('does not keep a reference to the caller buffer', () => {
    const decoder = new FrameDecoder();
    const buffer = utf8.encode('{"type":"going_');
    decoder.push(buffer);
    buffer.fill(0x20);
    expect(summary(decoder.push('idle"}\n'))).toEqual([{ type: 'going_idle' }]);
  });

  it('rejects a nonsensical line limit', () => {
    const refused = expect.objectContaining({
      name: 'RelayError',
      code: 'invalid_argument',
      path: 'maxLineBytes',
    });
    expect(() => new FrameDecoder({ maxLineBytes: 0 })).toThrow(refused);
    expect(() => new FrameDecoder({ maxLineBytes: 1.5 })).toThrow(refused);
    expect(DEFAULT_MAX_LINE_BYTES).toBe(1048576);
  });
});
