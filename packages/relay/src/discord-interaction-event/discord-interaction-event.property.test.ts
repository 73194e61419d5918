import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SESSION_KEY_DIALECTS } from '../session-key/index.js';
import { discordInteractionEvent } from './discord-interaction-event.js';
import { DiscordInteractionEventError } from './errors.js';

const option = fc.letrec((tie) => ({
  option: fc.record(
    {
      type: fc.oneof(fc.constantFrom(1, 2, 3, 1.0, true, '1'), fc.jsonValue()),
      name: fc.jsonValue(),
      value: fc.jsonValue(),
      options: fc.oneof(fc.array(tie('option'), { maxLength: 3 }), fc.jsonValue()),
    },
    { requiredKeys: [] },
  ),
}));

const interaction = fc.record(
  {
    type: fc.oneof(fc.constantFrom(1, 2, 3, 4, 5), fc.jsonValue()),
    id: fc.jsonValue(),
    channel_id: fc.jsonValue(),
    guild_id: fc.jsonValue(),
    member: fc.oneof(fc.record({ user: fc.jsonValue() }), fc.jsonValue()),
    user: fc.jsonValue(),
    message: fc.jsonValue(),
    data: fc.oneof(
      fc.record(
        {
          name: fc.jsonValue(),
          custom_id: fc.oneof(fc.stringMatching(/^hp1:[a-z\n]{0,3}:[a-z\n.]{0,3}$/), fc.jsonValue()),
          options: fc.array(option.option, { maxLength: 4 }),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue(),
    ),
  },
  { requiredKeys: [] },
);

const onlyTypedErrors = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DiscordInteractionEventError);
  }
};

describe('discordInteractionEvent (property)', () => {
  it('never throws anything but its typed errors, and its text is a string', () => {
    fc.assert(
      fc.property(interaction, fc.constantFrom(...SESSION_KEY_DIALECTS), (body, dialect) => {
        onlyTypedErrors(() => {
          const event = discordInteractionEvent(JSON.stringify(body), { dialect });
          expect(event).toBeDefined();
          expect(typeof event?.text).toBe('string');
          if (event?.message_type === 'command') expect(String(event.text).startsWith('/')).toBe(true);
        });
      }),
      { numRuns: 400 },
    );
  });

  it('takes arbitrary text and bytes without crashing', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), fc.uint8Array({ maxLength: 64 }), (text, bytes) => {
        onlyTypedErrors(() => discordInteractionEvent(text));
        onlyTypedErrors(() => discordInteractionEvent(bytes));
      }),
      { numRuns: 400 },
    );
  });
});
