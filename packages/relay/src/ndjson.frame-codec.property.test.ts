// Property tests of the wire codec: every frame survives encodeFrame → FrameDecoder under any chunking
// (text or bytes, split inside multi-byte UTF-8), and no input makes the decoders throw anything but a
// RelayError with a frame code.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isFrameError } from './errors.js';
import { MEDIA_KINDS, PROMPT_KINDS } from './frames/actions.js';
import { decodeFrame, decodeGatewayFrame } from './frames/decode.js';
import { type EncodableFrame, encodeFrame, FrameDecoder, type FrameJsonStyle } from './ndjson.js';

const text = fc.string({ unit: 'binary', maxLength: 12 });
const id = fc.string({ unit: 'grapheme-ascii', maxLength: 8 });
const json = fc.jsonValue({ maxDepth: 2 });
const metadata = fc.dictionary(id, json, { maxKeys: 3 });

const descriptor = fc.record({
  contract_version: fc.constant(1),
  platform: text,
  label: text,
  max_message_length: fc.integer({ min: 1, max: 40_000 }),
  supports_draft_streaming: fc.boolean(),
  supports_edit: fc.boolean(),
  supports_threads: fc.boolean(),
  markdown_dialect: text,
  len_unit: fc.constantFrom('chars', 'utf16'),
  supported_ops: fc.array(fc.constantFrom('send', 'edit', 'react', 'prompt'), { maxLength: 3 }),
});

const action = fc.oneof(
  fc.record({ op: fc.constant('send'), chat_id: id, content: text, reply_to: fc.option(id), metadata }),
  fc.record({ op: fc.constant('edit'), chat_id: id, message_id: id, content: text, metadata }),
  fc.record({ op: fc.constant('typing'), chat_id: id, metadata }, { requiredKeys: ['op', 'chat_id'] }),
  fc.record({ op: fc.constant('follow_up'), session_key: text, kind: id, content: text, metadata }),
  fc.record({ op: fc.constant('get_chat_info'), chat_id: id }),
  fc.record(
    {
      op: fc.constant('send_media'),
      chat_id: id,
      media_kind: fc.constantFrom(...MEDIA_KINDS),
      source_url: text,
      content: text,
      filename: text,
    },
    { requiredKeys: ['op', 'chat_id', 'media_kind', 'source_url'] },
  ),
  fc.record({
    op: fc.constant('prompt'),
    chat_id: id,
    content: text,
    prompt_kind: fc.constantFrom(...PROMPT_KINDS),
    prompt_id: id,
    options: fc.array(fc.record({ id, label: text }), { maxLength: 3 }),
    timeout_s: fc.integer({ min: 0, max: 86_400 }),
  }),
  fc.record({
    op: fc.constant('react'),
    chat_id: id,
    message_id: id,
    emoji: text,
    remove: fc.boolean(),
    metadata,
  }),
  fc.record({ op: fc.constant('thread_create'), chat_id: id, thread_name: text, metadata }),
  fc.record({
    op: fc.constant('thread_rename'),
    chat_id: id,
    message_id: id,
    thread_name: text,
    only_if_current_name: text,
  }),
  fc.record({ op: fc.constantFrom('delete', 'draft'), chat_id: id, extra: json }),
);

const frame: fc.Arbitrary<EncodableFrame> = fc.oneof(
  fc.record({ type: fc.constant('hello'), platform: id, botId: text }),
  fc.record(
    { type: fc.constant('outbound'), requestId: id, action, platform: id, botId: id },
    { requiredKeys: ['type', 'requestId', 'action'] },
  ),
  fc.record({ type: fc.constant('interrupt'), session_key: text, reason: fc.option(text) }),
  fc.constant({ type: 'going_idle' as const }),
  fc.record({ type: fc.constant('inbound_ack'), bufferId: text }),
  fc.record({ type: fc.constant('descriptor'), descriptor }),
  fc.record(
    { type: fc.constant('inbound'), event: fc.dictionary(id, json, { maxKeys: 4 }), bufferId: text },
    { requiredKeys: ['type', 'event'] },
  ),
  fc.record({
    type: fc.constant('outbound_result'),
    requestId: id,
    result: fc.dictionary(id, json, { maxKeys: 4 }),
  }),
  fc.record({ type: fc.constant('interrupt_inbound'), session_key: text, chat_id: id }),
  fc.record({
    type: fc.constant('passthrough_forward'),
    forward: fc.record({
      platform: id,
      botId: id,
      method: id,
      path: text,
      headers: fc.array(fc.tuple(id, text), { maxLength: 3 }),
      bodyB64: fc.base64String({ maxLength: 16 }),
    }),
  }),
  fc.constant({ type: 'going_idle_ack' as const }),
  fc.record({ type: id.map((t) => `x-${t}`), payload: json }),
) as fc.Arbitrary<EncodableFrame>;

const style = fc.constantFrom<FrameJsonStyle>('compact', 'python');

/** Cuts `total` units into pieces at the given positions. */
function cut<T extends string | Uint8Array>(whole: T, positions: readonly number[]): T[] {
  const points = [...new Set(positions.map((p) => p % (whole.length + 1)))].sort((a, b) => a - b);
  const pieces: T[] = [];
  let last = 0;
  for (const point of [...points, whole.length]) {
    pieces.push(whole.slice(last, point) as T);
    last = point;
  }
  return pieces;
}

function decodeAll(chunks: readonly (string | Uint8Array)[]) {
  const decoder = new FrameDecoder();
  const results = chunks.flatMap((chunk) => decoder.push(chunk));
  return [...results, ...decoder.end()];
}

const utf8 = new TextEncoder();

describe('encodeFrame → FrameDecoder', () => {
  it('round-trips every frame, under any text or byte chunking, in both styles', () => {
    fc.assert(
      fc.property(
        frame,
        style,
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.boolean(),
        (f, s, positions, asBytes) => {
          const line = encodeFrame(f, { style: s });
          expect(line.endsWith('\n')).toBe(true);
          expect(line.indexOf('\n')).toBe(line.length - 1);
          const expected = decodeFrame(line);
          expect(encodeFrame(expected, { style: s })).toBe(line);
          const chunks = asBytes ? cut(utf8.encode(line), positions) : cut(line, positions);
          expect(decodeAll(chunks)).toEqual([{ ok: true, frame: expected }]);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('keeps the order of a stream of frames with blank lines, batched and split at random byte positions', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(frame, fc.constantFrom('', '\n', '\r\n', ' \n')), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (items, positions) => {
          const stream = items.map(([f, gap]) => encodeFrame(f) + gap).join('');
          const expected = items.map(([f]) => ({ ok: true, frame: decodeFrame(encodeFrame(f)) }));
          expect(decodeAll(cut(utf8.encode(stream), positions))).toEqual(expected);
          expect(decodeAll(cut(stream, positions))).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('splits inside every multi-byte UTF-8 sequence of a frame', () => {
    const line = encodeFrame({ type: 'hello', platform: 'ü€', botId: '😀𝄞' });
    const bytes = utf8.encode(line);
    for (let at = 0; at <= bytes.length; at++) {
      expect(decodeAll([bytes.slice(0, at), bytes.slice(at)])).toEqual([
        { ok: true, frame: { type: 'hello', platform: 'ü€', botId: '😀𝄞' } },
      ]);
    }
  });
});

describe('the decoders never throw anything but a RelayError with a frame code', () => {
  function onlyFrameErrors(results: ReturnType<typeof decodeAll>) {
    for (const r of results) if (!r.ok) expect(isFrameError(r.error)).toBe(true);
  }

  it('FrameDecoder on arbitrary bytes, with any line limit', () => {
    const bytes = fc.uint8Array({ maxLength: 64 }).map((b) => b.map((x) => (x % 7 === 0 ? 0x0a : x)));
    fc.assert(
      fc.property(fc.array(bytes, { maxLength: 5 }), fc.integer({ min: 1, max: 80 }), (chunks, max) => {
        const decoder = new FrameDecoder({ maxLineBytes: max, decode: decodeGatewayFrame });
        onlyFrameErrors([...chunks.flatMap((c) => decoder.push(c)), ...decoder.end()]);
      }),
      { numRuns: 300 },
    );
  });

  it('FrameDecoder on arbitrary text, JSON-like text and mixed chunks', () => {
    const jsonish = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.json({ maxDepth: 3 }),
      fc
        .jsonValue({ maxDepth: 2 })
        .map((v) => JSON.stringify({ type: 'outbound', requestId: 'r', action: v })),
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify({ type: 'descriptor', descriptor: v })),
      fc
        .constantFrom('hello', 'outbound', 'inbound', 'passthrough_forward', 'interrupt')
        .chain((type) =>
          fc
            .dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })
            .map((d) => JSON.stringify({ ...d, type })),
        ),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(jsonish, fc.boolean()), { maxLength: 6 }), (pieces) => {
        const decoder = new FrameDecoder();
        const results = pieces.flatMap(([piece, newline]) => decoder.push(newline ? `${piece}\n` : piece));
        onlyFrameErrors([...results, ...decoder.end()]);
      }),
      { numRuns: 400 },
    );
  });

  it('decodeFrame and encodeFrame on arbitrary values', () => {
    fc.assert(
      fc.property(fc.anything({ maxDepth: 3 }), (value) => {
        for (const fn of [() => decodeFrame(value), () => encodeFrame(value as EncodableFrame)]) {
          try {
            fn();
          } catch (error) {
            expect(isFrameError(error)).toBe(true);
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});
