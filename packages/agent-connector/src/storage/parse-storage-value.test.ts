import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseStorageValue } from './conventions.js';

describe('parseStorageValue', () => {
  const schema = z.object({ items: z.array(z.object({ tag: z.string() })) });

  it('returns the parsed value', () => {
    expect(parseStorageValue(schema, { items: [{ tag: 'a' }] })).toEqual({ items: [{ tag: 'a' }] });
  });

  it('names the failing field under the label, with the zod error as cause', () => {
    let caught: unknown;
    try {
      parseStorageValue(schema, { items: [{ tag: 'a' }, { tag: 1 }] }, 'entry');
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'storage_validation' });
    expect(caught).toMatchObject({ path: 'entry.items[1].tag' });
    expect((caught as Error).cause).toBeInstanceOf(z.ZodError);
  });

  it('uses the bare field path without a label, and the label alone for the whole value', () => {
    expect(() => parseStorageValue(schema, { items: 'x' })).toThrow(
      expect.objectContaining({ path: 'items' }),
    );
    expect(() => parseStorageValue(schema, null, 'entry')).toThrow(
      expect.objectContaining({ path: 'entry' }),
    );
  });
});
