import { describe, expect, it } from 'vitest';
import {
  DISCORD_INTERACTION_TOKEN_KIND,
  DISCORD_INTERACTION_TOKEN_TTL_MS,
  discordInteractionSessionSource,
  sanitiseDiscordInteraction,
} from './sanitisers.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const GUILD_COMMAND =
  '{"type":2,"id":"I1","application_id":"APP","token":"tok-secret","guild_id":"G1","channel_id":"C1",' +
  '"member":{"user":{"id":"U1","username":"ann"}},"data":{"name":"ask","options":[{"value":"ß ✓"}]}}';

describe('sanitiseDiscordInteraction', () => {
  it('cuts the token out of the bytes and binds it under the baseline and newer session keys', () => {
    const { forwardedBody, bindings } = sanitiseDiscordInteraction(utf8(GUILD_COMMAND), {
      tenant: 'tenant-a',
    });
    expect(text(forwardedBody)).toBe(GUILD_COMMAND.replace('"token":"tok-secret",', ''));
    expect(bindings).toEqual([
      {
        tenant: 'tenant-a',
        session_key: 'agent:main:relay:channel:C1:U1',
        kind: DISCORD_INTERACTION_TOKEN_KIND,
        credential: 'tok-secret',
        ttl_ms: DISCORD_INTERACTION_TOKEN_TTL_MS,
      },
      {
        tenant: 'tenant-a',
        session_key: 'agent:main:discord:group:C1:U1',
        kind: 'discord.interaction_token',
        credential: 'tok-secret',
        ttl_ms: 900_000,
      },
    ]);
  });

  it('keys a DM on its channel, with the user from `user`', () => {
    const dm = '{"type":3,"token":"t","channel_id":"D9","user":{"id":"U7"},"data":{"custom_id":"b"}}';
    const keys = sanitiseDiscordInteraction(utf8(dm), { tenant: 't' }).bindings.map((b) => b.session_key);
    expect(keys).toEqual(['agent:main:relay:dm:D9', 'agent:main:discord:dm:D9']);
  });

  it('binds one dialect when told, and the profile namespace too when a profile is forwarded', () => {
    const body = utf8(GUILD_COMMAND);
    const baseline = sanitiseDiscordInteraction(body, { tenant: 't', dialects: ['baseline-2026-07-26'] });
    expect(baseline.bindings.map((b) => b.session_key)).toEqual(['agent:main:relay:channel:C1:U1']);
    const profiled = sanitiseDiscordInteraction(body, { tenant: 't', profile: 'coder', tokenTtlMs: 1000 });
    expect(profiled.bindings.map((b) => [b.session_key, b.ttl_ms])).toEqual([
      ['agent:main:relay:channel:C1:U1', 1000],
      ['agent:main:discord:group:C1:U1', 1000],
      ['agent:coder:discord:group:C1:U1', 1000],
    ]);
    const shared = sanitiseDiscordInteraction(body, { tenant: 't', groupSessionsPerUser: false });
    expect(shared.bindings.map((b) => b.session_key)).toEqual([
      'agent:main:relay:channel:C1',
      'agent:main:discord:group:C1',
    ]);
  });

  it('forwards a body without a usable token as it came, binding nothing', () => {
    const body = utf8('{"type":2,"channel_id":"C"}');
    const result = sanitiseDiscordInteraction(body, { tenant: 't' });
    expect(result.forwardedBody).toBe(body);
    expect(result.bindings).toEqual([]);
    const empty = sanitiseDiscordInteraction(utf8('{"type":2, "token":""}'), { tenant: 't' });
    expect(text(empty.forwardedBody)).toBe('{"type":2}');
    expect(empty.bindings).toEqual([]);
  });

  it('refuses bodies and ids it cannot handle, and unusable options', () => {
    expect(() => sanitiseDiscordInteraction(utf8('[1]'), { tenant: 't' })).toThrow(
      expect.objectContaining({ code: 'sanitiser_malformed_payload' }),
    );
    expect(() => sanitiseDiscordInteraction(new Uint8Array([0xff]), { tenant: 't' })).toThrow(
      expect.objectContaining({ code: 'sanitiser_malformed_payload' }),
    );
    const objectId = utf8('{"type":2,"token":"t","channel_id":{"id":1}}');
    expect(() => sanitiseDiscordInteraction(objectId, { tenant: 't' })).toThrow(
      expect.objectContaining({ code: 'sanitiser_malformed_payload' }),
    );
    expect(() => sanitiseDiscordInteraction(utf8('{}'), { tenant: '' })).toThrow(
      expect.objectContaining({ code: 'sanitiser_invalid_argument' }),
    );
    expect(() =>
      sanitiseDiscordInteraction(utf8('{}'), { tenant: 't', dialects: ['nope' as 'baseline-2026-07-26'] }),
    ).toThrow(expect.objectContaining({ code: 'sanitiser_invalid_argument' }));
    expect(() => sanitiseDiscordInteraction(utf8('{}'), { tenant: 't', tokenTtlMs: 0 })).toThrow(
      expect.objectContaining({ code: 'sanitiser_invalid_argument' }),
    );
    expect(() => sanitiseDiscordInteraction('{}' as unknown as Uint8Array, { tenant: 't' })).toThrow(
      expect.objectContaining({ code: 'sanitiser_invalid_argument' }),
    );
  });
});

describe('discordInteractionSessionSource', () => {
  it('builds the baseline and newer sources the gateways build', () => {
    const interaction = JSON.parse(GUILD_COMMAND) as Record<string, unknown>;
    expect(discordInteractionSessionSource(interaction, 'baseline-2026-07-26', 'ignored')).toEqual({
      platform: 'relay',
      chat_id: 'C1',
      chat_type: 'channel',
      user_id: 'U1',
      user_name: 'ann',
      scope_id: 'G1',
      message_id: 'I1',
    });
    expect(discordInteractionSessionSource(interaction, 'upstream-2026-09-21', 'coder')).toMatchObject({
      platform: 'discord',
      chat_type: 'group',
      profile: 'coder',
    });
  });

  it("renders ids with Python's str() and falls back from member.user to user", () => {
    const source = discordInteractionSessionSource(
      { channel_id: 0, member: { user: {} }, user: { id: 42, username: '' } },
      'upstream-2026-09-21',
    );
    expect(source).toMatchObject({ chat_id: '', chat_type: 'dm', user_id: '42', user_name: null });
  });
});
