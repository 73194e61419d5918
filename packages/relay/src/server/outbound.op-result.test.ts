import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OUTBOUND_OPS } from '../frames/actions.js';
import { normalizeBySchema, normalizeOpResult, orderedResultFast } from './outbound.js';

describe('normalizeOpResult', () => {
  it('keeps a valid result as plain JSON without ambiguous', () => {
    const result = normalizeOpResult('thread_create', {
      success: true,
      thread_id: 't1',
      ambiguous: true,
      extra: 1,
    });
    expect(result).toEqual({ success: true, thread_id: 't1', extra: 1 });
  });

  it.each([
    ['no object', 'send', 'ok', 'returned no result object'],
    ['no success', 'send', { message_id: 'm' }, 'invalid result'],
    ['a mistyped message_id', 'edit', { success: true, message_id: 7 }, 'at $.message_id'],
    ['a non-JSON value', 'react', { success: true, raw_response: new Map() }, 'not JSON'],
  ] as const)('turns %s into a failure naming it', (_name, op, value, text) => {
    const result = normalizeOpResult(op, value);
    expect(result['success']).toBe(false);
    expect(result['error']).toContain(text);
  });
});

describe('normalizeOpResult agrees with its schema path', () => {
  class Box {
    readonly inside = 1;
  }
  const value = fc.oneof(
    { weight: 6, arbitrary: fc.oneof(fc.boolean(), fc.string({ maxLength: 4 }), fc.constant(null)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<unknown>(undefined, 1n, new Map(), new Box(), () => 1, Symbol('s'), [
        undefined,
      ]),
    },
  );
  /** Mostly a value the key's schema accepts, sometimes any other. */
  const field = (valid: fc.Arbitrary<unknown>) =>
    fc.oneof({ weight: 10, arbitrary: valid }, { weight: 1, arbitrary: value });
  const text = fc.string({ maxLength: 4 });
  const fields = fc.record(
    {
      success: field(fc.boolean()),
      error: field(text),
      code: field(text),
      raw_response: field(fc.jsonValue({ maxDepth: 2 })),
      ambiguous: field(fc.boolean()),
      message_id: field(fc.option(text, { nil: null })),
      thread_id: field(fc.option(text, { nil: null })),
      chat_info: field(fc.record({ name: text, type: text })),
      extra: value,
    },
    { requiredKeys: [] },
  );
  const result = fc.oneof(
    {
      weight: 8,
      arbitrary: fields.chain((record) =>
        fc.shuffledSubarray(Object.entries(record)).map((entries) => Object.fromEntries(entries)),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<object>(
        Object.assign(Object.create(null), { success: true }),
        Object.assign(new Box(), { success: true }),
        JSON.parse('{"success":true,"__proto__":{"a":1}}'),
      ),
    },
  );

  it('gives the same result, key order included, for any adapter return value', () => {
    let answeredFast = 0;
    fc.assert(
      fc.property(fc.constantFrom(...OUTBOUND_OPS), result, (op, returned) => {
        if (orderedResultFast(op, returned as Record<string, unknown>) !== undefined) answeredFast += 1;
        const normalized = normalizeOpResult(op, returned);
        const bySchema = normalizeBySchema(op, returned);
        expect(normalized).toStrictEqual(bySchema);
        expect(JSON.stringify(normalized)).toBe(JSON.stringify(bySchema));
      }),
      { numRuns: 2000 },
    );
    // The generator reaches the hand-written path often enough for the comparison to mean something.
    expect(answeredFast).toBeGreaterThan(100);
  });

  it('writes the schema’s keys first, in its order, then the others', () => {
    const result = normalizeOpResult('send', {
      extra: [1],
      message_id: null,
      ambiguous: false,
      success: true,
    });
    expect(Object.keys(result)).toStrictEqual(['success', 'message_id', 'extra']);
  });
});
