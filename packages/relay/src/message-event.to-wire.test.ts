import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RelayError } from './errors.js';
import { eventFromWire, eventToWire, type MessageEvent, messageEventWireSchema } from './message-event.js';

describe('eventToWire', () => {
  it('writes a wire event the gateway reads back as the same event', () => {
    const wire = {
      text: 'hi',
      message_type: 'photo',
      message_id: 'm1',
      reply_to_message_id: 'm0',
      reply_to: { text: 'q', author: 'ann', is_own: false },
      media_urls: ['https://a', 'https://b'],
      media: [{ url: 'https://b', mime: 'image/png', size: 3 }],
      context: [{ text: 'x', source: { user_name: 'bob' } }, { text: 'y' }],
      prompt_response: { prompt_id: 'p', option_id: 'o' },
      source: { platform: 'discord', chat_id: '1', chat_type: 'group', user_id: 'u', scope_id: 'G' },
    };
    const event = eventFromWire(wire);
    const written = eventToWire(event);
    expect(Object.keys(written)).toEqual([
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
    expect(written['media']).toEqual([{ url: 'https://b', mime: 'image/png' }]);
    expect(written['context']).toEqual([{ text: 'bob: x\ny' }]);
    expect(eventFromWire(written)).toEqual(event);
  });

  it('writes reply_to as null when nothing was replied to, and leaves optional keys out', () => {
    const written = eventToWire(eventFromWire({ source: { platform: 'telegram', chat_id: '1' } }));
    expect(written['reply_to']).toBeNull();
    expect(Object.keys(written)).not.toContain('media');
    expect(Object.keys(written)).not.toContain('context');
    expect(Object.keys(written)).not.toContain('prompt_response');
  });

  it('refuses an event without an object source', () => {
    const event = eventFromWire({});
    expect(() => eventToWire({ ...event, source: null } as unknown as MessageEvent)).toThrow(
      expect.objectContaining({ code: 'message_event_not_object' }),
    );
    expect(() => eventToWire(7 as unknown as MessageEvent)).toThrow(
      expect.objectContaining({ code: 'message_event_not_object' }),
    );
  });
});

const EVENT_KEYS = [
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
  'timestamp',
];
const small = fc.jsonValue({ maxDepth: 1 });
const media = fc.array(
  fc.record({ url: fc.constantFrom('a', 'b', '', 1), mime: small }, { requiredKeys: [] }),
);
const context = fc.array(
  fc.oneof(
    small,
    fc.record({ text: small, source: fc.oneof(small, fc.record({ user_name: small, user_id: small })) }),
  ),
);
const eventValue = fc.oneof(
  small,
  fc.constantFrom('a', 'b'),
  fc.array(fc.constantFrom('a', 'b', 5)),
  media,
  context,
  fc.record({ text: small, author: small, is_own: small }, { requiredKeys: [] }),
  fc.dictionary(fc.constantFrom('platform', 'chat_id', 'scope_id', 'user_name', 'chat_type'), small),
);
const wireEvent = fc.oneof(
  fc.dictionary(fc.constantFrom(...EVENT_KEYS), eventValue),
  fc.jsonValue({ maxDepth: 2 }),
);

function typedOnly(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    const typed =
      error instanceof RelayError &&
      (error.code.startsWith('message_event_') || error.code === 'session_source_not_object');
    expect(typed, String(error)).toBe(true);
    return undefined;
  }
}

describe('event properties', () => {
  it('reading arbitrary input throws only typed errors', () => {
    fc.assert(
      fc.property(fc.oneof(wireEvent, fc.anything()), (wire) => {
        typedOnly(() => eventFromWire(wire));
      }),
      { numRuns: 400 },
    );
  });

  it('read/write reaches a fixed point by the second pass, key order included', () => {
    fc.assert(
      fc.property(wireEvent, (wire) => {
        const pass = (w: unknown) => eventToWire(eventFromWire(w));
        const first = typedOnly(() => pass(wire));
        if (first === undefined) return;
        const twice = pass(first);
        expect(messageEventWireSchema.safeParse(twice).success).toBe(true);
        expect(JSON.stringify(pass(twice))).toBe(JSON.stringify(twice));
        expect(eventFromWire(twice)).toEqual(eventFromWire(pass(twice)));
      }),
      { numRuns: 400 },
    );
  });
});
