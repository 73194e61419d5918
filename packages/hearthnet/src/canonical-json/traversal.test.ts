import { describe, expect, it } from 'vitest';
import { HearthNetLocalError } from '../errors.js';
import { containerKind, isWellFormed, MAX_CANONICAL_DEPTH, Traversal } from './canonical-json.js';

describe('Traversal', () => {
  it('names the path of the value being visited from the segments of the entered containers', () => {
    const traversal = new Traversal();
    const outer = {};
    const inner: unknown[] = [];
    const level0 = traversal.enter(outer);
    traversal.segments[level0] = 'items';
    const level1 = traversal.enter(inner);
    traversal.segments[level1] = 2;
    expect(traversal.path()).toBe('$.items[2]');
    traversal.leave();
    expect(traversal.path()).toBe('$.items');
  });

  it('rejects re-entering a container that is still open, but not a finished one', () => {
    const traversal = new Traversal();
    const shared = {};
    traversal.enter(shared);
    traversal.leave();
    traversal.enter(shared);
    expect(() => traversal.enter(shared)).toThrow(expect.objectContaining({ code: 'cycle' }));
  });

  it(`allows ${MAX_CANONICAL_DEPTH} nested containers and no more`, () => {
    const traversal = new Traversal();
    for (let i = 0; i < MAX_CANONICAL_DEPTH; i++) traversal.enter([]);
    const error = (() => {
      try {
        traversal.enter([]);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(HearthNetLocalError);
    expect(error).toMatchObject({ code: 'max_depth' });
  });
});

describe('containerKind', () => {
  it('accepts arrays, plain objects and null-prototype objects', () => {
    const traversal = new Traversal();
    expect(containerKind([], traversal)).toBe('array');
    expect(containerKind({}, traversal)).toBe('object');
    expect(containerKind(Object.create(null), traversal)).toBe('object');
  });

  it.each([
    ['a Date', new Date(0)],
    ['a Map', new Map()],
    ['a Uint8Array', new Uint8Array(1)],
    ['a Number', Object(1)],
    ['a Thing', new (class Thing {})()],
    ['a Special', new (class Special extends Array {})()],
  ])('rejects %s', (name, value) => {
    expect(() => containerKind(value, new Traversal())).toThrow(
      expect.objectContaining({
        code: 'unsupported_type',
        message: `${name} is not a plain object or array at $`,
      }),
    );
  });
});

describe('isWellFormed', () => {
  it('is false exactly for strings with a lone surrogate', () => {
    expect(isWellFormed('abc😀')).toBe(true);
    expect(isWellFormed('\ud800')).toBe(false);
    expect(isWellFormed('a\udc00b')).toBe(false);
    expect(isWellFormed('\ude00\ud83d')).toBe(false);
  });
});
