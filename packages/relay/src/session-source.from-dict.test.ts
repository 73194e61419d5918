import { isPythonTruthy } from '@agentwire/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RelayError } from './errors.js';
import type { JsonValue } from './json.js';
import {
  BUILTIN_PLATFORMS,
  PLUGIN_PLATFORMS,
  type SessionSource,
  sessionSourceFromDict,
  sessionSourceFromWire,
  sessionSourceToWire,
} from './session-source.js';

/** Deep equality that also requires the same key order at every level. */
function expectSameOrdered(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('sessionSourceFromDict', () => {
  it('fills every baseline key, in the dataclass order', () => {
    expectSameOrdered(sessionSourceFromDict({ chat_id: 42, platform: 'Telegram ' }), {
      platform: 'telegram',
      chat_id: '42',
      chat_name: null,
      chat_type: 'dm',
      user_id: null,
      user_name: null,
      thread_id: null,
      chat_topic: null,
      user_id_alt: null,
      chat_id_alt: null,
      scope_id: null,
      guild_id: null,
      parent_chat_id: null,
      message_id: null,
      profile: null,
      auto_thread_created: false,
      auto_thread_initial_name: null,
    });
  });

  it('throws one typed error per condition, checked in from_dict order', () => {
    const cases: [unknown, string, string][] = [
      [[], 'session_source_not_object', ''],
      [undefined, 'session_source_not_object', ''],
      [{ chat_id: 'C' }, 'session_source_missing_platform', 'platform'],
      [{}, 'session_source_missing_platform', 'platform'],
      [{ platform: 'myspace' }, 'session_source_unknown_platform', 'platform'],
      [{ platform: null, chat_id: 'C' }, 'session_source_unknown_platform', 'platform'],
      [{ platform: 'slack' }, 'session_source_missing_chat_id', 'chat_id'],
      [{ platform: 'slack', chat_id: 2 ** 53 }, 'session_source_ambiguous_chat_id', 'chat_id'],
      [{ platform: 'slack', chat_id: -0 }, 'session_source_ambiguous_chat_id', 'chat_id'],
      [{ platform: 'slack', chat_id: { a: [1e300] } }, 'session_source_ambiguous_chat_id', 'chat_id'],
      [{ platform: 'slack', chat_id: 'C', user_name: 1n }, 'session_source_not_json', 'user_name'],
    ];
    for (const [input, code, path] of cases) {
      const error = thrown(() => sessionSourceFromDict(input));
      expect(error).toBeInstanceOf(RelayError);
      expect(error).toMatchObject({ code, path, name: 'RelayError' });
    }
  });

  it('refuses values JSON cannot carry, even under keys from_dict does not read', () => {
    const cyclic: Record<string, unknown> = { platform: 'slack', chat_id: 'C' };
    cyclic['self'] = cyclic;
    const error = thrown(() => sessionSourceFromDict(cyclic));
    expect(error).toMatchObject({ name: 'RelayError', code: 'session_source_not_json', path: 'self' });
    expect(() => sessionSourceFromDict({ platform: 'slack', chat_id: 'C', extra: () => 1 })).toThrow(
      expect.objectContaining({ code: 'session_source_not_json' }),
    );
  });

  it('renders chat_id with Python str(), numbers as JavaScript holds them', () => {
    const chatId = (value: unknown) => sessionSourceFromDict({ platform: 'slack', chat_id: value }).chat_id;
    expect(chatId(2 ** 53 - 1)).toBe('9007199254740991');
    expect(chatId(-(2 ** 53 - 1))).toBe('-9007199254740991');
    expect(chatId(1e-7)).toBe('1e-07');
    expect(chatId(1.0)).toBe('1');
    expect(chatId(Number.NaN)).toBe('nan');
    expect(chatId([false, { 'a"b': null }])).toBe(`[False, {'a"b': None}]`);
    expect(chatId("it's")).toBe("it's");
  });

  it('treats a property holding undefined as absent', () => {
    expect(() => sessionSourceFromDict({ platform: undefined, chat_id: 'C' })).toThrow(
      expect.objectContaining({ code: 'session_source_missing_platform' }),
    );
    const source = sessionSourceFromDict({
      platform: 'slack',
      chat_id: 'C',
      chat_type: undefined,
      scope_id: undefined,
      guild_id: 'G',
    });
    expect(source).toMatchObject({ chat_type: 'dm', scope_id: 'G', guild_id: 'G' });
  });

  it('carries the newer fields like the wire reader, dropping null ones', () => {
    const source = sessionSourceFromDict({
      platform: 'slack',
      chat_id: 'C',
      prospective_thread_id: '1700.1',
      is_bot: 0,
      message_is_edit: null,
      one_to_one_verified: 'yes',
    });
    expect(source).toMatchObject({
      prospective_thread_id: '1700.1',
      is_bot: false,
      one_to_one_verified: true,
    });
    expect(source).not.toHaveProperty('message_is_edit');
    expect(sessionSourceToWire(source)).toMatchObject({ is_bot: false, one_to_one_verified: true });
  });

  it('differs from the wire reader where the gateway does', () => {
    const input = {
      platform: 'slack',
      chat_id: 7,
      guild_id: 'G',
      user_display_name: 'Alice',
      user_name: 'alice',
    };
    expect(sessionSourceFromDict(input)).toMatchObject({ chat_id: '7', scope_id: 'G', user_name: 'alice' });
    expect(sessionSourceFromWire(input)).toMatchObject({ chat_id: 7, scope_id: null, user_name: 'Alice' });
    expect(sessionSourceFromWire({ platform: 'myspace' }).platform).toBe('relay');
    expect(() => sessionSourceFromDict({ platform: 'myspace', chat_id: 'C' })).toThrow(
      expect.objectContaining({ code: 'session_source_unknown_platform' }),
    );
  });
});

const PLATFORMS = [...BUILTIN_PLATFORMS, ...PLUGIN_PLATFORMS];
const anyJson = fc.jsonValue({ maxDepth: 1 });
const truthyJson = anyJson.filter((value) => isPythonTruthy(value as JsonValue));
const optionalTruthy = fc.option(truthyJson, { nil: null });

/** A source as `sessionSourceFromDict` returns it, restricted to the values `to_dict` writes back. */
const storedSource = fc
  .record({
    platform: fc.constantFrom(...PLATFORMS),
    chat_id: fc.string(),
    chat_name: anyJson,
    chat_type: fc.oneof(fc.constantFrom('dm', 'group', 'channel', 'thread', 'forum'), anyJson),
    user_id: anyJson,
    user_name: anyJson,
    thread_id: anyJson,
    chat_topic: anyJson,
    user_id_alt: optionalTruthy,
    chat_id_alt: optionalTruthy,
    scope: optionalTruthy,
    parent_chat_id: optionalTruthy,
    message_id: optionalTruthy,
    profile: optionalTruthy,
    auto_thread_created: fc.boolean(),
    auto_thread_initial_name: optionalTruthy,
    prospective_thread_id: fc.option(truthyJson, { nil: undefined }),
    is_bot: fc.option(fc.boolean(), { nil: undefined }),
    message_is_edit: fc.option(fc.boolean(), { nil: undefined }),
    one_to_one_verified: fc.option(fc.boolean(), { nil: undefined }),
  })
  .map(({ scope, ...rest }) => {
    const { prospective_thread_id, is_bot, message_is_edit, one_to_one_verified, ...baseline } = rest;
    const ordered: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(baseline)) {
      if (key === 'parent_chat_id') {
        ordered['scope_id'] = scope;
        ordered['guild_id'] = scope;
      }
      ordered[key] = value;
    }
    const newer = { prospective_thread_id, is_bot, message_is_edit, one_to_one_verified };
    for (const [key, value] of Object.entries(newer)) if (value !== undefined) ordered[key] = value;
    return ordered as unknown as SessionSource;
  });

const READ_KEYS = [
  'platform',
  'chat_id',
  'chat_name',
  'chat_type',
  'user_id',
  'user_name',
  'user_display_name',
  'thread_id',
  'chat_topic',
  'user_id_alt',
  'chat_id_alt',
  'scope_id',
  'guild_id',
  'parent_chat_id',
  'message_id',
  'profile',
  'role_authorized',
  'auto_thread_created',
  'auto_thread_initial_name',
  'prospective_thread_id',
  'is_bot',
  'message_is_edit',
  'one_to_one_verified',
  'unknown',
];
const dictValue = fc.oneof(
  fc.constantFrom(null, '', 0, -0, 2 ** 53, false, true, 'slack', ' Discord ', 'IRC', 'nope', 'dm'),
  fc.jsonValue({ maxDepth: 2 }),
);
const storedDict = fc.oneof(
  fc.dictionary(fc.constantFrom(...READ_KEYS), dictValue),
  fc.record(
    { platform: fc.constantFrom(...PLATFORMS, 'Slack', 'x'), chat_id: dictValue },
    { requiredKeys: ['platform'] },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);

describe('sessionSourceFromDict properties', () => {
  it('gives back any stored source from its to_dict, key order included', () => {
    fc.assert(
      fc.property(storedSource, (source) => {
        expectSameOrdered(sessionSourceFromDict(sessionSourceToWire(source)), source);
      }),
      { numRuns: 300 },
    );
  });

  it('throws only its typed errors on arbitrary JSON, and to_dict ∘ from_dict is stable after one pass', () => {
    fc.assert(
      fc.property(storedDict, (dict) => {
        let source: SessionSource;
        try {
          source = sessionSourceFromDict(dict);
        } catch (error) {
          expect(error).toBeInstanceOf(RelayError);
          expect((error as RelayError).code).toMatch(/^session_source_/);
          return;
        }
        expect(typeof source.chat_id).toBe('string');
        const wire = sessionSourceToWire(source);
        expectSameOrdered(sessionSourceToWire(sessionSourceFromDict(wire)), wire);
      }),
      { numRuns: 500 },
    );
  });
});
