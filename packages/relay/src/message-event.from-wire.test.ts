import { describe, expect, it } from 'vitest';
import { eventFromWire } from './message-event.js';

describe('eventFromWire', () => {
  it('fills the gateway defaults for an empty event', () => {
    expect(eventFromWire({})).toEqual({
      text: '',
      message_type: 'text',
      source: expect.objectContaining({ platform: 'relay', chat_id: '', chat_type: 'dm' }),
      message_id: null,
      reply_to_message_id: null,
      reply_to_text: null,
      reply_to_author_name: null,
      reply_to_is_own_message: false,
      media_urls: [],
      media_types: [],
      channel_context: null,
      prompt_response: null,
    });
  });

  it('keeps wire values verbatim where the gateway does', () => {
    const event = eventFromWire({ text: null, message_id: 5, media_urls: 'u', reply_to_message_id: ['x'] });
    expect(event).toMatchObject({ text: null, message_id: 5, media_urls: 'u', reply_to_message_id: ['x'] });
  });

  it.each([
    ['photo', 'photo'],
    ['command', 'command'],
    ['PHOTO', 'text'],
    ['gif', 'text'],
    [null, 'text'],
    [3, 'text'],
  ])('message_type %j reads as %s', (wire, type) => {
    expect(eventFromWire({ message_type: wire }).message_type).toBe(type);
  });

  it('flattens reply_to with Python truthiness', () => {
    expect(eventFromWire({ reply_to: { text: 'q', author: 'ann', is_own: 1 } })).toMatchObject({
      reply_to_text: 'q',
      reply_to_author_name: 'ann',
      reply_to_is_own_message: true,
    });
    expect(eventFromWire({ reply_to: { is_own: '' } }).reply_to_is_own_message).toBe(false);
    expect(eventFromWire({ reply_to: [] }).reply_to_text).toBeNull();
    expect(() => eventFromWire({ reply_to: 'q' })).toThrow(
      expect.objectContaining({ name: 'RelayError', code: 'message_event_not_object', path: 'reply_to' }),
    );
  });

  it('looks up media types by URL, not position', () => {
    const event = eventFromWire({
      media_urls: ['https://b', 'https://a', 5, 'https://c'],
      media: [
        { url: 'https://a', mime: 'image/png' },
        { url: 'https://b', mime: 'audio/ogg' },
        { url: 'https://c', mime: null },
        { url: '', mime: 'x/y' },
        'junk',
        { url: 'https://a', mime: 'image/jpeg' },
      ],
    });
    expect(event.media_types).toEqual(['audio/ogg', 'image/jpeg', '', '']);
    expect(eventFromWire({ media_urls: [], media: [{ url: 'a', mime: 'b' }] }).media_types).toEqual([]);
  });

  it('renders context like the gateway', () => {
    const event = eventFromWire({
      context: [
        { text: 'hello', source: { user_name: 'ann', user_id: 'u1' } },
        { text: 'hi', source: { user_id: 'u2' } },
        { text: 'anon' },
        { text: '' },
        { source: { user_name: 'ghost' } },
        'junk',
        { text: 'weird', source: 'x' },
        { text: 3, source: { user_name: true } },
        { text: [1, 'a'], source: { user_name: '' } },
      ],
    });
    expect(event.channel_context).toBe(
      "[Recent channel messages]\nann: hello\nu2: hi\nanon\nweird\nTrue: 3\n[1, 'a']",
    );
    expect(eventFromWire({ context: [{ text: '' }] }).channel_context).toBeNull();
    expect(eventFromWire({ context: { text: 'x' } }).channel_context).toBeNull();
  });

  it('copies prompt_response only when it is an object', () => {
    const wire = { prompt_response: { prompt_id: 'p', option_id: 'o' } };
    const event = eventFromWire(wire);
    expect(event.prompt_response).toEqual({ prompt_id: 'p', option_id: 'o' });
    expect(event.prompt_response).not.toBe(wire.prompt_response);
    expect(eventFromWire({ prompt_response: ['p'] }).prompt_response).toBeNull();
  });

  it('refuses shapes the gateway crashes on, with typed errors', () => {
    expect(() => eventFromWire(null)).toThrow(expect.objectContaining({ code: 'message_event_not_object' }));
    expect(() => eventFromWire([])).toThrow(expect.objectContaining({ code: 'message_event_not_object' }));
    expect(() => eventFromWire({ source: 'discord' })).toThrow(
      expect.objectContaining({ code: 'session_source_not_object' }),
    );
    expect(() => eventFromWire({ text: Symbol('x') })).toThrow(
      expect.objectContaining({ code: 'message_event_not_json' }),
    );
  });
});
