import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeFrame } from '../ndjson.js';
import { pythonJsonDumps } from '../python.js';
import { MEDIA_KINDS, OUTBOUND_OPS } from './actions.js';
import { decodeFrame } from './decode.js';
import {
  decodeOutboundFast,
  frameToWireObject,
  type OutboundFrameInput,
  outboundFrameSchema,
} from './frames.js';

const text = fc.string({ maxLength: 6 });

/** Every key an action schema reads (with a value its rule accepts), and one it does not. */
const ACTION_FIELDS: Readonly<Record<string, fc.Arbitrary<unknown>>> = {
  chat_id: text,
  content: text,
  reply_to: fc.option(text, { nil: null }),
  metadata: fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  message_id: text,
  session_key: text,
  kind: text,
  media_kind: fc.constantFrom(...MEDIA_KINDS),
  source_url: text,
  filename: text,
  emoji: text,
  remove: fc.boolean(),
  thread_name: text,
  only_if_current_name: text,
  prompt_kind: fc.constantFrom('approval', 'clarify'),
  prompt_id: text,
  options: fc.array(fc.record({ id: text, label: text }), { maxLength: 2 }),
  timeout_s: fc.integer(),
  extra: fc.jsonValue({ maxDepth: 2 }),
};

/** Mostly a value the key's rule accepts, sometimes any JSON value; absent one time in four. */
const field = (valid: fc.Arbitrary<unknown>) =>
  fc.option(
    fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) }),
    { nil: undefined, freq: 4 },
  );

const action = fc
  .tuple(
    fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom<unknown>(...OUTBOUND_OPS) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, 'delete', 'constructor', 7) },
    ),
    fc.record(Object.fromEntries(Object.entries(ACTION_FIELDS).map(([key, valid]) => [key, field(valid)]))),
  )
  .map(([op, fields]) => {
    const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
    return op === undefined ? Object.fromEntries(entries) : { op, ...Object.fromEntries(entries) };
  });

/** JSON text of `outbound` frames: valid ones, refused ones, odd keys and own `__proto__` keys. */
const outboundText = fc
  .record(
    {
      type: fc.constant('outbound'),
      requestId: fc.oneof({ weight: 8, arbitrary: text }, fc.nat(), fc.constant(null)),
      action: fc.oneof(
        { weight: 8, arbitrary: action },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
      ),
      platform: fc.oneof({ weight: 8, arbitrary: text }, fc.constant(null)),
      botId: fc.oneof({ weight: 8, arbitrary: text }, fc.constant(7)),
      extra: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: ['type', 'requestId', 'action'] },
  )
  .chain((frame) =>
    fc.constantFrom(
      JSON.stringify(frame),
      JSON.stringify(frame),
      JSON.stringify(frame),
      JSON.stringify(frame).replace(/"action":\{(\}?)/, (_match, empty: string) =>
        empty === '' ? '"action":{"__proto__":{"a":1},' : '"action":{"__proto__":{"a":1}}',
      ),
      JSON.stringify(frame).replace('{"type"', '{"__proto__":{},"type"'),
    ),
  );

/** What the zod schema answers: the frame, or `undefined` for a refusal. */
function bySchema(value: unknown): unknown {
  const parsed = outboundFrameSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

describe('decodeOutboundFast agrees with outboundFrameSchema', () => {
  it('gives the schema’s frame, key order included, whenever it answers', () => {
    let answered = 0;
    fc.assert(
      fc.property(outboundText, (text) => {
        const fast = decodeOutboundFast(JSON.parse(text) as Record<string, unknown>);
        if (fast === undefined) return;
        answered += 1;
        const schema = bySchema(JSON.parse(text));
        expect(fast).toStrictEqual(schema);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(schema));
      }),
      { numRuns: 2000 },
    );
    // The generator reaches the fast path often enough for the comparison to mean something.
    expect(answered).toBeGreaterThan(100);
  });

  it('answers the frames the gateway writes, one per op but prompt', () => {
    const frames = [
      '{"type": "outbound", "requestId": "9f0c", "action": {"op": "send", "chat_id": "c1", "content": "hi", "reply_to": null, "metadata": {"scope_id": "g"}}, "platform": "discord", "botId": "app1"}',
      '{"type": "outbound", "requestId": "r", "action": {"op": "edit", "chat_id": "c", "message_id": "m", "content": "x", "metadata": {}}}',
      '{"type": "outbound", "requestId": "r", "action": {"op": "typing", "chat_id": "c", "metadata": {}}, "platform": "slack"}',
      '{"type": "outbound", "requestId": "r", "action": {"op": "follow_up", "session_key": "k", "kind": "discord.interaction_token", "content": "x", "metadata": {}}}',
      '{"type": "outbound", "requestId": "r", "action": {"op": "get_chat_info", "chat_id": "c"}}',
      '{"type": "outbound", "requestId": "r", "action": {"op": "send_media", "chat_id": "c", "media_kind": "voice", "source_url": "u"}}',
      '{"type": "outbound", "requestId": "r", "action": {"op": "react", "chat_id": "c", "message_id": "m", "emoji": "x"}}',
      '{"type": "outbound", "requestId": "r", "action": {"op": "thread_create", "chat_id": "c", "thread_name": "t", "metadata": {}, "message_id": "a", "future": [1]}}',
      '{"type": "outbound", "requestId": "r", "action": {"op": "thread_rename", "chat_id": "c", "message_id": "m", "thread_name": "t", "only_if_current_name": "o"}}',
    ];
    for (const text of frames) {
      const fast = decodeOutboundFast(JSON.parse(text) as Record<string, unknown>);
      expect(fast).toBeDefined();
      expect(fast).toStrictEqual(bySchema(JSON.parse(text)));
    }
  });

  it('leaves prompts, unknown ops, refused values and own __proto__ keys to the schema', () => {
    const undecided = [
      '{"type":"outbound","requestId":"r","action":{"op":"prompt","chat_id":"c","content":"q","prompt_kind":"approval","prompt_id":"p","options":[]}}',
      '{"type":"outbound","requestId":"r","action":{"op":"delete","chat_id":"c"}}',
      '{"type":"outbound","requestId":"r","action":{"op":"send","chat_id":"c"}}',
      '{"type":"outbound","requestId":"r","action":{"op":"send","chat_id":"c","content":"x","metadata":[]}}',
      '{"type":"outbound","requestId":"r","action":{"op":"send","chat_id":"c","content":"x"},"botId":null}',
      '{"type":"outbound","requestId":"r","action":{"op":"send","chat_id":"c","content":"x","__proto__":{}}}',
      '{"type":"outbound","requestId":7,"action":{"op":"send","chat_id":"c","content":"x"}}',
    ];
    for (const text of undecided) {
      expect(decodeOutboundFast(JSON.parse(text) as Record<string, unknown>)).toBeUndefined();
    }
  });
});

describe('encodeFrame with the outbound fast path', () => {
  /** The encoding through the schema alone: what `encodeFrame` wrote before the fast path. */
  function bySchemaEncoding(frame: OutboundFrameInput): string {
    const checked = decodeFrame(frameToWireObject(frame));
    return `${pythonJsonDumps(frameToWireObject(checked as unknown as Record<string, unknown>))}\n`;
  }

  it('writes the same bytes, or throws the same error, as the schema path', () => {
    fc.assert(
      fc.property(outboundText, (text) => {
        const frame = JSON.parse(text) as OutboundFrameInput;
        let expected: string | Error;
        try {
          expected = bySchemaEncoding(frame);
        } catch (error) {
          expected = error as Error;
        }
        if (typeof expected === 'string') expect(encodeFrame(frame, { style: 'python' })).toBe(expected);
        else expect(() => encodeFrame(frame, { style: 'python' })).toThrow(expected.message);
      }),
      { numRuns: 1000 },
    );
  });
});
