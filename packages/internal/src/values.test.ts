import { describe, expect, it } from 'vitest';
import {
  describeType,
  describeValue,
  isJsonObject,
  isPlainObject,
  messageOf,
  messageWithCause,
} from './values.js';

describe('object checks', () => {
  it('isJsonObject takes any non-null, non-array object', () => {
    expect([{}, Object.create(null), new Map(), new Date()].map((v) => isJsonObject(v))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect([null, [], 'x', 1, undefined].map((v) => isJsonObject(v))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('isPlainObject takes only {} and Object.create(null)', () => {
    expect([{}, Object.create(null)].map((v) => isPlainObject(v))).toEqual([true, true]);
    expect([new Map(), new Date(), [], null, 'x'].map((v) => isPlainObject(v))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('describeType', () => {
  it.each([
    [null, 'null'],
    [undefined, 'undefined'],
    [[1], 'an array'],
    [{}, 'an object'],
    [new Map(), 'a Map'],
    ['secret', 'a string'],
    [1, 'a number'],
    [false, 'a boolean'],
    [1n, 'a bigint'],
    [() => 1, 'a function'],
    [Symbol('s'), 'a symbol'],
  ])('%o is %s, never its content', (value, expected) => {
    expect(describeType(value)).toBe(expected);
  });
});

describe('describeValue', () => {
  it.each([
    [null, 'null'],
    [[1], 'an array'],
    [{}, 'an object'],
    [Object.create(null), 'an object'],
    [new Map(), 'a Map'],
    ['hi', '"hi"'],
    [3.5, '3.5'],
    [true, 'true'],
    [10n, '10n'],
    [undefined, 'undefined'],
    [() => 1, 'a function'],
  ])('%o is %s', (value, expected) => {
    expect(describeValue(value)).toBe(expected);
  });

  it('never throws on a hostile object', () => {
    const hostile = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error('no');
        },
      },
    );
    expect(describeType(hostile)).toBe('an object');
    expect(describeValue(hostile)).toBe('an object');
  });

  it('clips long strings', () => {
    expect(describeValue('x'.repeat(200))).toBe(JSON.stringify(`${'x'.repeat(80)}…`));
  });
});

describe('messageOf', () => {
  it('reads errors and strings and never throws', () => {
    expect(messageOf(new Error('boom'))).toBe('boom');
    expect(messageOf('plain')).toBe('plain');
    const hostile = {
      toString() {
        throw new Error('no');
      },
    };
    expect(messageOf(hostile)).toBe('unprintable error');
  });
});

describe('messageWithCause', () => {
  it('adds what fetch only puts in its cause, and nothing when there is none', () => {
    const refused = new TypeError('fetch failed', {
      cause: new Error('getaddrinfo ENOTFOUND agents.example'),
    });
    expect(messageWithCause(refused)).toBe('fetch failed (getaddrinfo ENOTFOUND agents.example)');
    expect(messageWithCause(new Error('plain'))).toBe('plain');
    // Node 20's connect to a name with two addresses fails with an AggregateError without a message.
    const both = Object.assign(
      new AggregateError([
        new Error('connect ECONNREFUSED ::1:9'),
        new Error('connect ECONNREFUSED 127.0.0.1:9'),
      ]),
      { code: 'ECONNREFUSED' },
    );
    expect(messageWithCause(new TypeError('fetch failed', { cause: both }))).toBe(
      'fetch failed (connect ECONNREFUSED ::1:9; connect ECONNREFUSED 127.0.0.1:9)',
    );
    const coded = Object.assign(new Error(''), { code: 'ECONNRESET' });
    expect(messageWithCause(new TypeError('fetch failed', { cause: coded }))).toBe(
      'fetch failed (ECONNRESET)',
    );
    expect(messageWithCause('text')).toBe('text');
  });
});
