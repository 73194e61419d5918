import { describe, expect, it } from 'vitest';
import type { JsonSchema } from './json-schema.js';
import { compileSchema } from './validators.js';

describe('compileSchema', () => {
  it('refuses keywords outside the subset, naming where', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string', format: 'uri' } },
    } as unknown as JsonSchema;
    expect(() => compileSchema(schema)).toThrow(
      expect.objectContaining({ code: 'invalid_schema', path: '#/properties/a' }),
    );
    expect(() => compileSchema({ oneOf: [] } as unknown as JsonSchema)).toThrow(
      expect.objectContaining({ code: 'invalid_schema' }),
    );
  });

  it('refuses unsupported combinations and malformed keyword values', () => {
    for (const schema of [
      { enum: ['a'], minLength: 1 },
      { const: { a: 1 } },
      { enum: [] },
      { type: 'strng' },
      { type: 'string', pattern: '(' },
      { type: 'string', maxLength: -1 },
      { type: 'integer', minimum: '1' },
      { type: 'object', required: 'a' },
      null,
    ]) {
      expect(() => compileSchema(schema as unknown as JsonSchema)).toThrow(
        expect.objectContaining({ code: 'invalid_schema' }),
      );
    }
  });

  it('counts string lengths in code points', () => {
    const two = compileSchema({ type: 'string', minLength: 2, maxLength: 2 });
    expect(two.safeParse('😀😀').success).toBe(true);
    expect(two.safeParse('😀').success).toBe(false);
    expect(two.safeParse('abc').success).toBe(false);
  });

  it('treats integers as safe integers and numbers as finite', () => {
    const integer = compileSchema({ type: 'integer' });
    expect(integer.safeParse(3).success).toBe(true);
    expect(integer.safeParse(3.5).success).toBe(false);
    expect(integer.safeParse(2 ** 53).success).toBe(false);
    expect(compileSchema({ type: 'number' }).safeParse(Number.POSITIVE_INFINITY).success).toBe(false);
  });

  it('fills in defaults with fresh copies, and leaves given values alone', () => {
    const schema = compileSchema({
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string' }, default: ['a'] } },
    });
    const first = schema.parse({}) as { tags: string[] };
    first.tags.push('mutated');
    expect(schema.parse({})).toEqual({ tags: ['a'] });
    expect(schema.parse({ tags: [] })).toEqual({ tags: [] });
  });

  it('keeps unknown keys of open objects, refuses them on closed ones, checks them against a schema', () => {
    const open = compileSchema({ type: 'object', properties: { a: { type: 'integer' } } });
    expect(open.parse({ a: 1, b: 'x' })).toEqual({ a: 1, b: 'x' });
    const closed = compileSchema({
      type: 'object',
      properties: { a: { type: 'integer' } },
      additionalProperties: false,
    });
    expect(closed.safeParse({ a: 1, b: 'x' }).success).toBe(false);
    const map = compileSchema({ type: 'object', additionalProperties: { type: 'integer' } });
    expect(map.safeParse({ x: 1 }).success).toBe(true);
    expect(map.safeParse({ x: 'y' }).success).toBe(false);
  });

  it('applies pattern unanchored with the u flag, and type unions', () => {
    const hex = compileSchema({ type: 'string', pattern: '[0-9a-f]{4}' });
    expect(hex.safeParse('xxabcdxx').success).toBe(true);
    const nullable = compileSchema({ type: ['integer', 'null'] });
    expect(nullable.safeParse(null).success).toBe(true);
    expect(nullable.safeParse('1').success).toBe(false);
  });
});
