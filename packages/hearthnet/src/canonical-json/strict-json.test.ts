import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatJsonPath,
  type JsonPathSegment,
  parseStrictJson,
  parseStrictJsonBytes,
} from './strict-json.js';

/** Drops `cause` (a SyntaxError) so results compare as data. */
const read = (text: string) => {
  const result = parseStrictJson(text);
  return result.ok || result.problem !== 'syntax' ? result : { ok: false, problem: 'syntax' };
};

describe('parseStrictJson', () => {
  it('refuses a repeated key at the top, in nested objects and in arrays, naming the key and its path', () => {
    expect(read('{"title":"FREE MONEY","title":"Wasser"}')).toEqual({
      ok: false,
      problem: 'duplicate_key',
      key: 'title',
      path: '$.title',
      message: 'duplicate key "title" at $.title',
      value: { title: 'Wasser' },
    });
    expect(read('{"input":{"location":{"label":"a","lat":1,"label":"b"}},"params":{}}')).toMatchObject({
      problem: 'duplicate_key',
      path: '$.input.location.label',
    });
    expect(read('{"events":[{"a":1},{"b":[{},{"c-d":1,"c-d":1}]}]}')).toMatchObject({
      problem: 'duplicate_key',
      key: 'c-d',
      path: '$.events[1].b[1]["c-d"]',
    });
  });

  it('compares keys after escapes are decoded, whatever the spacing', () => {
    expect(read('{"title":1,"\\u0074itle":2}')).toMatchObject({ problem: 'duplicate_key', key: 'title' });
    expect(read('{ "a\\"b" : 1 ,\n\t"a\\u0022b"\r\n:\n2 }')).toMatchObject({
      key: 'a"b',
      path: '$["a\\"b"]',
    });
    expect(read('{"x":"\\\\","x":"\\""}')).toMatchObject({ key: 'x' });
    expect(read('{"__proto__":{},"__proto__":[]}')).toMatchObject({ key: '__proto__', path: '$.__proto__' });
    // Integer-like keys come first in a JavaScript object; the text order is what is reported.
    expect(read('{"b":0,"1":0,"b":0,"1":0}')).toMatchObject({ key: 'b', path: '$.b' });
  });

  it('reports the first problem in document order', () => {
    expect(read('{"a":{"x":1,"x":2},"a":0}')).toMatchObject({ key: 'x', path: '$.a.x' });
    expect(read('{"n":[9007199254740993],"n":0}')).toMatchObject({
      problem: 'inexact_number',
      path: '$.n[0]',
    });
  });

  it('refuses integers a double cannot hold, and numbers beyond the double range', () => {
    expect(read('{"n":9007199254740993}')).toEqual({
      ok: false,
      problem: 'inexact_number',
      token: '9007199254740993',
      path: '$.n',
      message: 'number 9007199254740993 at $.n that a double cannot hold exactly',
      value: { n: 9007199254740992 },
    });
    expect(read('[1,-12345678901234567890]')).toMatchObject({ problem: 'inexact_number', path: '$[1]' });
    expect(read('{"x":{"y":1e400}}')).toMatchObject({ token: '1e400', path: '$.x.y' });
    expect(read('-1E+400')).toMatchObject({ problem: 'inexact_number', path: '$' });
  });

  it('reads what every reader reads alike', () => {
    // Exactly representable, or JavaScript's own digits of the double (what JSON.stringify writes).
    for (const text of [
      '9007199254740992',
      '18446744073709551616',
      '-9007199254740994',
      '12345678901234567000',
    ]) {
      expect(read(text)).toEqual({ ok: true, value: Number(text) });
    }
    expect(JSON.stringify(1.2345678901234567e19)).toBe('12345678901234567000');
    // Floats round alike in every reader (the signature covers the canonical %g value anyway).
    expect(read('[0.1000000000000000055511151231257827, 1.00000000000000000001, 1e-400, 1.0e16]')).toEqual({
      ok: true,
      value: [0.1, 1, 0, 1e16],
    });
    // JSON.parse keeps an own "__proto__" key as data; the prototype is untouched.
    const proto = parseStrictJson('{"__proto__":{"polluted":true}}');
    expect(proto.ok).toBe(true);
    const value = (proto as { value: Record<string, unknown> }).value;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    // A lone surrogate escape is read as it is (canonical JSON refuses to sign or verify it).
    expect(read('{"s":"\\ud800"}')).toEqual({ ok: true, value: { s: '\ud800' } });
    // Same key in different objects, keys equal to values, colons and quotes inside strings.
    expect(read('[{"a":"a"},{"a":"\\":\\"a\\":"},{"b":{"a":1},"a":"b:"}]')).toMatchObject({ ok: true });
  });

  it('passes the syntax error of JSON.parse on', () => {
    const result = parseStrictJson('{"a":');
    expect(result).toMatchObject({ ok: false, problem: 'syntax' });
    expect((result as { cause: unknown }).cause).toBeInstanceOf(SyntaxError);
  });

  it('finds a repeated key below any depth without recursing', () => {
    const depth = 100_000;
    expect(read(`${'['.repeat(depth)}${']'.repeat(depth)}`)).toMatchObject({ ok: true });
    const deep = read(`${'{"a":'.repeat(depth)}{"k":1,"k":2}${'}'.repeat(depth)}`);
    expect(deep).toMatchObject({ ok: false, problem: 'duplicate_key', key: 'k' });
    expect((deep as { path: string }).path).toBe(`$${'.a'.repeat(depth)}.k`);
  });

  it('keeps working when Object.prototype has an enumerable key', () => {
    const prototype = Object.prototype as Record<string, unknown>;
    prototype['injected'] = 1;
    let results: unknown[];
    try {
      results = [read('{"a":1,"a":2}'), read('{"a":1,"b":2}')];
    } finally {
      delete prototype['injected'];
    }
    expect(results).toMatchObject([{ problem: 'duplicate_key', key: 'a' }, { ok: true }]);
  });
});

describe('parseStrictJsonBytes', () => {
  it('refuses bytes that are not UTF-8 instead of reading U+FFFD', () => {
    expect(parseStrictJsonBytes(new Uint8Array([0x22, 0xff, 0x22]))).toMatchObject({
      ok: false,
      problem: 'syntax',
    });
    const replacement = new TextEncoder().encode('"\ufffd"');
    expect(parseStrictJsonBytes(replacement)).toEqual({ ok: true, value: '\ufffd' });
    expect(parseStrictJsonBytes(new TextEncoder().encode('{"a":1,"a":2}'))).toMatchObject({ key: 'a' });
  });
});

// The reference model: JSON texts generated as syntax trees whose objects may repeat keys, written with
// random spacing and key escapes. The first repeated key in document order is known from the tree.
type Tree =
  | { readonly kind: 'scalar'; readonly text: string }
  | { readonly kind: 'array'; readonly items: readonly Tree[]; readonly space: string }
  | {
      readonly kind: 'object';
      readonly members: readonly { key: string; escaped: boolean; value: Tree }[];
      readonly space: string;
    };

const KEYS = ['a', 'b', 'title', '__proto__', '0', '7', '', 'é', 'a"b', 'c\\', ':', 'ü\u2028'];
const SPACES = ['', ' ', '\n', '\t ', '\r\n  '];

const scalar: fc.Arbitrary<Tree> = fc
  .oneof(
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ unit: 'binary', maxLength: 6 }),
    fc.constantFrom(true, false, null, '":', '\\', '"a":1'),
  )
  .map((value) => ({ kind: 'scalar', text: JSON.stringify(value) }));

const tree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'tree' },
    scalar,
    fc.record({
      kind: fc.constant('array' as const),
      items: fc.array(tie('tree'), { maxLength: 4 }),
      space: fc.constantFrom(...SPACES),
    }),
    fc.record({
      kind: fc.constant('object' as const),
      members: fc.array(
        fc.record({ key: fc.constantFrom(...KEYS), escaped: fc.boolean(), value: tie('tree') }),
        { maxLength: 5 },
      ),
      space: fc.constantFrom(...SPACES),
    }),
  ),
})).tree;

/** Every character as `\uXXXX`. */
const escapeAll = (key: string) =>
  `"${Array.from({ length: key.length }, (_, i) => `\\u${key.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')}"`;

function write(node: Tree): string {
  if (node.kind === 'scalar') return node.text;
  const s = node.space;
  if (node.kind === 'array') return `[${s}${node.items.map(write).join(`${s},${s}`)}${s}]`;
  const members = node.members.map(
    ({ key, escaped, value }) => `${escaped ? escapeAll(key) : JSON.stringify(key)}${s}:${s}${write(value)}`,
  );
  return `{${s}${members.join(`${s},${s}`)}${s}}`;
}

/** The first repeated key in document order: its key and path, per the model. */
function firstDuplicate(node: Tree, path: JsonPathSegment[] = []): { key: string; path: string } | undefined {
  if (node.kind === 'array') {
    for (const [index, item] of node.items.entries()) {
      const found = firstDuplicate(item, [...path, index]);
      if (found) return found;
    }
  }
  if (node.kind === 'object') {
    const seen = new Set<string>();
    for (const { key, value } of node.members) {
      if (seen.has(key)) return { key, path: formatJsonPath([...path, key]) };
      seen.add(key);
      const found = firstDuplicate(value, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

describe('parseStrictJson against a model', () => {
  it('refuses exactly the texts with a repeated key, naming the first one', () => {
    fc.assert(
      fc.property(tree, (node) => {
        const text = write(node);
        const expected = firstDuplicate(node);
        const result = parseStrictJson(text);
        if (expected === undefined) {
          expect(result.ok).toBe(true);
          expect(JSON.stringify((result as { value: unknown }).value)).toBe(JSON.stringify(JSON.parse(text)));
        } else {
          expect(result).toMatchObject({ ok: false, problem: 'duplicate_key', ...expected });
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('reads every JSON.stringify text as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const result = parseStrictJson(text);
        expect(result.ok).toBe(true);
        expect(JSON.stringify((result as { value: unknown }).value)).toBe(JSON.stringify(JSON.parse(text)));
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on arbitrary text: a syntax problem exactly when JSON.parse throws', () => {
    const mutated = fc
      .tuple(
        fc.json(),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom('', '"', '\\', ':', ',', '{', '}', '[', ']', '"a":1,'))),
      )
      .map(([text, edits]) =>
        edits.reduce((current, [at, insert]) => {
          const i = at % (current.length + 1);
          return current.slice(0, i) + insert + current.slice(i + (insert === '' ? 1 : 0));
        }, text),
      );
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), mutated), (text) => {
        let parsed: { value: unknown } | undefined;
        try {
          parsed = { value: JSON.parse(text) };
        } catch {
          parsed = undefined;
        }
        const result = parseStrictJson(text);
        if (parsed === undefined) {
          expect(result).toMatchObject({ ok: false, problem: 'syntax' });
        } else {
          expect(result.ok || result.problem !== 'syntax').toBe(true);
          const value = (result as { value: unknown }).value;
          expect(JSON.stringify(value)).toBe(JSON.stringify(parsed.value));
        }
      }),
      { numRuns: 3000 },
    );
  });
});
