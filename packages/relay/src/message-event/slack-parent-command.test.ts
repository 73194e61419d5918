import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MessageEventShapeError } from './errors.js';
import { eventFromOwnedWire, eventFromWire } from './from-wire.js';
import { rewriteSlackParentCommand, SLACK_SUBCOMMANDS } from './slack-parent-command.js';

// Worked through the baseline gateway's `_normalize_slack_parent_command` (2026-07-26, default
// configuration, no plugins).
const CASES: readonly [text: string, type: string, expected: readonly [string, string]][] = [
  ['/hermes new', 'text', ['/new', 'command']],
  ['/hermes what is up', 'text', ['what is up', 'text']],
  ['/hermes', 'text', ['/help', 'command']],
  ['/hermes   ', 'text', ['/help', 'command']],
  ['  /hermes compact here 5  ', 'text', ['/compress here 5', 'command']],
  ['/hermes\tbg\n do  stuff\n now', 'text', ['/bg do  stuff\n now', 'command']],
  ['/hermes Compact', 'text', ['Compact', 'text']],
  ['/hermes  NEW', 'text', ['NEW', 'text']],
  ['/HERMES new', 'text', ['/HERMES new', 'text']],
  ['/hermesfoo new', 'photo', ['/hermesfoo new', 'photo']],
  ['/hermes verbose', 'text', ['verbose', 'text']],
  ['/hermes clear', 'text', ['clear', 'text']],
  ['/hermes /new', 'text', ['/new', 'command']],
  ['/hermes new/x', 'text', ['new/x', 'text']],
  ['  hi there  ', 'voice', ['  hi there  ', 'voice']],
  ['/hermes reset my-name', 'photo', ['/reset my-name', 'command']],
  ['/hermes\x1fnew', 'text', ['/new', 'command']],
  ['/hermes\x85new', 'text', ['/new', 'command']],
  ['/hermes\u200bnew', 'text', ['/hermes\u200bnew', 'text']],
  ['/hermes __proto__', 'text', ['__proto__', 'text']],
  ['hello /hermes new', 'text', ['hello /hermes new', 'text']],
];

describe('rewriteSlackParentCommand', () => {
  it.each(CASES)('%j (%s) → %j', (text, type, expected) => {
    expect(rewriteSlackParentCommand(text, type as never)).toEqual(expected);
  });

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
      MessageEventShapeError,
    );
    expect(eventFromWire({ text: null, source: { platform: 'telegram' } }).text).toBeNull();
  });
});
