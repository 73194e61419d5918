import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  createMessageEvent,
  eventFromWire,
  type MessageEventInit,
  messageEventWireSchema,
} from './message-event.js';

const source = { platform: 'discord', chat_id: '111', chat_type: 'group', user_id: '9001' } as const;

describe('createMessageEvent', () => {
  it('fills every always-read key and sends is_bot / message_is_edit explicitly', () => {
    const event = createMessageEvent({ text: 'hello', source: { ...source, scope_id: 'G1' } });
    expect(JSON.stringify(event)).toBe(
      JSON.stringify({
        text: 'hello',
        message_type: 'text',
        message_id: null,
        reply_to_message_id: null,
        reply_to: null,
        media_urls: [],
        source: {
          platform: 'discord',
          chat_id: '111',
          chat_name: null,
          chat_type: 'group',
          user_id: '9001',
          user_name: null,
          thread_id: null,
          chat_topic: null,
          scope_id: 'G1',
          guild_id: 'G1',
          is_bot: false,
          message_is_edit: false,
        },
      }),
    );
    expect(messageEventWireSchema.safeParse(event).success).toBe(true);
  });

  it('writes optional parts in a fixed order and is read back faithfully', () => {
    const init: MessageEventInit = {
      text: 'look',
      message_type: 'photo',
      message_id: 'm2',
      reply_to: { text: 'q' },
      media_urls: ['https://cdn/x.png'],
      media: [{ url: 'https://cdn/x.png', mime: 'image/png', kind: 'image', size: 10 }],
      context: [{ text: 'earlier', source: { user_name: 'ann' } }],
      prompt_response: { prompt_id: 'p1', option_id: 'yes' },
      source: { ...source, is_bot: true, one_to_one_verified: false, prospective_thread_id: 't1' },
    };
    const event = createMessageEvent(init);
    expect(Object.keys(event)).toEqual([
      'text',
      'message_type',
      'message_id',
      'reply_to_message_id',
      'reply_to',
      'media_urls',
      'media',
      'context',
      'prompt_response',
      'source',
    ]);
    expect(event['reply_to']).toEqual({ text: 'q', author: null, is_own: false });
    const read = eventFromWire(event);
    expect(read.media_types).toEqual(['image/png']);
    expect(read.channel_context).toBe('[Recent channel messages]\nann: earlier');
    expect(read.source).toMatchObject({ is_bot: true, message_is_edit: false, one_to_one_verified: false });
  });

  it('names the platforms it takes when it refuses one, and the constants that list them', () => {
    const run = () => createMessageEvent({ text: 'hi', source: { ...source, platform: 'myspace' } } as never);
    expect(run).toThrow(/BUILTIN_PLATFORMS or PLUGIN_PLATFORMS: local, telegram, discord,.* irc,/);
    expect(run).toThrow(/any other name as "relay" \(FALLBACK_PLATFORM\)/);
    expect(createMessageEvent({ text: 'hi', source: { ...source, platform: 'relay' } }).source).toMatchObject(
      {
        platform: 'relay',
      },
    );
  });

  it.each([
    ['unknown platform', { source: { ...source, platform: 'myspace' } }, 'source.platform'],
    ['upper-case platform', { source: { ...source, platform: 'Discord' } }, 'source.platform'],
    ['missing chat_type', { source: { platform: 'discord', chat_id: '1' } }, 'source.chat_type'],
    ['upper-case chat_type', { source: { ...source, chat_type: 'DM' } }, 'source.chat_type'],
    ['numeric chat_id', { source: { ...source, chat_id: 5 } }, 'source.chat_id'],
    ['guild_id instead of scope_id', { source: { ...source, guild_id: 'G' } }, 'source'],
    ['string is_bot', { source: { ...source, is_bot: 'false' } }, 'source.is_bot'],
    ['media not in media_urls', { media_urls: ['a'], media: [{ url: 'b' }], source }, 'media.0.url'],
    ['unknown message type', { message_type: 'gif', source }, 'message_type'],
    ['unknown key', { txt: 'x', source }, ''],
    ['lone surrogate', { text: '\ud800', source }, 'text'],
    ['no source', {}, 'source'],
  ])('refuses %s', (_name, init, path) => {
    const run = () => createMessageEvent(init as unknown as MessageEventInit);
    expect(run).toThrow(expect.objectContaining({ code: 'message_event_invalid' }));
    try {
      run();
    } catch (error) {
      expect(error).toMatchObject({ name: 'RelayError', code: 'message_event_invalid', path });
      expect((error as Error).cause).toBeDefined();
    }
  });

  it('refuses a non-object', () => {
    expect(() => createMessageEvent(null as unknown as MessageEventInit)).toThrow(
      expect.objectContaining({ code: 'message_event_invalid' }),
    );
  });

  it('words the reason in English, whatever error map the application gives zod', () => {
    const { customError } = z.config();
    z.config({ customError: () => 'the application message' });
    try {
      const init = { source: { ...source, is_bot: 'false' } } as unknown as MessageEventInit;
      expect(() => createMessageEvent(init)).toThrow(
        'invalid message event at source.is_bot: Invalid input: expected boolean, received string',
      );
      expect(() => createMessageEvent({ media_urls: [''], source })).toThrow(
        'invalid message event at media_urls.0: Too small: expected string to have >=1 characters',
      );
    } finally {
      z.config({ customError });
    }
  });
});
