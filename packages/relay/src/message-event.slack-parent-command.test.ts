import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  eventFromOwnedWire,
  eventFromWire,
  rewriteSlackParentCommand,
  SLACK_SUBCOMMANDS,
} from './message-event.js';

// The gateway's own outputs (fixtures/relay/slack-parent-commands.json) are relayCodecSuite cases of
// @agentwire/conformance, run there against this function; these tests cover the sub-command map and
// the rewrite's place in the event readers.
describe('rewriteSlackParentCommand', () => {
  it('maps every gateway command to itself, and compact to /compress', () => {
    expect(Object.keys(SLACK_SUBCOMMANDS)).toHaveLength(67);
    expect(SLACK_SUBCOMMANDS['compact']).toBe('/compress');
    for (const [name, command] of Object.entries(SLACK_SUBCOMMANDS)) {
      if (name !== 'compact') expect(command).toBe(`/${name}`);
    }
  });

  it('leaves any text not starting with the /hermes word as it came', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!text.trimStart().startsWith('/hermes'));
        expect(rewriteSlackParentCommand(text, 'sticker')).toEqual([text, 'sticker']);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the rewrite in eventFromWire', () => {
  it('applies on Slack (platform in any case) and nowhere else, on both readers', () => {
    for (const read of [eventFromWire, eventFromOwnedWire]) {
      const slack = read({ text: '/hermes new', source: { platform: ' Slack ', chat_id: 'C1' } });
      expect([slack.text, slack.message_type]).toEqual(['/new', 'command']);
      const discord = read({ text: '/hermes new', source: { platform: 'discord', chat_id: '1' } });
      expect([discord.text, discord.message_type]).toEqual(['/hermes new', 'text']);
    }
  });

  it('refuses a Slack event whose text is not a string, as the gateway fails on it', () => {
    expect(() => eventFromWire({ text: null, source: { platform: 'slack' } })).toThrow(
      expect.objectContaining({ code: 'message_event_not_object' }),
    );
    expect(eventFromWire({ text: null, source: { platform: 'telegram' } }).text).toBeNull();
  });
});
