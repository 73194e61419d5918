// Runs packages/conformance/fixtures/relay/session-keys.json against buildSessionKey.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RelayError } from './errors.js';
import {
  type BuildSessionKeyOptions,
  buildSessionKey,
  type SessionKeyDialect,
  type SessionKeySource,
} from './session-key.js';

interface FixtureOptions {
  readonly group_sessions_per_user?: boolean;
  readonly thread_sessions_per_user?: boolean;
  readonly profile?: string | null;
  readonly dialect?: SessionKeyDialect;
}

interface SessionKeyCase {
  readonly id: string;
  readonly tags: readonly string[];
  readonly source: Record<string, unknown>;
  readonly options: FixtureOptions;
  readonly expected?: string;
  readonly error?: string;
}

interface SessionKeyFixture {
  readonly description: string;
  readonly source: string;
  readonly cases: readonly SessionKeyCase[];
}

const fixture = JSON.parse(
  readFileSync(new URL('../../conformance/fixtures/relay/session-keys.json', import.meta.url), 'utf8'),
) as SessionKeyFixture;

const FLOATS: Readonly<Record<string, number>> = {
  NaN: Number.NaN,
  Infinity,
  '-Infinity': -Infinity,
  '-0': -0,
};

/** Decodes the `$bigint` / `$float` wrappers of the fixture format (one level: fields are scalars). */
function decodeField(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const entries = Object.entries(value);
  const [only] = entries;
  if (entries.length === 1 && only !== undefined && typeof only[1] === 'string') {
    if (only[0] === '$bigint') return BigInt(only[1]);
    if (only[0] === '$float' && only[1] in FLOATS) return FLOATS[only[1]];
  }
  return value;
}

function toOptions(options: FixtureOptions): BuildSessionKeyOptions {
  // Values are passed through unchecked: the refusal cases carry options of the wrong type on purpose.
  const mapped: Record<string, unknown> = {};
  if ('group_sessions_per_user' in options) mapped.groupSessionsPerUser = options.group_sessions_per_user;
  if ('thread_sessions_per_user' in options) mapped.threadSessionsPerUser = options.thread_sessions_per_user;
  if ('profile' in options) mapped.profile = options.profile;
  if ('dialect' in options) mapped.dialect = options.dialect;
  return mapped as BuildSessionKeyOptions;
}

describe('fixtures/relay/session-keys.json', () => {
  it('has at least 200 cases, unique ids, and covers every platform, knob and outcome', () => {
    const { cases } = fixture;
    expect(cases.length).toBeGreaterThanOrEqual(200);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    const platforms = new Set(cases.map((c) => c.source.platform));
    for (const name of ['discord', 'telegram', 'slack', 'whatsapp', 'signal', 'matrix']) {
      expect(platforms).toContain(name);
    }
    const optionKeys = new Set(cases.flatMap((c) => Object.keys(c.options)));
    expect([...optionKeys].sort()).toEqual([
      'dialect',
      'group_sessions_per_user',
      'profile',
      'thread_sessions_per_user',
    ]);
    const errors = new Set(cases.flatMap((c) => (c.error === undefined ? [] : [c.error])));
    expect([...errors].sort()).toEqual([
      'invalid_session_key_options',
      'invalid_session_source',
      'whatsapp_identifier_unresolvable',
    ]);
    for (const c of cases) expect((c.expected === undefined) !== (c.error === undefined)).toBe(true);
  });

  for (const c of fixture.cases) {
    it(c.id, () => {
      const source = Object.fromEntries(
        Object.entries(c.source).map(([name, value]) => [name, decodeField(value)]),
      ) as unknown as SessionKeySource;
      const build = () => buildSessionKey(source, toOptions(c.options));
      if (c.error === undefined) {
        expect(build()).toBe(c.expected);
      } else {
        expect(build).toThrow(RelayError);
        expect(build).toThrow(expect.objectContaining({ code: c.error }));
      }
    });
  }
});
