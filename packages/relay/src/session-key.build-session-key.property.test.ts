import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RelayError } from './errors.js';
import { type BuildSessionKeyOptions, buildSessionKey, SESSION_KEY_DIALECTS } from './session-key.js';

const RUNS = { numRuns: 400 } as const;

// Identifiers that exercise the WhatsApp normalisation: signs, separators, whitespace, digits.
const whatsappish = fc
  .array(fc.constantFrom('+', ':', '@', ' ', '.', '-', '_', '6', '0', '1', 'a', '\u0085', '\uff16'), {
    maxLength: 8,
  })
  .map((chars) => chars.join(''));

const scalar = fc.oneof(
  fc.string({ maxLength: 12 }),
  whatsappish,
  fc.integer(),
  fc.double(),
  fc.bigInt(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);

const anyValue = fc.oneof(scalar, fc.anything());

const platform = fc.oneof(
  fc.constantFrom('discord', 'telegram', 'slack', 'whatsapp', 'whatsapp_cloud', 'signal', 'matrix', 'relay'),
  fc.string({ maxLength: 8 }),
);

const chatType = fc.oneof(fc.constantFrom('dm', 'group', 'channel', 'thread', 'forum', 'DM'), scalar);

const fieldNames = [
  'chat_id',
  'thread_id',
  'user_id',
  'user_id_alt',
  'scope_id',
  'prospective_thread_id',
] as const;

/** SessionSource-shaped records whose fields may hold anything, absent keys included. */
const sourceLike = fc.record(
  {
    platform: fc.oneof(platform, anyValue),
    chat_type: chatType,
    ...Object.fromEntries(fieldNames.map((name) => [name, fc.oneof(scalar, scalar, anyValue)])),
  },
  { requiredKeys: [] },
);

/** Sources built only from values the oracle accepts. */
const validSource = fc.record(
  {
    platform,
    chat_type: chatType,
    ...Object.fromEntries(
      fieldNames.map((name) => [name, fc.oneof(fc.string({ maxLength: 10 }), fc.integer())]),
    ),
  },
  { requiredKeys: ['platform'] },
);

const validOptions: fc.Arbitrary<BuildSessionKeyOptions> = fc.record(
  {
    groupSessionsPerUser: fc.boolean(),
    threadSessionsPerUser: fc.boolean(),
    profile: fc.oneof(fc.constantFrom(null, '', 'default', 'main', 'coder'), fc.string({ maxLength: 8 })),
    dialect: fc.constantFrom(...SESSION_KEY_DIALECTS),
  },
  { requiredKeys: [] },
);

const optionsLike = fc.oneof(
  validOptions,
  fc.record(
    { groupSessionsPerUser: anyValue, threadSessionsPerUser: anyValue, profile: anyValue, dialect: anyValue },
    { requiredKeys: [] },
  ),
  fc.anything(),
);

/** The codes the session-key oracle throws. */
const SESSION_KEY_ERROR_CODES: readonly string[] = [
  'whatsapp_identifier_unresolvable',
  'invalid_session_source',
  'invalid_session_key_options',
];

/** Runs the oracle: the key, or null when it threw a session-key RelayError (anything else fails). */
function keyOrTypedError(source: unknown, options?: unknown): string | null {
  try {
    return buildSessionKey(source as never, options as never);
  } catch (error) {
    expect(error).toBeInstanceOf(RelayError);
    expect(SESSION_KEY_ERROR_CODES).toContain((error as RelayError).code);
    return null;
  }
}

function expectedNamespace(options: BuildSessionKeyOptions): string {
  const { profile, dialect } = options;
  if (profile === undefined || profile === null || profile === '' || profile === 'default')
    return 'agent:main';
  return profile === 'main' && dialect === 'upstream-2026-09-21' ? 'agent:main~' : `agent:${profile}`;
}

describe('buildSessionKey properties', () => {
  it('throws nothing but a session-key RelayError on arbitrary input', () => {
    fc.assert(
      fc.property(fc.oneof(sourceLike, fc.anything()), optionsLike, (source, options) => {
        const key = keyOrTypedError(source, options);
        if (key !== null) expect(typeof key).toBe('string');
      }),
      RUNS,
    );
  });

  it('always starts with the namespace and the platform', () => {
    fc.assert(
      fc.property(validSource, validOptions, (source, options) => {
        const key = keyOrTypedError(source, options);
        if (key !== null)
          expect(key.startsWith(`${expectedNamespace(options)}:${source.platform}:`)).toBe(true);
      }),
      RUNS,
    );
  });

  it('is deterministic and leaves its input untouched', () => {
    fc.assert(
      fc.property(sourceLike, validOptions, (source, options) => {
        const before = structuredClone(source);
        const first = keyOrTypedError(source, options);
        expect(keyOrTypedError(structuredClone(source), { ...options })).toBe(first);
        expect(source).toEqual(before);
      }),
      RUNS,
    );
  });

  it('ignores the group and thread knobs for DMs', () => {
    fc.assert(
      fc.property(validSource, validOptions, validOptions, (source, a, b) => {
        const dm = { ...source, chat_type: 'dm' };
        const first = keyOrTypedError(dm, { ...a, profile: null, dialect: 'baseline-2026-07-26' });
        const second = keyOrTypedError(dm, { ...b, profile: null, dialect: 'baseline-2026-07-26' });
        expect(second).toBe(first);
      }),
      RUNS,
    );
  });

  it('gives the same key in both dialects without a "main" profile or a prospective thread', () => {
    fc.assert(
      fc.property(validSource, validOptions, (source, options) => {
        const { prospective_thread_id: _ignored, ...rest } = source as Record<string, unknown>;
        const profile = options.profile === 'main' ? null : (options.profile ?? null);
        const baseline = keyOrTypedError(rest, { ...options, profile, dialect: 'baseline-2026-07-26' });
        const upstream = keyOrTypedError(rest, { ...options, profile, dialect: 'upstream-2026-09-21' });
        expect(upstream).toBe(baseline);
      }),
      RUNS,
    );
  });

  it('keys every platform but WhatsApp as the plain join of its truthy parts', () => {
    const plainId = fc.stringMatching(/^[A-Za-z0-9:!@$.+-]{0,10}$/);
    fc.assert(
      fc.property(
        fc.constantFrom('discord', 'telegram', 'signal', 'matrix'),
        fc.constantFrom('group', 'channel', 'forum'),
        plainId,
        plainId,
        plainId,
        fc.boolean(),
        (platformName, type, chatId, threadId, userId, groupSessionsPerUser) => {
          const source = {
            platform: platformName,
            chat_type: type,
            chat_id: chatId,
            thread_id: threadId,
            user_id: userId,
          };
          const isolate = groupSessionsPerUser && threadId === '';
          const parts = ['agent:main', platformName, type, chatId, threadId, isolate ? userId : ''].filter(
            (p) => p !== '',
          );
          expect(buildSessionKey(source, { groupSessionsPerUser })).toBe(parts.join(':'));
        },
      ),
      RUNS,
    );
  });
});
