import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from './json.js';
import { eventFromOwnedWire, eventFromWire } from './message-event.js';
import { sessionSourceFromOwnedWire, sessionSourceFromWire } from './session-source.js';

const scalar = fc.constantFrom<JsonValue>(null, '', 0, false, true, 'x', ' Discord ', 'dm', 'photo', 3);
const loose = fc.oneof(scalar, fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>);
const objectOf = (keys: readonly string[], value: fc.Arbitrary<JsonValue>) =>
  fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length });

const source = fc.oneof(
  {
    weight: 4,
    arbitrary: objectOf(['platform', 'chat_id', 'chat_type', 'user_name', 'scope_id', 'is_bot'], loose),
  },
  { weight: 1, arbitrary: loose },
);
const contextItem = fc.oneof(
  objectOf(['text', 'source'], fc.oneof(loose, objectOf(['user_name', 'user_id'], loose))),
  loose,
);

/** Wire events: the keys the gateway reads with values of the right shape and of any other. */
const wireEvent: fc.Arbitrary<JsonValue> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record(
      {
        text: loose,
        message_type: loose,
        message_id: loose,
        reply_to: fc.oneof(objectOf(['text', 'author', 'is_own'], loose), loose),
        media_urls: fc.oneof(fc.array(fc.constantFrom('a', 'b', 5)), loose),
        media: fc.oneof(
          fc.array(objectOf(['url', 'mime'], fc.constantFrom('a', 'b', '', 'x/y', null))),
          loose,
        ),
        context: fc.oneof(fc.array(contextItem, { maxLength: 3 }), loose),
        prompt_response: loose,
        source,
        extra: loose,
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: loose },
);

/** The outcome of a read: the value, or the error's class, message and path. */
function outcome(read: () => unknown): unknown {
  try {
    return { value: read() };
  } catch (error) {
    const { name, message, path } = error as Error & { path?: string };
    return { name, message, path };
  }
}

describe('eventFromOwnedWire agrees with eventFromWire on plain JSON data', () => {
  it('gives the same event, or the same error', () => {
    fc.assert(
      fc.property(wireEvent, (wire) => {
        const owned = structuredClone(wire);
        expect(outcome(() => eventFromOwnedWire(owned))).toStrictEqual(outcome(() => eventFromWire(wire)));
      }),
      { numRuns: 1000 },
    );
  });

  it('reads a source like sessionSourceFromWire', () => {
    fc.assert(
      fc.property(fc.option(source, { nil: undefined }), (wire) => {
        const owned = structuredClone(wire);
        expect(outcome(() => sessionSourceFromOwnedWire(owned))).toStrictEqual(
          outcome(() => sessionSourceFromWire(wire)),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the values of the event it owns instead of copying them', () => {
    const wire = { prompt_response: { option_id: 'o' }, media_urls: ['a'] };
    const event = eventFromOwnedWire(wire);
    expect(event.prompt_response).toBe(wire.prompt_response);
    expect(event.media_urls).toBe(wire.media_urls);
  });
});
