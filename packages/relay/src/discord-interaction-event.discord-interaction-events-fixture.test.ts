import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { discordInteractionEvent } from './discord-interaction-event.js';
import { RelayError } from './errors.js';
import { eventToWire } from './message-event.js';
import { encodePassthroughBody } from './passthrough.js';
import { buildSessionKey, type SessionKeyDialect } from './session-key.js';

interface InteractionCase {
  readonly id: string;
  readonly tags: readonly string[];
  readonly body: string;
  readonly dialect?: SessionKeyDialect;
  readonly profile?: string;
  readonly expected?: { readonly source: { readonly profile?: string } };
  readonly session_key?: string;
  readonly profile_session_key?: string;
  readonly dropped?: true;
  readonly error?: string;
}

const fixture = JSON.parse(
  readFileSync(
    new URL('../../conformance/fixtures/relay/discord-interaction-events.json', import.meta.url),
    'utf8',
  ),
) as { readonly cases: readonly InteractionCase[] };

describe('relay/discord-interaction-events.json (the gateway converter, executed)', () => {
  it.each(fixture.cases.map((c) => [c.id, c] as const))('%s', (_, c) => {
    const dialect = c.dialect ?? 'baseline-2026-07-26';
    const forward = {
      platform: 'discord',
      bodyB64: encodePassthroughBody(new TextEncoder().encode(c.body)),
      ...(c.profile === undefined ? {} : { profile: c.profile }),
    };
    const readers = [
      () => discordInteractionEvent(c.body, { dialect, profile: c.profile ?? null }),
      () =>
        discordInteractionEvent(new TextEncoder().encode(c.body), { dialect, profile: c.profile ?? null }),
      () => discordInteractionEvent(forward, { dialect }),
    ];
    for (const read of readers) {
      if (c.error !== undefined) {
        expect(read).toThrow(RelayError);
        expect(() => read()).toThrow(expect.objectContaining({ code: c.error }));
        continue;
      }
      const event = read();
      if (c.dropped) {
        expect(event).toBeUndefined();
        continue;
      }
      if (event === undefined) throw new Error('expected an event');
      const wire = eventToWire(event);
      expect(wire).toEqual(c.expected);
      expect(JSON.stringify(wire)).toBe(JSON.stringify(c.expected));
      expect(buildSessionKey(event.source, { dialect })).toBe(c.session_key);
      if (c.profile_session_key !== undefined) {
        const profile = event.source.profile as string;
        expect(buildSessionKey(event.source, { dialect, profile })).toBe(c.profile_session_key);
      }
    }
  });

  it('covers every outcome and both dialects', () => {
    expect(fixture.cases.length).toBeGreaterThanOrEqual(40);
    expect(fixture.cases.some((c) => c.dropped)).toBe(true);
    expect(fixture.cases.some((c) => c.error)).toBe(true);
    expect(fixture.cases.some((c) => c.dialect === 'upstream-2026-09-21')).toBe(true);
  });
});
