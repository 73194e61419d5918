import { readFileSync } from 'node:fs';
import { canonicalJson, canonicalJsonString, HearthNetLocalError } from '@agentwire/hearthnet';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { canonicalJsonSuite } from './canonical-json.js';

/** Our code of a refusal: only `HearthNetLocalError` counts, so another error with the right code fails. */
const errorCode = (error: unknown) => (error instanceof HearthNetLocalError ? error.code : undefined);

describe('canonicalJsonSuite', () => {
  it('passes every case against @agentwire/hearthnet, as bytes and as text', async () => {
    for (const canonicalize of [canonicalJson, canonicalJsonString]) {
      const report = await runSuite(canonicalJsonSuite({ canonicalize, errorCode }));
      expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
      expect(report.counts.passed).toBeGreaterThan(100);
    }
  });

  it('grades refusing NaN as recommended and refusing lone surrogates as required', () => {
    const cases = canonicalJsonSuite({ canonicalize: canonicalJson }).cases;
    expect(cases.find((c) => c.id === 'hearthnet.canonical-json.error-nan')?.level).toBe('recommended');
    expect(cases.find((c) => c.id === 'hearthnet.canonical-json.error-lone-high-surrogate')?.level).toBe(
      'required',
    );
  });

  it('fails an encoder that sorts keys by UTF-16 code unit and prints floats with JSON.stringify', async () => {
    const naive = (value: unknown): string =>
      JSON.stringify(value, (_key, v: unknown) =>
        v !== null && typeof v === 'object' && !Array.isArray(v)
          ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
          : typeof v === 'bigint'
            ? Number(v)
            : v,
      );
    const report = await runSuite(canonicalJsonSuite({ canonicalize: naive }));
    const failed = report.results.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed.some((id) => id.includes('key-order') || id.includes('astral'))).toBe(true);
    expect(failed.length).toBeGreaterThan(20);
    // NaN is written as null by JSON.stringify instead of being refused.
    expect(failed).toContain('hearthnet.canonical-json.error-nan');
    expect(report.ok).toBe(false);
  });

  it('fails a number formatter that rounds ties up (toPrecision), on number cases only', async () => {
    // toPrecision rounds the exact binary value too, but a tie goes up, not to even; its exponent keeps
    // one digit. Everything else is canonicalJson's.
    const tiesUp = (value: unknown): string => {
      const text = canonicalJsonString(value);
      if (typeof value !== 'number' || Number.isInteger(value)) return text;
      const precise = Number(value.toPrecision(6));
      return canonicalJsonString(precise) === text ? text : canonicalJsonString(precise);
    };
    const report = await runSuite(canonicalJsonSuite({ canonicalize: tiesUp }));
    const failed = report.results.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed).toContain('hearthnet.canonical-json.number-sweep-172'); // 123456.5 → 123456
    expect(failed.some((id) => /key-order|string-escape|structure/.test(id))).toBe(false);
  });

  it('checks the error code only when the implementation maps it', async () => {
    const wrongCode = () => 'something_else';
    const withCode = await runSuite(
      canonicalJsonSuite({ canonicalize: canonicalJson, errorCode: wrongCode }),
    );
    expect(withCode.counts.failed).toBe(withCode.results.filter((r) => r.title.startsWith('rejects')).length);
    const withoutCode = await runSuite(canonicalJsonSuite({ canonicalize: canonicalJson }));
    expect(withoutCode.ok).toBe(true);
  });
});

// The fixture's text as shipped (this package's own file), for the checks a parsed value cannot make.
const FIXTURE_TEXT = readFileSync(
  new URL('../../../fixtures/hearthnet/canonical-json.json', import.meta.url),
  'utf8',
);

interface CanonicalJsonFixtureCase {
  readonly id: string;
  readonly tags: readonly string[];
  readonly input?: unknown;
  readonly expected?: unknown;
  readonly error?: unknown;
}

const fixture = JSON.parse(FIXTURE_TEXT) as {
  readonly description: string;
  readonly source: string;
  readonly cases: readonly CanonicalJsonFixtureCase[];
};

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

describe('fixture hearthnet/canonical-json.json', () => {
  it('is well-formed: description, source, kebab-case ids, tags, one outcome per case, known error codes', () => {
    expect(fixture.description.length).toBeGreaterThan(100);
    expect(fixture.source).toContain('hearthnet-reference.md §1');
    expect(fixture.cases.length).toBeGreaterThanOrEqual(150);
    const errorCodes = ['non_finite_number', 'lone_surrogate', 'unsupported_type', 'cycle', 'max_depth'];
    for (const c of fixture.cases) {
      expect(c.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(c.tags.length, c.id).toBeGreaterThan(0);
      expect('input' in c, c.id).toBe(true);
      expect('expected' in c !== 'error' in c, c.id).toBe(true);
      if (c.error !== undefined) {
        expect(errorCodes, c.id).toContain(c.error);
        expect(c.tags, c.id).toContain('error');
      } else {
        expect(typeof c.expected, c.id).toBe('string');
      }
    }
    expect(FIXTURE_TEXT.endsWith('\n')).toBe(true);
    expect(FIXTURE_TEXT).toContain('\n  "cases": [\n    {\n      "id": ');
  });

  it('has no integer token of magnitude 1e16 or more (Python would read an int, JavaScript a float)', () => {
    const tokens = numberTokens(FIXTURE_TEXT);
    expect(tokens.length).toBeGreaterThan(50);
    for (const token of tokens) {
      if (/[.eE]/.test(token)) continue;
      expect(BigInt(token.replace('-', '')) < 10n ** 16n, token).toBe(true);
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
    ])
      expect(tags.has(tag), tag).toBe(true);
    const ids = new Set(fixture.cases.map((c) => c.id));
    for (let code = 0; code < 0x20; code++)
      expect(ids.has(`string-escape-control-${code.toString(16).padStart(2, '0')}`)).toBe(true);
    const errors = new Set(fixture.cases.map((c) => c.error));
    expect(errors.has('non_finite_number')).toBe(true);
    expect(errors.has('lone_surrogate')).toBe(true);
    expect(fixture.cases.find((c) => c.id === 'key-order-bmp-before-astral')?.expected).toBe(
      '{"～":2,"😀":1}',
    );
  });
});

describe('canonicalJsonSuite through registerSuite', () => {
  registerSuite(canonicalJsonSuite({ canonicalize: canonicalJson, errorCode }), { describe, it, afterAll });
});
