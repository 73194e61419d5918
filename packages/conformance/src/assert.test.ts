import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertEqual, assertRefuses, assertRejects, assertTrue, deepEqual, fail } from './assert.js';
import { ConformanceError } from './errors.js';

describe('deepEqual', () => {
  it.each([
    [1, 1],
    [Number.NaN, Number.NaN],
    [10n ** 30n, 10n ** 30n],
    ['é', 'é'],
    [new Uint8Array([1, 2]), new Uint8Array([1, 2])],
    [
      { a: [1, { b: null }], c: 'x' },
      { c: 'x', a: [1, { b: null }] },
    ],
    [[], []],
  ])('treats %p and %p as equal', (a, b) => {
    expect(deepEqual(a, b)).toBe(true);
  });

  it.each([
    [0, -0],
    [1, 1n],
    ['1', 1],
    [null, undefined],
    [null, {}],
    [new Uint8Array([1, 2]), [1, 2]],
    [new Uint8Array([1, 2]), new Uint8Array([1, 3])],
    [
      [1, 2],
      [2, 1],
    ],
    [[1], { 0: 1 }],
    [{ a: 1 }, { a: 1, b: undefined }],
    [
      { a: 1, b: 2 },
      { a: 1, c: 2 },
    ],
  ])('tells %p and %p apart', (a, b) => {
    expect(deepEqual(a, b)).toBe(false);
    expect(deepEqual(b, a)).toBe(false);
  });

  it('agrees with itself on any JSON value and its round trip', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(deepEqual(value, JSON.parse(JSON.stringify(value)))).toBe(!containsNegativeZero(value));
      }),
      { numRuns: 200 },
    );
  });
});

function containsNegativeZero(value: unknown): boolean {
  if (Object.is(value, -0)) return true;
  if (value === null || typeof value !== 'object') return false;
  return Object.values(value).some(containsNegativeZero);
}

describe('assertions', () => {
  it('assertEqual passes on equal values and throws a message with both sides otherwise', () => {
    expect(() => assertEqual({ a: 1n }, { a: 1n })).not.toThrow();
    const error = catchError(() => assertEqual('blake3:ab', 'blake3:cd', 'content id'));
    expect(error).toBeInstanceOf(ConformanceError);
    expect(error).toMatchObject({
      code: 'assertion_failed',
      message: 'content id: expected "blake3:cd", got "blake3:ab"',
      details: { actual: 'blake3:ab', expected: 'blake3:cd' },
    });
  });

  it('assertEqual shows -0, bigints and bytes unambiguously', () => {
    expect(catchError(() => assertEqual(0, -0)).message).toBe('expected -0, got 0');
    expect(catchError(() => assertEqual(1, 1n)).message).toBe('expected 1n, got 1');
    expect(catchError(() => assertEqual(new Uint8Array([0xab]), new Uint8Array())).message).toBe(
      'expected bytes(), got bytes(ab)',
    );
  });

  it('assertTrue accepts only true', () => {
    expect(() => assertTrue(true, 'fine')).not.toThrow();
    expect(() => assertTrue(1 as unknown as boolean, 'truthy is not true')).toThrow('truthy is not true');
  });

  it('fail throws with the message and keeps the cause', () => {
    const cause = new Error('root');
    expect(catchError(() => fail('broken', cause))).toMatchObject({ message: 'broken', cause });
  });

  it('assertRejects resolves with a thrown or rejected error and fails when there is none', async () => {
    const thrown = new Error('sync');
    await expect(
      assertRejects(() => {
        throw thrown;
      }, 'x'),
    ).resolves.toBe(thrown);
    await expect(assertRejects(() => Promise.reject(new RangeError('async')), 'x')).resolves.toBeInstanceOf(
      RangeError,
    );
    await expect(assertRejects(() => 'ok', 'NaN must be rejected')).rejects.toMatchObject({
      code: 'assertion_failed',
      message: 'NaN must be rejected: expected an error, got "ok"',
    });
  });
});

function catchError(action: () => void): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the action to throw');
}

describe('assertRefuses', () => {
  const typed = (fields: Record<string, unknown>, message = 'refused') =>
    Object.assign(new Error(message), { code: 'bad_thing', path: 'limit', details: { value: -1 } }, fields);
  const refusing = (error: unknown) => () => Promise.reject(error);

  it('resolves with a refusal that has a message, the code, the path and the details asked for', async () => {
    const error = typed({});
    await expect(
      assertRefuses(refusing(error), { code: 'bad_thing', path: 'limit', details: { value: -1 } }, 'list'),
    ).resolves.toBe(error);
  });

  it.each([
    ['a thrown string', 'nope', 'expected an Error'],
    ['an empty message', typed({}, ' '), 'empty message'],
    ['another code', typed({ code: 'other' }), 'error code'],
    ['another path', typed({ path: 'offset' }), 'error path'],
    ['other details', typed({ details: { value: 0 } }), 'details.value'],
    ['no details', typed({ details: undefined }), 'details.value'],
  ])('fails on %s', async (_what, error, words) => {
    await expect(
      assertRefuses(refusing(error), { code: 'bad_thing', path: 'limit', details: { value: -1 } }, 'list'),
    ).rejects.toThrow(words);
  });

  it('fails when the action resolves', async () => {
    await expect(assertRefuses(async () => 1, { code: 'bad_thing' }, 'list')).rejects.toThrow(
      'expected an error',
    );
  });
});
