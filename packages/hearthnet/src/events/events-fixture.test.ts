import { describe, expect, it } from 'vitest';
import { canonicalJsonString } from '../canonical-json/canonical-json.js';
import { decodeTagged, loadHearthnetFixture } from '../crypto/fixture-test-support.js';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import type { EventType, SignedEvent } from './event.js';
import { createEvent, verifyEvent } from './event.js';
import { LamportClock, sortForReplay } from './event-store.js';
import { createUlidFactory, decodeUlid, encodeUlid } from './ulid.js';

interface Case {
  readonly id: string;
  readonly operation: string;
  readonly [field: string]: unknown;
}

const fixture = loadHearthnetFixture<Case>('events.json');
const byOperation = (operation: string) => fixture.cases.filter((c) => c.operation === operation);
const bytes = (value: unknown) => decodeTagged(value) as Uint8Array;

describe('events.json', () => {
  it('has cases of every operation', () => {
    const operations = new Set(fixture.cases.map((c) => c.operation));
    expect([...operations].sort()).toEqual(
      [
        'lamport',
        'replay-order',
        'sign-event',
        'ulid-decode',
        'ulid-encode',
        'ulid-monotonic',
        'verify-event',
      ].sort(),
    );
  });

  it.each(byOperation('ulid-encode'))('$id', (c) => {
    expect(encodeUlid(c['time_ms'] as number, bytes(c['randomness']))).toBe(c['expected']);
  });

  it.each(byOperation('ulid-decode'))('$id', (c) => {
    if ('error' in c) {
      expect(() => decodeUlid(c['ulid'] as string)).toThrow(
        expect.objectContaining({
          code: c['error'],
          details: expect.objectContaining({ reason: c['reason'] }),
        }),
      );
      return;
    }
    const expected = c['expected'] as { time_ms: number; randomness: unknown };
    expect(decodeUlid(c['ulid'] as string)).toEqual({
      timeMs: expected.time_ms,
      randomness: bytes(expected.randomness),
    });
  });

  it.each(byOperation('ulid-monotonic'))('$id', (c) => {
    const clock = [...(c['clock_ms'] as number[])];
    const draws = (c['random_draws'] as unknown[]).map(bytes);
    const ulid = createUlidFactory({
      clock: () => clock.shift() as number,
      random: () => draws.shift() as Uint8Array,
    });
    const expected = c['expected'] as string[];
    expect(expected.map(() => ulid())).toEqual(expected);
    if ('error' in c) expect(() => ulid()).toThrow(expect.objectContaining({ code: c['error'] }));
    expect(draws).toEqual([]);
  });

  it.each(byOperation('lamport'))('$id', (c) => {
    const clock = new LamportClock(c['initial'] as number);
    const steps = c['steps'] as { op: 'tick' | 'observe'; lamport?: number }[];
    const values = steps.map((step) =>
      step.op === 'tick' ? clock.tick() : clock.observe(step.lamport as number),
    );
    expect(values).toEqual(c['expected']);
  });

  it.each(byOperation('sign-event'))('$id', (c) => {
    const unsigned = c['unsigned'] as Omit<SignedEvent, 'signature'>;
    expect(canonicalJsonString(unsigned)).toBe(c['canonical']);
    const key = keyPairFromSeed(bytes(c['seed']));
    expect(unsigned.author).toBe(key.nodeId);
    const event = createEvent(
      {
        community_id: unsigned.community_id,
        event_type: unsigned.event_type as EventType,
        data: unsigned.data as never,
        lamport: unsigned.lamport,
        event_id: unsigned.event_id,
        wall_clock: unsigned.wall_clock,
      },
      key,
    );
    expect(event).toEqual(c['expected']);
  });

  it.each(byOperation('verify-event'))('$id', (c) => {
    const verdict = verifyEvent(c['event']);
    if ('error' in c) {
      expect(verdict).toMatchObject({ valid: false, code: c['error'], reason: c['reason'] });
    } else {
      expect(verdict).toEqual({ valid: true, event: c['event'] });
    }
  });

  it.each(byOperation('replay-order'))('$id', (c) => {
    const events = c['events'] as SignedEvent[];
    for (const event of events) expect(verifyEvent(event).valid).toBe(true);
    expect(sortForReplay(events).map((event) => event.event_id)).toEqual(c['expected']);
  });
});
