import { canonicalJson, canonicalJsonString } from '@agentwire/hearthnet';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { canonicalJsonSuite } from './canonical-json.js';

const errorCode = (error: unknown) => (error as { code?: string }).code;

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

describe('canonicalJsonSuite through registerSuite', () => {
  registerSuite(canonicalJsonSuite({ canonicalize: canonicalJson, errorCode }), { describe, it, afterAll });
});
