// Runs the language-neutral fixture (packages/conformance/fixtures/hearthnet/canonical-json.json)
// against this implementation, and guards the file itself: shape, ids, coverage, and no integer token
// that Python and JavaScript would read differently.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { HearthNetLocalErrorCode } from '../errors.js';
import { canonicalJson, canonicalJsonString } from './canonical-json.js';

const FIXTURE_URL = new URL('../../../conformance/fixtures/hearthnet/canonical-json.json', import.meta.url);
const ERROR_CODES: readonly HearthNetLocalErrorCode[] = [
  'non_finite_number',
  'lone_surrogate',
  'unsupported_type',
  'cycle',
  'max_depth',
];

interface FixtureCase {
  readonly id: string;
  readonly tags: readonly string[];
  readonly input: unknown;
  readonly expected?: string;
  readonly error?: string;
}

interface Fixture {
  readonly description: string;
  readonly source: string;
  readonly cases: readonly FixtureCase[];
}

const FLOATS: Record<string, number> = {
  NaN: Number.NaN,
  Infinity: Number.POSITIVE_INFINITY,
  '-Infinity': Number.NEGATIVE_INFINITY,
  '-0': -0,
};

/** Decodes the fixture wrappers: an object whose only key is `$bigint` or `$float`. */
function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 1 && keys[0] === '$bigint') return BigInt(record['$bigint'] as string);
  if (keys.length === 1 && keys[0] === '$float') {
    const float = FLOATS[record['$float'] as string];
    if (float === undefined) throw new Error(`unknown $float ${String(record['$float'])}`);
    return float;
  }
  const decoded: Record<string, unknown> = {};
  for (const key of keys)
    Object.defineProperty(decoded, key, { value: decode(record[key]), enumerable: true });
  return decoded;
}

/** The number tokens of a JSON text, outside string literals. */
function numberTokens(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '"') {
      i++;
      while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      const match = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400))!;
      tokens.push(match[0]);
      i += match[0].length;
    } else {
      i++;
    }
  }
  return tokens;
}

const text = readFileSync(FIXTURE_URL, 'utf8');
const fixture = JSON.parse(text) as Fixture;

describe('fixture canonical-json.json', () => {
  it('is well-formed: description, source, unique kebab-case ids, tags, one outcome per case', () => {
    expect(fixture.description.length).toBeGreaterThan(100);
    expect(fixture.source).toContain('hearthnet-reference.md §1');
    expect(fixture.cases.length).toBeGreaterThanOrEqual(150);
    const ids = new Set<string>();
    for (const c of fixture.cases) {
      expect(c.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(ids.has(c.id), `duplicate id ${c.id}`).toBe(false);
      ids.add(c.id);
      expect(c.tags.length).toBeGreaterThan(0);
      expect('input' in c, c.id).toBe(true);
      expect('expected' in c !== 'error' in c, c.id).toBe(true);
      if (c.error !== undefined) {
        expect(ERROR_CODES).toContain(c.error);
        expect(c.tags).toContain('error');
      } else {
        expect(typeof c.expected).toBe('string');
      }
    }
    expect(text.endsWith('\n')).toBe(true);
    expect(text).toContain('\n  "cases": [\n    {\n      "id": ');
  });

  it('has no integer token of magnitude 1e16 or more (Python would read an int, JavaScript a float)', () => {
    const tokens = numberTokens(text);
    expect(tokens.length).toBeGreaterThan(50);
    for (const token of tokens) {
      if (/[.eE]/.test(token)) continue;
      const magnitude = BigInt(token.replace('-', ''));
      expect(magnitude < 10n ** 16n, token).toBe(true);
    }
  });

  it('covers every rule the reference note lists', () => {
    const tags = new Set(fixture.cases.flatMap((c) => c.tags));
    for (const tag of [
      'key-order',
      'string-escape',
      'number',
      'float-g',
      'tie',
      'subnormal',
      'bigint',
      'error',
    ]) {
      expect(tags.has(tag), tag).toBe(true);
    }
    const ids = new Set(fixture.cases.map((c) => c.id));
    for (let code = 0; code < 0x20; code++) {
      expect(ids.has(`string-escape-control-${code.toString(16).padStart(2, '0')}`)).toBe(true);
    }
    const errors = new Set(fixture.cases.map((c) => c.error));
    expect(errors.has('non_finite_number')).toBe(true);
    expect(errors.has('lone_surrogate')).toBe(true);
    expect(fixture.cases.find((c) => c.id === 'key-order-bmp-before-astral')?.expected).toBe(
      '{"～":2,"😀":1}',
    );
  });

  it.each(fixture.cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const input = decode(c.input);
    if (c.error !== undefined) {
      expect(() => canonicalJsonString(input)).toThrow(
        expect.objectContaining({ name: 'HearthNetLocalError', code: c.error }),
      );
      return;
    }
    expect(canonicalJsonString(input)).toBe(c.expected);
    expect(canonicalJson(input)).toEqual(new TextEncoder().encode(c.expected));
  });
});
