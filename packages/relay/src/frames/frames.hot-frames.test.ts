import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeInboundAckFast,
  decodeInboundFast,
  decodeOutboundResultFast,
  inboundAckFrameSchema,
  inboundFrameSchema,
  outboundResultFrameSchema,
} from './frames.js';

/** JSON text of inbound / inbound_ack frames, valid and not, with the odd key thrown in. */
const member = (key: string, value: fc.Arbitrary<unknown>) =>
  fc.option(
    value.map(
      (v) =>
        `${JSON.stringify(key)}:${typeof v === 'string' && v.startsWith('{"__proto__"') ? v : JSON.stringify(v)}`,
    ),
    { nil: undefined },
  );
const frameText = (type: string, keys: Record<string, fc.Arbitrary<unknown>>) =>
  fc
    .tuple(
      fc.constantFrom(`"type":"${type}"`, `"type":"${type}"`, '"type":"other"'),
      ...Object.entries(keys).map(([key, value]) => member(key, value)),
      member('extra', fc.jsonValue()),
    )
    .chain((parts) =>
      fc.shuffledSubarray(
        parts.filter((p): p is string => p !== undefined),
        { minLength: 0 },
      ),
    )
    .map((parts) => `{${parts.join(',')}}`);

/** What the zod schema answers: the frame, or `undefined` for a refusal. */
function bySchema(schema: { safeParse(v: unknown): { success: boolean; data?: unknown } }, value: unknown) {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

describe('hot frame decoders agree with the zod schemas', () => {
  it('inbound: same frame whenever the fast path answers', () => {
    const event = fc.oneof(
      fc.dictionary(fc.string(), fc.jsonValue()),
      fc.jsonValue(),
      fc.constant('{"__proto__":{"a":1}}'),
    );
    const bufferId = fc.oneof(fc.string(), fc.nat(), fc.constant(null), fc.constant(0));
    fc.assert(
      fc.property(frameText('inbound', { event, bufferId }), (text) => {
        const value = JSON.parse(text) as Record<string, unknown>;
        if (value['type'] !== 'inbound') return;
        const fast = decodeInboundFast(JSON.parse(text) as Record<string, unknown>);
        if (fast !== undefined) expect(fast).toStrictEqual(bySchema(inboundFrameSchema, value));
      }),
      { numRuns: 1000 },
    );
  });

  it('inbound: answers the common frames itself', () => {
    const text = '{"type":"inbound","event":{"text":"hi","source":{"chat_id":"1"}},"bufferId":"7"}';
    expect(decodeInboundFast(JSON.parse(text))).toStrictEqual(bySchema(inboundFrameSchema, JSON.parse(text)));
    expect(decodeInboundFast(JSON.parse('{"type":"inbound","event":{}}'))).toStrictEqual({
      type: 'inbound',
      event: {},
    });
    expect(decodeInboundFast(JSON.parse('{"type":"inbound","event":{"n":1},"bufferId":7}'))).toBeUndefined();
    expect(decodeInboundFast(JSON.parse('{"type":"inbound","event":{"__proto__":{}}}'))).toBeUndefined();
  });

  it('inbound_ack: same frame whenever the fast path answers', () => {
    const bufferId = fc.oneof(fc.string(), fc.nat(), fc.constant(null));
    fc.assert(
      fc.property(frameText('inbound_ack', { bufferId }), (text) => {
        const value = JSON.parse(text) as Record<string, unknown>;
        if (value['type'] !== 'inbound_ack') return;
        const fast = decodeInboundAckFast(JSON.parse(text) as Record<string, unknown>);
        if (fast !== undefined) expect(fast).toStrictEqual(bySchema(inboundAckFrameSchema, value));
      }),
      { numRuns: 500 },
    );
    expect(decodeInboundAckFast({ type: 'inbound_ack', bufferId: '12-0' })).toStrictEqual({
      type: 'inbound_ack',
      bufferId: '12-0',
    });
  });

  it('outbound_result: same frame whenever the fast path answers', () => {
    const requestId = fc.oneof(fc.string(), fc.nat(), fc.constant(null));
    const result = fc.oneof(
      fc.dictionary(fc.string(), fc.jsonValue()),
      fc.jsonValue(),
      fc.constant('{"__proto__":{"a":1}}'),
      fc.constant('{"success":true,"__proto__":{"a":1}}'),
    );
    fc.assert(
      fc.property(frameText('outbound_result', { requestId, result }), (text) => {
        const value = JSON.parse(text) as Record<string, unknown>;
        if (value['type'] !== 'outbound_result') return;
        const fast = decodeOutboundResultFast(JSON.parse(text) as Record<string, unknown>);
        if (fast !== undefined) expect(fast).toStrictEqual(bySchema(outboundResultFrameSchema, value));
      }),
      { numRuns: 1000 },
    );
  });

  it('outbound_result: answers the common frames itself', () => {
    const text = '{"type":"outbound_result","requestId":"ab12","result":{"success":true,"message_id":"m1"}}';
    expect(decodeOutboundResultFast(JSON.parse(text))).toStrictEqual({
      type: 'outbound_result',
      requestId: 'ab12',
      result: { success: true, message_id: 'm1' },
    });
    expect(
      decodeOutboundResultFast(JSON.parse('{"type":"outbound_result","requestId":"a"}')),
    ).toBeUndefined();
    expect(
      decodeOutboundResultFast(
        JSON.parse('{"type":"outbound_result","requestId":"a","result":{"__proto__":{}}}'),
      ),
    ).toBeUndefined();
  });
});
