import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalPlatform,
  isKnownPlatform,
  type SessionSource,
  sessionSourceFromWire,
  sessionSourceToWire,
  sessionSourceWireSchema,
} from './session-source.js';

describe('canonicalPlatform', () => {
  it('folds case and Python blanks for known names and falls back to relay', () => {
    expect(canonicalPlatform('\u3000Telegram\u0085')).toBe('telegram');
    expect(canonicalPlatform('IRC')).toBe('irc');
    expect(canonicalPlatform('tele gram')).toBe('relay');
    expect(canonicalPlatform(['slack'])).toBe('relay');
    expect(isKnownPlatform('Slack')).toBe(false);
  });
});

describe('sessionSourceToWire', () => {
  it('refuses a source without platform or chat_id, or with non-JSON values', () => {
    expect(() => sessionSourceToWire({ chat_id: '1' } as unknown as SessionSource)).toThrow(
      expect.objectContaining({ code: 'session_source_invalid_field' }),
    );
    expect(() => sessionSourceToWire({ platform: 'x' } as unknown as SessionSource)).toThrow(
      expect.objectContaining({ code: 'session_source_invalid_field', path: 'chat_id' }),
    );
    expect(() => sessionSourceToWire(null as unknown as SessionSource)).toThrow(
      expect.objectContaining({ code: 'session_source_invalid_field' }),
    );
    expect(() =>
      sessionSourceToWire({ platform: 'x', chat_id: () => 1 } as unknown as SessionSource),
    ).toThrow(
      expect.objectContaining({ name: 'RelayError', code: 'session_source_not_json', path: 'chat_id' }),
    );
  });

  it('skips undefined keys like absent ones', () => {
    expect(
      sessionSourceToWire({ platform: 'slack', chat_id: 'C', chat_type: undefined } as never),
    ).toMatchObject({
      chat_type: 'dm',
    });
  });
});

describe('sessionSourceFromWire', () => {
  it('refuses a truthy non-object and non-JSON values', () => {
    expect(() => sessionSourceFromWire([{}])).toThrow(
      expect.objectContaining({ code: 'session_source_not_object' }),
    );
    expect(() => sessionSourceFromWire({ chat_id: 1n })).toThrow(
      expect.objectContaining({ code: 'session_source_not_json' }),
    );
  });

  it('is accepted by the wire schema whenever it is an object', () => {
    expect(sessionSourceWireSchema.safeParse({ platform: 'slack', extra: [1] }).success).toBe(true);
    expect(sessionSourceWireSchema.safeParse([]).success).toBe(false);
  });
});

const SOURCE_KEYS = [
  'platform',
  'chat_id',
  'chat_name',
  'chat_type',
  'user_id',
  'user_name',
  'user_display_name',
  'user_handle',
  'thread_id',
  'chat_topic',
  'user_id_alt',
  'chat_id_alt',
  'scope_id',
  'guild_id',
  'parent_chat_id',
  'message_id',
  'profile',
  'auto_thread_created',
  'auto_thread_initial_name',
  'prospective_thread_id',
  'is_bot',
  'message_is_edit',
  'one_to_one_verified',
  'unknown',
];
const wireValue = fc.oneof(
  fc.constantFrom(null, '', 0, false, true, 'slack', ' Discord ', 'dm', 'x'),
  fc.jsonValue({ maxDepth: 1 }),
);
const wireSource = fc.oneof(
  fc.dictionary(fc.constantFrom(...SOURCE_KEYS), wireValue),
  fc.jsonValue({ maxDepth: 2 }),
);

describe('session source properties', () => {
  it('reading arbitrary wire input throws only session_source_not_object', () => {
    fc.assert(
      fc.property(wireSource, (wire) => {
        try {
          sessionSourceFromWire(wire);
        } catch (error) {
          expect(error).toMatchObject({ name: 'RelayError', code: 'session_source_not_object' });
        }
      }),
      { numRuns: 400 },
    );
  });

  it('toWire ∘ fromWire reaches a fixed point by the second pass, key order included', () => {
    // Not after one pass: a falsy user_name (false, "") is written as is but read back as null.
    const pass = (wire: unknown) => sessionSourceToWire(sessionSourceFromWire(wire));
    expect(pass(pass({ user_handle: false }))).not.toEqual(pass({ user_handle: false }));
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...SOURCE_KEYS), wireValue), (wire) => {
        const twice = pass(pass(wire));
        expect(JSON.stringify(pass(twice))).toBe(JSON.stringify(twice));
      }),
      { numRuns: 400 },
    );
  });

  it('fromWire ∘ toWire gives back a source built from truthy string fields', () => {
    const id = fc.string({ minLength: 1, maxLength: 8 });
    const source = fc.record(
      {
        platform: fc.constantFrom('discord', 'slack', 'telegram', 'matrix'),
        chat_id: id,
        chat_type: fc.constantFrom('dm', 'group', 'channel', 'thread', 'forum'),
        user_id: id,
        user_name: id,
        thread_id: id,
        scope_id: id,
        message_id: id,
        profile: id,
        is_bot: fc.boolean(),
        message_is_edit: fc.boolean(),
      },
      { requiredKeys: ['platform', 'chat_id', 'chat_type'] },
    );
    fc.assert(
      fc.property(source, (s) => {
        const back = sessionSourceFromWire(sessionSourceToWire(s));
        for (const [key, value] of Object.entries(s)) expect(back[key as keyof SessionSource]).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });
});
