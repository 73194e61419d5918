// One block per branch of relay-reference.md §6, using the note's own examples where it gives them.
import { describe, expect, it } from 'vitest';
import { RelayError } from './errors.js';
import { buildSessionKey } from './session-key.js';

const discordChannel = { platform: 'discord', chat_type: 'group', chat_id: '111', user_id: '9001' } as const;

describe('namespace', () => {
  it('is agent:main without a profile, or for "" and "default"', () => {
    expect(buildSessionKey(discordChannel)).toBe('agent:main:discord:group:111:9001');
    for (const profile of [null, '', 'default']) {
      expect(buildSessionKey(discordChannel, { profile })).toBe('agent:main:discord:group:111:9001');
    }
  });

  it('is agent:<profile> verbatim otherwise, colons and case included', () => {
    expect(buildSessionKey(discordChannel, { profile: 'coder' })).toBe('agent:coder:discord:group:111:9001');
    expect(buildSessionKey(discordChannel, { profile: 'Coder' })).toBe('agent:Coder:discord:group:111:9001');
    expect(buildSessionKey(discordChannel, { profile: 'a:b' })).toBe('agent:a:b:discord:group:111:9001');
  });

  it('maps the profile "main" to agent:main~ only in the upstream dialect', () => {
    expect(buildSessionKey(discordChannel, { profile: 'main' })).toBe('agent:main:discord:group:111:9001');
    expect(buildSessionKey(discordChannel, { profile: 'main', dialect: 'upstream-2026-09-21' })).toBe(
      'agent:main~:discord:group:111:9001',
    );
    expect(buildSessionKey(discordChannel, { profile: 'default', dialect: 'upstream-2026-09-21' })).toBe(
      'agent:main:discord:group:111:9001',
    );
  });
});

describe('Slack scope', () => {
  it('puts the workspace before the chat id in channels and DMs (note examples)', () => {
    expect(
      buildSessionKey({
        platform: 'slack',
        chat_type: 'channel',
        scope_id: 'T9',
        chat_id: 'C0123',
        user_id: 'U1',
      }),
    ).toBe('agent:main:slack:channel:T9:C0123:U1');
    expect(
      buildSessionKey({
        platform: 'slack',
        chat_type: 'dm',
        scope_id: 'T9',
        chat_id: 'D0456',
        user_id: 'U1',
      }),
    ).toBe('agent:main:slack:dm:T9:D0456');
  });

  it('is left out when falsy and str()-ed when numeric', () => {
    const channel = { platform: 'slack', chat_type: 'channel', chat_id: 'C1', user_id: 'U1' } as const;
    expect(buildSessionKey({ ...channel, scope_id: '' })).toBe('agent:main:slack:channel:C1:U1');
    expect(buildSessionKey({ ...channel, scope_id: 0 })).toBe('agent:main:slack:channel:C1:U1');
    expect(buildSessionKey({ ...channel, scope_id: 12 })).toBe('agent:main:slack:channel:12:C1:U1');
  });

  it('never enters the key on another platform, and guild_id is not read at all', () => {
    expect(buildSessionKey({ ...discordChannel, scope_id: 'G1' })).toBe('agent:main:discord:group:111:9001');
    const withGuild = { ...discordChannel, guild_id: 'G1' };
    expect(buildSessionKey(withGuild)).toBe('agent:main:discord:group:111:9001');
    expect(
      buildSessionKey({
        platform: 'matrix',
        chat_type: 'group',
        scope_id: 'example.org',
        chat_id: '!r:example.org',
      }),
    ).toBe('agent:main:matrix:group:!r:example.org');
  });

  it('applies only to the exact platform value "slack"', () => {
    expect(
      buildSessionKey({
        platform: 'Slack',
        chat_type: 'channel',
        scope_id: 'T9',
        chat_id: 'C1',
        user_id: 'U1',
      }),
    ).toBe('agent:main:Slack:channel:C1:U1');
  });
});

describe('DM branch', () => {
  it('keys on the chat id, then the thread id (note: Telegram DM)', () => {
    expect(buildSessionKey({ platform: 'telegram', chat_type: 'dm', chat_id: '777', user_id: '777' })).toBe(
      'agent:main:telegram:dm:777',
    );
    expect(buildSessionKey({ platform: 'telegram', chat_type: 'dm', chat_id: '42', thread_id: '7' })).toBe(
      'agent:main:telegram:dm:42:7',
    );
  });

  it('treats an absent chat_type as dm', () => {
    expect(buildSessionKey({ platform: 'telegram', chat_id: '42', user_id: '1' })).toBe(
      'agent:main:telegram:dm:42',
    );
  });

  it('falls back to user_id_alt, then user_id, when the chat id is falsy', () => {
    expect(buildSessionKey({ platform: 'telegram', chat_type: 'dm', user_id: '42' })).toBe(
      'agent:main:telegram:dm:42',
    );
    expect(
      buildSessionKey({
        platform: 'telegram',
        chat_type: 'dm',
        chat_id: '',
        user_id: '42',
        user_id_alt: 'a',
      }),
    ).toBe('agent:main:telegram:dm:a');
    expect(
      buildSessionKey({ platform: 'telegram', chat_type: 'dm', chat_id: 0, user_id: 5, thread_id: '9' }),
    ).toBe('agent:main:telegram:dm:5:9');
  });

  it('ends at agent:main:<platform>:dm[:thread] with neither', () => {
    expect(buildSessionKey({ platform: 'telegram', chat_type: 'dm' })).toBe('agent:main:telegram:dm');
    expect(buildSessionKey({ platform: 'telegram', chat_type: 'dm', thread_id: 't1' })).toBe(
      'agent:main:telegram:dm:t1',
    );
  });

  it('ignores the group and thread knobs', () => {
    const dm = {
      platform: 'discord',
      chat_type: 'dm',
      chat_id: '555',
      thread_id: '77',
      user_id: '9001',
    } as const;
    for (const groupSessionsPerUser of [true, false]) {
      for (const threadSessionsPerUser of [true, false]) {
        expect(buildSessionKey(dm, { groupSessionsPerUser, threadSessionsPerUser })).toBe(
          'agent:main:discord:dm:555:77',
        );
      }
    }
  });
});

describe('non-DM branch', () => {
  it('appends the sender in a group by default (note: Discord guild channel)', () => {
    expect(buildSessionKey(discordChannel)).toBe('agent:main:discord:group:111:9001');
    expect(buildSessionKey({ ...discordChannel, chat_type: 'channel' })).toBe(
      'agent:main:discord:channel:111:9001',
    );
  });

  it('shares the chat when groupSessionsPerUser is false or no sender is known', () => {
    expect(buildSessionKey(discordChannel, { groupSessionsPerUser: false })).toBe(
      'agent:main:discord:group:111',
    );
    expect(buildSessionKey({ platform: 'discord', chat_type: 'group', chat_id: '111' })).toBe(
      'agent:main:discord:group:111',
    );
    expect(buildSessionKey({ platform: 'discord', chat_type: 'group' })).toBe('agent:main:discord:group');
  });

  it('lets a truthy user_id_alt override user_id', () => {
    expect(buildSessionKey({ ...discordChannel, user_id_alt: 'alt-1' })).toBe(
      'agent:main:discord:group:111:alt-1',
    );
    expect(buildSessionKey({ ...discordChannel, user_id_alt: '' })).toBe('agent:main:discord:group:111:9001');
    expect(buildSessionKey({ ...discordChannel, user_id_alt: null })).toBe(
      'agent:main:discord:group:111:9001',
    );
  });
});

describe('threads', () => {
  const forum = {
    platform: 'telegram',
    chat_type: 'forum',
    chat_id: '-1001234567890',
    thread_id: '5',
    user_id: '42',
  };

  it('are shared by default (note: Discord thread, Telegram forum topic)', () => {
    expect(
      buildSessionKey({
        platform: 'discord',
        chat_type: 'thread',
        chat_id: 'T1',
        thread_id: 'T1',
        user_id: '9001',
      }),
    ).toBe('agent:main:discord:thread:T1:T1');
    expect(buildSessionKey(forum)).toBe('agent:main:telegram:forum:-1001234567890:5');
  });

  it('isolate the sender only with threadSessionsPerUser and groupSessionsPerUser both on', () => {
    expect(buildSessionKey(forum, { threadSessionsPerUser: true })).toBe(
      'agent:main:telegram:forum:-1001234567890:5:42',
    );
    expect(buildSessionKey(forum, { threadSessionsPerUser: true, groupSessionsPerUser: false })).toBe(
      'agent:main:telegram:forum:-1001234567890:5',
    );
  });

  it('count as absent when the thread id is 0 or ""', () => {
    expect(buildSessionKey({ ...forum, thread_id: 0 })).toBe('agent:main:telegram:forum:-1001234567890:42');
    expect(buildSessionKey({ ...forum, thread_id: '' })).toBe('agent:main:telegram:forum:-1001234567890:42');
  });
});

describe('chat_type slot', () => {
  it('renders null as the text None', () => {
    expect(buildSessionKey({ ...discordChannel, chat_type: null })).toBe('agent:main:discord:None:111:9001');
  });

  it('is a DM only for the exact lowercase "dm"', () => {
    for (const chatType of ['DM', 'Dm', ' dm', 'dm ']) {
      expect(
        buildSessionKey({ platform: 'discord', chat_type: chatType, chat_id: '555', user_id: '9' }),
      ).toBe(`agent:main:discord:${chatType}:555:9`);
    }
  });

  it('writes an empty or unknown chat type as it is', () => {
    expect(buildSessionKey({ ...discordChannel, chat_type: '' })).toBe('agent:main:discord::111:9001');
    expect(buildSessionKey({ ...discordChannel, chat_type: 'supergroup' })).toBe(
      'agent:main:discord:supergroup:111:9001',
    );
  });
});

describe('WhatsApp canonicalisation', () => {
  it('canonicalises a DM chat id', () => {
    for (const chatId of [
      '60123456789@s.whatsapp.net',
      '60123456789:47@s.whatsapp.net',
      '+60123456789',
      '++60123456789',
    ]) {
      expect(buildSessionKey({ platform: 'whatsapp', chat_type: 'dm', chat_id: chatId })).toBe(
        'agent:main:whatsapp:dm:60123456789',
      );
    }
  });

  it('falls back to the canonical sender, or the raw one, when the DM chat id normalises to nothing', () => {
    expect(
      buildSessionKey({
        platform: 'whatsapp',
        chat_type: 'dm',
        chat_id: '@lid',
        user_id: '60111@s.whatsapp.net',
      }),
    ).toBe('agent:main:whatsapp:dm:60111');
    expect(buildSessionKey({ platform: 'whatsapp', chat_type: 'dm', user_id: '@foo' })).toBe(
      'agent:main:whatsapp:dm:@foo',
    );
  });

  it('canonicalises a group participant but not the group chat id', () => {
    expect(
      buildSessionKey({
        platform: 'whatsapp',
        chat_type: 'group',
        chat_id: '+120363:1@g.us',
        user_id: '60111@s.whatsapp.net',
        user_id_alt: '99887766554433@lid',
      }),
    ).toBe('agent:main:whatsapp:group:+120363:1@g.us:99887766554433');
  });

  it('leaves whatsapp_cloud alone', () => {
    expect(buildSessionKey({ platform: 'whatsapp_cloud', chat_type: 'dm', chat_id: '60 123' })).toBe(
      'agent:main:whatsapp_cloud:dm:60 123',
    );
  });
});

describe('gateway crashes', () => {
  it('throws where the gateway crashes: the note example', () => {
    const source = {
      platform: 'whatsapp',
      chat_type: 'dm',
      chat_id: '',
      user_id: '+60 123:1@s.whatsapp.net',
    };
    expect(() => buildSessionKey(source)).toThrow(
      expect.objectContaining({
        code: 'whatsapp_identifier_unresolvable',
        path: 'user_id',
        details: { normalized: '60 123' },
      }),
    );
  });

  it('throws for an unresolvable group participant even where it would not be appended', () => {
    const source = {
      platform: 'whatsapp',
      chat_type: 'group',
      chat_id: 'g@g.us',
      thread_id: 't',
      user_id_alt: 'x y',
    };
    expect(() => buildSessionKey(source, { groupSessionsPerUser: false })).toThrow(
      expect.objectContaining({
        name: 'RelayError',
        code: 'whatsapp_identifier_unresolvable',
        path: 'user_id_alt',
      }),
    );
  });

  it('does not read the DM sender when the chat id resolves', () => {
    expect(buildSessionKey({ platform: 'whatsapp', chat_type: 'dm', chat_id: '60123', user_id: 'a b' })).toBe(
      'agent:main:whatsapp:dm:60123',
    );
    expect(() => buildSessionKey({ platform: 'whatsapp', chat_type: 'dm', chat_id: '60 123' })).toThrow(
      expect.objectContaining({ path: 'chat_id' }),
    );
  });
});

describe('join', () => {
  it('does not escape, trim or fold ids (Matrix, Signal)', () => {
    expect(
      buildSessionKey({
        platform: 'matrix',
        chat_type: 'group',
        chat_id: '!room:example.org',
        user_id: '@alice:example.org',
      }),
    ).toBe('agent:main:matrix:group:!room:example.org:@alice:example.org');
    expect(
      buildSessionKey({
        platform: 'signal',
        chat_type: 'group',
        chat_id: 'group:aGVsbG8=',
        user_id: '+15551234567',
      }),
    ).toBe('agent:main:signal:group:group:aGVsbG8=:+15551234567');
    expect(buildSessionKey({ ...discordChannel, chat_id: ' C1 ', user_id: 'Ünï' })).toBe(
      'agent:main:discord:group: C1 :Ünï',
    );
  });

  it('renders values as Python str() does', () => {
    expect(buildSessionKey({ platform: 'telegram', chat_type: 'group', chat_id: -100123, user_id: 42 })).toBe(
      'agent:main:telegram:group:-100123:42',
    );
    expect(buildSessionKey({ ...discordChannel, chat_id: true, user_id: 12345678901234567890n })).toBe(
      'agent:main:discord:group:True:12345678901234567890',
    );
    expect(buildSessionKey({ ...discordChannel, user_id: 0.00001 })).toBe(
      'agent:main:discord:group:111:1e-05',
    );
    expect(buildSessionKey({ ...discordChannel, thread_id: Number.NaN })).toBe(
      'agent:main:discord:group:111:nan',
    );
  });
});

describe('upstream-2026-09-21 prospective_thread_id', () => {
  const upstream = { dialect: 'upstream-2026-09-21' } as const;

  it('keys a channel message on the thread it opens, with the slot "thread"', () => {
    const source = { ...discordChannel, prospective_thread_id: 'T9' };
    expect(buildSessionKey(source, upstream)).toBe('agent:main:discord:thread:111:T9');
    expect(buildSessionKey(source, { ...upstream, threadSessionsPerUser: true })).toBe(
      'agent:main:discord:thread:111:T9:9001',
    );
    expect(buildSessionKey(source)).toBe('agent:main:discord:group:111:9001');
  });

  it('yields to a real thread id and is ignored in DMs', () => {
    expect(
      buildSessionKey({ ...discordChannel, thread_id: 'T1', prospective_thread_id: 'T9' }, upstream),
    ).toBe('agent:main:discord:group:111:T1');
    expect(
      buildSessionKey(
        { platform: 'discord', chat_type: 'dm', chat_id: '5', prospective_thread_id: 'T9' },
        upstream,
      ),
    ).toBe('agent:main:discord:dm:5');
  });
});

describe('source typing', () => {
  it('accepts JSON-typed SessionSource shapes with extra fields', () => {
    type Json = string | number | boolean | null | Json[] | { readonly [key: string]: Json };
    const source: { readonly platform: string; readonly chat_id: Json; readonly is_bot?: boolean } & {
      readonly [key: string]: Json | undefined;
    } = { platform: 'discord', chat_type: 'group', chat_id: '111', user_id: '9001', is_bot: false };
    expect(buildSessionKey(source)).toBe('agent:main:discord:group:111:9001');
  });
});

describe('refused input', () => {
  it('refuses a source that is not an object or has no platform', () => {
    for (const source of [null, 'discord', [], {}, { platform: '' }, { platform: 3 }]) {
      expect(() => buildSessionKey(source as never)).toThrow(
        expect.objectContaining({ code: 'invalid_session_source' }),
      );
    }
  });

  it('renders arrays and objects as Python str() does, and ignores the falsy ones it does not write', () => {
    expect(buildSessionKey({ ...discordChannel, chat_id: { a: 1 } as never })).toBe(
      "agent:main:discord:group:{'a': 1}:9001",
    );
    expect(buildSessionKey({ ...discordChannel, user_id: ['9001', null, true] as never })).toBe(
      "agent:main:discord:group:111:['9001', None, True]",
    );
    expect(buildSessionKey({ ...discordChannel, user_id_alt: [] as never })).toBe(
      'agent:main:discord:group:111:9001',
    );
    expect(
      buildSessionKey({
        platform: 'slack',
        chat_type: 'channel',
        chat_id: 'C1',
        scope_id: { t: "it's" } as never,
      }),
    ).toBe(`agent:main:slack:channel:{'t': "it's"}:C1`);
  });

  it('refuses what has no faithful Python rendering only where the key writes it, naming the field', () => {
    expect(() => buildSessionKey({ ...discordChannel, user_id: 2 ** 60 })).toThrow(
      expect.objectContaining({ code: 'invalid_session_source', path: 'user_id' }),
    );
    expect(() => buildSessionKey({ ...discordChannel, chat_id: [2 ** 60] as never })).toThrow(
      expect.objectContaining({ code: 'invalid_session_source', path: 'chat_id' }),
    );
    // Not written: group sessions are shared, so the sender is left out.
    expect(buildSessionKey({ ...discordChannel, user_id: 2 ** 60 }, { groupSessionsPerUser: false })).toBe(
      'agent:main:discord:group:111',
    );
    expect(() => buildSessionKey({ ...discordChannel, thread_id: new Date(0) as never })).toThrow(
      expect.objectContaining({ code: 'invalid_session_source', path: 'thread_id' }),
    );
    expect(() => buildSessionKey({ ...discordChannel, chat_id: (() => 1) as never })).toThrow(
      expect.objectContaining({ code: 'invalid_session_source', path: 'chat_id' }),
    );
  });

  it('does not read prospective_thread_id in the baseline dialect', () => {
    const source = { ...discordChannel, prospective_thread_id: Symbol('not data') as never };
    expect(buildSessionKey(source)).toBe('agent:main:discord:group:111:9001');
    expect(() => buildSessionKey(source, { dialect: 'upstream-2026-09-21' })).toThrow(
      expect.objectContaining({ code: 'invalid_session_source' }),
    );
  });

  it('refuses bad options with a typed error', () => {
    const bad: unknown[] = [
      null,
      { dialect: 'upstream-2026-08' },
      { profile: 5 },
      { groupSessionsPerUser: 'yes' },
      { threadSessionsPerUser: 1 },
    ];
    for (const options of bad) {
      expect(() => buildSessionKey(discordChannel, options as never)).toThrow(
        expect.objectContaining({ code: 'invalid_session_key_options' }),
      );
    }
    expect(() => buildSessionKey(discordChannel, { profile: 5 as never })).toThrow(
      expect.objectContaining({ code: 'invalid_session_key_options', path: 'options.profile' }),
    );
  });

  it('makes every error a RelayError with its code', () => {
    try {
      buildSessionKey({ platform: 'whatsapp', chat_type: 'dm', chat_id: '++' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(RelayError);
      expect(error).toMatchObject({ name: 'RelayError', code: 'whatsapp_identifier_unresolvable' });
    }
  });
});
