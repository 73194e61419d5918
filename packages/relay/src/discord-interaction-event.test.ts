import { describe, expect, it } from 'vitest';
import { discordInteractionEvent } from './discord-interaction-event.js';
import { discordInteractionSessionSource } from './edge/sanitisers.js';
import { encodePassthroughBody } from './passthrough.js';
import { MAX_PYTHON_JSON_NESTING } from './python.js';
import { buildSessionKey, SESSION_KEY_DIALECTS } from './session-key.js';

const GUILD = { id: 'I1', channel_id: 'C1', guild_id: 'G1', member: { user: { id: 'U1', username: 'ann' } } };
const json = (value: unknown) => JSON.stringify(value);
const forwardOf = (body: string, extra: Record<string, unknown> = {}) => ({
  platform: 'discord',
  bodyB64: encodePassthroughBody(new TextEncoder().encode(body)),
  ...extra,
});

describe('discordInteractionEvent', () => {
  it('turns a slash command into a command event keyed like the gateway', () => {
    const body = json({ type: 2, ...GUILD, data: { name: 'model', options: [{ type: 3, value: 'gpt-5' }] } });
    const event = discordInteractionEvent(body);
    expect(event?.text).toBe('/model gpt-5');
    expect(event?.message_type).toBe('command');
    expect(event?.source).toMatchObject({
      platform: 'relay',
      chat_type: 'channel',
      chat_id: 'C1',
      user_id: 'U1',
      user_name: 'ann',
      scope_id: 'G1',
      guild_id: 'G1',
      message_id: 'I1',
      profile: null,
    });
    expect(event?.message_id).toBeNull();
    expect(buildSessionKey(event!.source)).toBe('agent:main:relay:channel:C1:U1');
  });

  it('keys the upstream dialect as the connector binds it, with the forward profile', () => {
    const body = json({ type: 2, ...GUILD, data: { name: 'x' } });
    const event = discordInteractionEvent(forwardOf(body, { profile: 'coder' }), {
      dialect: 'upstream-2026-09-21',
    });
    expect(event?.source).toMatchObject({ platform: 'discord', chat_type: 'group', profile: 'coder' });
    const dialect = 'upstream-2026-09-21';
    const connector = discordInteractionSessionSource(JSON.parse(body), dialect, 'coder');
    expect(buildSessionKey(event!.source, { dialect })).toBe(buildSessionKey(connector, { dialect }));
    expect(buildSessionKey(event!.source, { dialect })).toBe('agent:main:discord:group:C1:U1');
    // An explicit option wins over the forward's profile; the baseline never stamps one.
    expect(
      discordInteractionEvent(forwardOf(body, { profile: 'a' }), { dialect, profile: 'b' })?.source.profile,
    ).toBe('b');
    expect(discordInteractionEvent(forwardOf(body, { profile: 'a' }))?.source.profile).toBeNull();
  });

  it('agrees with the connector-side binding in both dialects', () => {
    const bodies = [
      { type: 2, ...GUILD, data: { name: 'x' } },
      { type: 3, id: 7, channel_id: 'D', user: { id: 'U' }, data: { custom_id: 'hp1:a:b' } },
      { type: 5, channel_id: 'C', guild_id: 'G', member: { nick: 'n' }, user: { id: 'U2' } },
    ];
    for (const dialect of SESSION_KEY_DIALECTS) {
      for (const body of bodies) {
        const event = discordInteractionEvent(json(body), { dialect, profile: 'p' })!;
        const connector = discordInteractionSessionSource(body, dialect, 'p');
        expect(buildSessionKey(event.source, { dialect })).toBe(buildSessionKey(connector, { dialect }));
      }
    }
  });

  it('renders nested sub-commands and Python str() of option values', () => {
    const body =
      '{"type":2,"data":{"name":"a/","options":[{"type":2,"name":" g ","options":[{"type":1,"name":"s",' +
      '"options":[{"type":10,"value":1.0},{"type":5,"value":false},{"type":4,"value":12345678901234567890},' +
      '{"type":3,"value":null},{"type":3,"value":"\\u3000"},{"type":3,"value":{"2":1,"1":[1e400]}}]}]}]}}';
    expect(discordInteractionEvent(body)?.text).toBe(
      "/a g s 1.0 False 12345678901234567890 {'2': 1, '1': [inf]}",
    );
  });

  it('reads a prompt callback token with the gateway regex quirk', () => {
    const press = (customId: string) =>
      discordInteractionEvent(
        json({ type: 3, ...GUILD, message: { id: 55 }, data: { custom_id: customId } }),
      );
    expect(press('hp1:p1:once')).toMatchObject({
      text: '/once',
      message_type: 'command',
      prompt_response: { prompt_id: 'p1', option_id: 'once', prompt_message_id: '55' },
    });
    expect(press('hp1:p1:once\n')?.prompt_response).toEqual({
      prompt_id: 'p1',
      option_id: 'once\n',
      prompt_message_id: '55',
    });
    for (const text of ['hp1:p1:once\n\n', 'hp1:p1', 'HP1:a:b', 'hp1::b', `hp1:${'a'.repeat(33)}:b`]) {
      expect(press(text)).toMatchObject({ text, message_type: 'text', prompt_response: null });
    }
  });

  it('gives other interaction types an empty text event', () => {
    for (const type of [1, 4, 5, '2', null]) {
      expect(discordInteractionEvent(json({ type, ...GUILD, data: 'unread' }))).toMatchObject({
        text: '',
        message_type: 'text',
      });
    }
  });

  it('drops what the gateway drops', () => {
    const command = json({ type: 2, data: { name: 'x' } });
    expect(discordInteractionEvent(forwardOf(command, { platform: 'Discord' }))).toBeUndefined();
    expect(discordInteractionEvent({ ...forwardOf(command), bodyB64: 'eyJ0eXBlIjoyfQ' })).toBeUndefined();
    expect(discordInteractionEvent(`\uFEFF${command}`)).toBeUndefined();
    expect(discordInteractionEvent(new Uint8Array([0x7b, 0xff, 0x7d]))).toBeUndefined();
    expect(discordInteractionEvent('[1]')).toBeUndefined();
    expect(discordInteractionEvent('{"type":2,}')).toBeUndefined();
    expect(discordInteractionEvent(`{"id":${'1'.repeat(4301)}}`)).toBeUndefined();
    const deep = `${'['.repeat(MAX_PYTHON_JSON_NESTING)}${']'.repeat(MAX_PYTHON_JSON_NESTING)}`;
    expect(discordInteractionEvent(`{"a":${deep}}`)).toBeUndefined();
    expect(discordInteractionEvent(`{"a":${deep.slice(1, -1)}}`)).toBeDefined();
  });

  it('throws typed errors for a non-object data and for bad arguments', () => {
    expect(() => discordInteractionEvent('{"type":2,"data":"x"}')).toThrow(
      expect.objectContaining({ code: 'discord_interaction_unreadable' }),
    );
    expect(() => discordInteractionEvent('{"type":3.0,"data":[1]}')).toThrow(
      expect.objectContaining({ code: 'discord_interaction_unreadable' }),
    );
    const bad: unknown[] = [null, 5, [], { platform: 7 }, { bodyB64: null }, '{"a":"\uD800"}'];
    for (const input of bad) {
      expect(() => discordInteractionEvent(input as never)).toThrow(
        expect.objectContaining({ code: 'discord_interaction_invalid_argument' }),
      );
    }
    expect(() => discordInteractionEvent('{}', { dialect: 'newest' as never })).toThrow(
      expect.objectContaining({ code: 'discord_interaction_invalid_argument' }),
    );
    expect(() => discordInteractionEvent('{}', { profile: 3 as never })).toThrow(
      expect.objectContaining({ code: 'discord_interaction_invalid_argument' }),
    );
    expect(() => discordInteractionEvent('{}', null as never)).toThrow(
      expect.objectContaining({ code: 'discord_interaction_invalid_argument' }),
    );
  });
});
