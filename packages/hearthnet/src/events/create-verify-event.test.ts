import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SignedEvent } from './event.js';
import {
  createEvent,
  EVENT_TYPES,
  type EventType,
  eventDataSchemas,
  validateEvent,
  verifyEvent,
} from './event.js';
import { alice, bob, communityId, root, sampleData } from './event-samples.test-support.js';
import { InMemoryEventStore } from './event-store.js';
import { createUlidFactory, decodeUlid } from './ulid.js';

const T0 = Date.UTC(2026, 4, 26, 8, 14, 22, 281);

function sample<T extends EventType>(type: T, lamport = 1): SignedEvent<T> {
  return createEvent(
    { community_id: communityId, event_type: type, data: sampleData[type], lamport },
    alice,
    {
      clock: () => T0,
    },
  );
}

describe('createEvent', () => {
  it('refuses data whose copy differs from what was checked (a hidden key, a getter), so a made event is always valid', () => {
    const hidden = Object.defineProperty({ recipient: bob.nodeId, body: 'hi' }, 'client_id', {
      value: 'c-1',
      enumerable: false,
    });
    let reads = 0;
    const shifting = {
      recipient: bob.nodeId,
      body: 'hi',
      get client_id() {
        reads += 1;
        return reads === 1 ? 'c-1' : '';
      },
    };
    for (const data of [hidden, shifting] as { client_id: string; recipient: string; body: string }[]) {
      expect(() =>
        createEvent({ community_id: communityId, event_type: 'chat.message.sent', data, lamport: 1 }, alice, {
          clock: () => T0,
        }),
      ).toThrow(expect.objectContaining({ code: 'invalid_event', details: { reason: 'invalid_data' } }));
    }
  });

  it('returns a new event frozen all the way down, which a store keeps as it is; a changed copy is checked again', async () => {
    const data = { ...sampleData['market.post.created'] };
    const event = createEvent(
      { community_id: communityId, event_type: 'market.post.created', data, lamport: 1 },
      alice,
      { clock: () => T0 },
    );
    expect(event.data).not.toBe(data);
    expect(Object.isFrozen(event) && Object.isFrozen(event.data)).toBe(true);
    expect(() => {
      (event.data as { title: string }).title = 'changed';
    }).toThrow(TypeError);
    const store = new InMemoryEventStore();
    expect(await store.append(event)).toMatchObject({ status: 'appended' });
    expect(await store.get(event.event_id)).toBe(event);
    expect(await store.append(event)).toMatchObject({ status: 'duplicate' });
    const changed = { ...event, data: { ...event.data, title: 'changed' } };
    await expect(store.append(changed as never)).rejects.toMatchObject({ code: 'event_conflict' });
    const broken = { ...event, event_id: 'not-a-ulid' };
    await expect(store.append(broken as never)).rejects.toMatchObject({ code: 'invalid_event' });
  });

  it('property: refuses exactly what validateEvent refuses in the envelope it builds, with the same reason, path and message', () => {
    const FIXED_ID = '01HZY7M3Q4R5S6T7V8W9X0YZAB';
    const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
    fc.assert(
      fc.property(
        pick([communityId, 'x', 5, 'ed25519:AAAA', alice.nodeId]),
        pick([0, 7, -1, 1.5, Number.NaN, 2 ** 53, '3']),
        pick([undefined, '2026-05-26T08:14:22Z', 'yesterday', '2026-05-26T08:14:22+02:00']),
        pick([undefined, '01HZY7M3Q4R5S6T7V8W9X0YZAC', 'not-a-ulid']),
        pick([FIXED_ID, 'lower-case-01hzy7m3q4r5s6t7v']),
        pick(['chat.message.sent', 'market.post.created', 'no.such.type', 7]),
        pick([sampleData['chat.message.sent'], sampleData['market.post.created'], {}, [], null]),
        (community, lamport, wallClock, eventId, generatedId, type, data) => {
          const input = {
            community_id: community,
            event_type: type,
            data,
            lamport,
            ...(wallClock === undefined ? {} : { wall_clock: wallClock }),
            ...(eventId === undefined ? {} : { event_id: eventId }),
          } as never;
          const expected = validateEvent({
            schema_version: 1,
            event_id: eventId ?? generatedId,
            lamport,
            wall_clock: wallClock ?? '2026-05-26T08:14:22.281Z',
            community_id: community,
            author: alice.nodeId,
            event_type: type,
            data,
            signature: '',
          });
          let error: unknown;
          try {
            createEvent(input, alice, { clock: () => T0, ulid: () => generatedId });
          } catch (caught) {
            error = caught;
          }
          if (expected.valid) {
            expect(error).toBeUndefined();
          } else {
            expect(error).toMatchObject({
              code: 'invalid_event',
              message: expected.message,
              path: expected.path,
              details: { reason: expected.reason },
            });
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('fills the envelope of contract §7.1 and signs it under the author', () => {
    const event = sample('chat.message.sent', 7);
    expect(Object.keys(event).sort()).toEqual([
      'author',
      'community_id',
      'data',
      'event_id',
      'event_type',
      'lamport',
      'schema_version',
      'signature',
      'wall_clock',
    ]);
    expect(event).toMatchObject({
      schema_version: 1,
      lamport: 7,
      wall_clock: '2026-05-26T08:14:22Z',
      community_id: communityId,
      author: alice.nodeId,
      event_type: 'chat.message.sent',
    });
    expect(decodeUlid(event.event_id).timeMs).toBe(T0);
    expect(event.signature).toMatch(/^ed25519:[A-Za-z0-9_-]{86}$/);
    expect(verifyEvent(event)).toEqual({ valid: true, event });
  });

  it.each(EVENT_TYPES)('signs and verifies a %s event', (type) => {
    const event = sample(type);
    expect(verifyEvent(event).valid).toBe(true);
    expect(eventDataSchemas[type].safeParse(event.data).success).toBe(true);
  });

  it('gives strictly increasing ids within one millisecond from one factory', () => {
    const ulid = createUlidFactory({ clock: () => T0 });
    const ids = [1, 2, 3].map(
      (lamport) =>
        createEvent(
          {
            community_id: communityId,
            event_type: 'file.cid.unpinned',
            data: sampleData['file.cid.unpinned'],
            lamport,
          },
          alice,
          { clock: () => T0, ulid },
        ).event_id,
    );
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(3);
  });

  it('normalises numbers before signing, so what is sent is what was signed', () => {
    const event = createEvent(
      {
        community_id: communityId,
        event_type: 'market.post.created',
        data: {
          client_id: 'p',
          category: 'info',
          title: 't',
          ttl_seconds: 60,
          location: { lat: 51.123456789, lng: 6 },
        },
        lamport: 1,
      },
      alice,
    );
    expect(event.data.location?.lat).toBe(51.1235);
    expect(verifyEvent(JSON.parse(JSON.stringify(event))).valid).toBe(true);
  });

  it.each([
    ['unknown_event_type', { event_type: 'market.post.deleted', data: {} }, '$.event_type'],
    [
      'invalid_data',
      { event_type: 'chat.message.sent', data: { client_id: 'c', body: 'x' } },
      '$.data.recipient',
    ],
    [
      'invalid_data',
      {
        event_type: 'market.post.expired',
        data: { client_id: 'c', target_event_id: 'x', reason: 'fulfilled' },
      },
      '$.data.target_event_id',
    ],
    [
      'malformed_envelope',
      { event_type: 'file.cid.unpinned', data: sampleData['file.cid.unpinned'], lamport: -1 },
      '$.lamport',
    ],
    [
      'malformed_envelope',
      {
        event_type: 'file.cid.unpinned',
        data: sampleData['file.cid.unpinned'],
        community_id: 'ed25519:nope',
      },
      '$.community_id',
    ],
    [
      'malformed_envelope',
      {
        event_type: 'file.cid.unpinned',
        data: sampleData['file.cid.unpinned'],
        event_id: '01arz3ndektsv4rrffq69g5fav',
      },
      '$.event_id',
    ],
  ])('refuses input with %s at the right path (%#)', (reason, override, path) => {
    const input = { community_id: communityId, lamport: 1, ...override } as never;
    const error = (() => {
      try {
        createEvent(input, alice);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toMatchObject({ code: 'invalid_event' });
    expect(error).toMatchObject({ code: 'invalid_event', path, details: { reason } });
  });
});

describe('verifyEvent', () => {
  const event = sample('community.member.invited', 3);

  it.each([
    ['schema_version', 1.5, 'unsupported_schema_version', 'schema_mismatch'],
    ['event_id', '01ARYZ6S41000000000000000', 'malformed_envelope', 'bad_request'],
    ['lamport', 1.5, 'malformed_envelope', 'bad_request'],
    ['wall_clock', '2026-05-26 08:14:22', 'malformed_envelope', 'bad_request'],
    ['author', 'ed25519:AAAA-BBBB-CCCC-D===', 'malformed_envelope', 'bad_request'],
    ['event_type', 'community.member.banned', 'unknown_event_type', 'bad_request'],
    ['data', [], 'malformed_envelope', 'bad_request'],
    ['signature', 42, 'malformed_envelope', 'bad_request'],
    ['signature', 'hmac:abc', 'invalid_signature', 'invalid_signature'],
  ])('refuses %s = %j with %s', (field, value, reason, code) => {
    expect(verifyEvent({ ...event, [field]: value })).toMatchObject({ valid: false, reason, code });
  });

  it('refuses non-objects without throwing', () => {
    for (const value of [null, 1, 'event', [], undefined]) {
      expect(verifyEvent(value)).toMatchObject({ valid: false, reason: 'malformed_envelope', path: '$' });
    }
  });

  it('refuses every single-field change of a signed event', () => {
    const changes: Record<string, unknown> = {
      event_id: '01ARYZ6S410000000000000001',
      lamport: 4,
      wall_clock: '2026-05-26T08:14:23Z',
      community_id: bob.nodeId,
      author: root.nodeId,
      data: { ...event.data, display_name: 'Other' },
    };
    for (const [field, value] of Object.entries(changes)) {
      expect(verifyEvent({ ...event, [field]: value }), field).toMatchObject({ reason: 'invalid_signature' });
    }
  });

  it('validateEvent accepts a bad signature: it checks the shape only', () => {
    expect(validateEvent({ ...event, lamport: 4 }).valid).toBe(true);
  });

  it('round-trips sign and verify for arbitrary chat bodies, lamports and keys (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc.nat({ max: 2 ** 40 }),
        fc.constantFrom(root, alice, bob),
        (body, lamport, key) => {
          const signed = createEvent(
            {
              community_id: communityId,
              event_type: 'chat.message.sent',
              data: { client_id: 'c', recipient: bob.nodeId, body },
              lamport,
            },
            key,
          );
          const received = JSON.parse(JSON.stringify(signed)) as SignedEvent;
          expect(verifyEvent(received).valid).toBe(true);
          const tampered = { ...received, data: { ...received.data, body: `${body}.` } };
          expect(verifyEvent(tampered)).toMatchObject({ reason: 'invalid_signature' });
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('InMemoryEventStore', () => {
  it('refuses a received event canonical JSON cannot write (a lone surrogate) on its first append', async () => {
    const store = new InMemoryEventStore();
    const event = sample('chat.message.sent', 3);
    const broken = { ...event, data: { ...event.data, body: 'hi \ud800' } };
    await expect(store.append(broken as never)).rejects.toMatchObject({ code: 'lone_surrogate' });
    expect(await store.count()).toBe(0);
  });

  it('stores a deep, frozen copy: later changes to the caller’s event change nothing stored', async () => {
    const store = new InMemoryEventStore();
    const event = structuredClone(sample('market.post.created', 1)) as SignedEvent;
    await store.append(event);
    (event.data as Record<string, unknown>)['title'] = 'changed';
    const stored = (await store.get(event.event_id)) as SignedEvent;
    expect(stored).not.toBe(event);
    expect((stored.data as Record<string, unknown>)['title']).toBe(
      (sampleData['market.post.created'] as Record<string, unknown>)['title'],
    );
    expect(Object.isFrozen(stored)).toBe(true);
    expect(Object.isFrozen(stored.data)).toBe(true);
    const nested = Object.values(stored.data as object).find(
      (value) => typeof value === 'object' && value !== null,
    );
    if (nested !== undefined) expect(Object.isFrozen(nested)).toBe(true);
    // The same event again is a duplicate, not a conflict.
    expect((await store.append(structuredClone(stored))).status).toBe('duplicate');
  });
});
