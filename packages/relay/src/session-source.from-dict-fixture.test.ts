import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RelayError } from './errors.js';
import { sessionSourceFromDict, sessionSourceToWire } from './session-source.js';

interface FromDictCase {
  readonly id: string;
  readonly tags: readonly string[];
  readonly input: unknown;
  readonly expected?: Record<string, unknown>;
  readonly error?: string;
}

const fixture = JSON.parse(
  readFileSync(
    new URL('../../conformance/fixtures/relay/session-source-from-dict.json', import.meta.url),
    'utf8',
  ),
) as { readonly cases: readonly FromDictCase[] };

/** Keys the baseline gateway's from_dict ignores and this SDK carries (tag `newer`). */
const NEWER_KEYS = ['prospective_thread_id', 'is_bot', 'message_is_edit', 'one_to_one_verified'];

/** Deep equality that also requires the same key order at every level. */
function expectSameOrdered(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

function withoutKeys(object: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([key]) => !keys.includes(key)));
}

describe('fixtures/relay/session-source-from-dict.json', () => {
  it('covers every error code and the JavaScript number caveats', () => {
    expect(new Set(fixture.cases.flatMap((c) => (c.error === undefined ? [] : [c.error])))).toEqual(
      new Set([
        'session_source_not_object',
        'session_source_missing_platform',
        'session_source_unknown_platform',
        'session_source_missing_chat_id',
      ]),
    );
    const tags = new Set(fixture.cases.flatMap((c) => c.tags));
    for (const tag of ['js-integral-float', 'js-ambiguous-number', 'newer']) expect(tags).toContain(tag);
  });

  for (const c of fixture.cases) {
    it(c.id, () => {
      const read = () => sessionSourceFromDict(c.input);
      if (c.error !== undefined) {
        expect(read).toThrow(RelayError);
        expect(read).toThrow(expect.objectContaining({ code: c.error }));
        return;
      }
      if (c.tags.includes('js-ambiguous-number')) {
        // Python prints this float ("1e+16", "-0.0"); JavaScript cannot tell it from an int: refused.
        expect(read).toThrow(expect.objectContaining({ code: 'session_source_ambiguous_chat_id' }));
        return;
      }
      const wire = sessionSourceToWire(read());
      if (c.tags.includes('js-integral-float')) {
        // JSON.parse reads the float 1.0 as 1, whose Python str() is "1"; Python kept "1.0".
        const input = c.input as { readonly chat_id: number };
        expectSameOrdered(wire, { ...c.expected, chat_id: String(input.chat_id) });
        expect(c.expected?.['chat_id']).toBe(`${input.chat_id}.0`);
        return;
      }
      if (c.tags.includes('newer')) {
        expectSameOrdered(withoutKeys(wire, NEWER_KEYS), c.expected);
        const input = c.input as Record<string, unknown>;
        for (const key of NEWER_KEYS) {
          if (input[key] !== undefined && input[key] !== null) expect(wire).toHaveProperty(key);
        }
        return;
      }
      expectSameOrdered(wire, c.expected);
    });
  }
});
