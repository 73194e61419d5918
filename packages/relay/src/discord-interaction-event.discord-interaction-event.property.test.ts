import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { discordInteractionEvent } from './discord-interaction-event.js';
import { discordInteractionSessionSource } from './edge/sanitisers.js';
import { RelayError } from './errors.js';
import { buildSessionKey, SESSION_KEY_DIALECTS } from './session-key.js';

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
    expect(error).toBeInstanceOf(RelayError);
    expect((error as RelayError).code).toMatch(/^discord_interaction_/);
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

  it('keys every interaction a connector can bind exactly as the connector binds it', () => {
    // Ids as Discord sends them (strings), or integers and other JSON where the connector accepts them.
    const id = fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.constantFrom(null, '', 0, false, true));
    const user = fc.record({ id, username: id }, { requiredKeys: [] });
    const realistic = fc.record(
      {
        type: fc.constantFrom(1, 2, 3, 4, 5),
        id,
        channel_id: id,
        guild_id: id,
        member: fc.oneof(fc.record({ user }, { requiredKeys: [] }), fc.constant(null)),
        user: fc.oneof(user, fc.constant(null)),
        data: fc.record({ name: fc.string({ maxLength: 5 }), custom_id: fc.string({ maxLength: 8 }) }),
      },
      { requiredKeys: ['type'] },
    );
    fc.assert(
      fc.property(
        realistic,
        fc.constantFrom(...SESSION_KEY_DIALECTS),
        fc.string({ maxLength: 4 }),
        (body, dialect, profile) => {
          const event = discordInteractionEvent(JSON.stringify(body), { dialect, profile });
          if (event === undefined) return;
          const bound = discordInteractionSessionSource(body, dialect, profile);
          expect(buildSessionKey(event.source, { dialect })).toBe(buildSessionKey(bound, { dialect }));
        },
      ),
      { numRuns: 500 },
    );
  });
});
