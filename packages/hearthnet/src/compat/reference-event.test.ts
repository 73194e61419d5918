import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { createEvent } from '../events/event.js';
import {
  contractEventToReference,
  referenceEventIdToUlid,
  referenceEventToContract,
  referenceSigningBytes,
  signReferenceEvent,
  type UnsignedReferenceEvent,
  ulidToReferenceEventId,
  verifyReferenceEvent,
} from './reference-event.js';
import { PythonFloat } from './reference-json.js';

const root = keyPairFromSeed(new Uint8Array(32).fill(1));
const alice = keyPairFromSeed(new Uint8Array(32).fill(2));
const bob = keyPairFromSeed(new Uint8Array(32).fill(3));

const referenceId = fc
  .tuple(fc.integer({ min: 0, max: 2 ** 48 - 1 }), fc.bigInt({ min: 0n, max: 2n ** 50n - 1n }))
  .map(([time, random]) => {
    let bits = (BigInt(time) << 50n) | random;
    let id = '';
    for (let i = 0; i < 26; i++) {
      id = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[Number(bits & 31n)] + id;
      bits >>= 5n;
    }
    return id;
  });
const issuedAt = fc
  .integer({ min: 0, max: 253402300799999 })
  .map((ms) => `${new Date(ms).toISOString().slice(0, 23)}000Z`);

/** Reference chat events the contract can carry. */
const referenceChat = fc.record({
  schema_version: fc.constant(1),
  event_id: referenceId,
  event_type: fc.constant('chat.message.sent'),
  community_id: fc.constant(root.nodeId),
  author: fc.constant(alice.nodeId),
  lamport: fc.nat(),
  payload: fc.record({
    to: fc.constant(bob.nodeId),
    body: fc.string({ unit: 'grapheme' }),
    client_id: fc.string({ minLength: 1 }),
    attachments: fc.constant([]),
  }),
  issued_at: issuedAt,
});

describe('reference events ⇄ contract events', () => {
  it('reference → contract → reference is the identity (µs at whole ms, no integral floats)', () => {
    fc.assert(
      fc.property(referenceChat, (event) => {
        const contract = referenceEventToContract(event);
        expect(contract.data).toMatchObject({ recipient: bob.nodeId, body: event.payload.body });
        expect(contractEventToReference(contract)).toEqual(event);
      }),
      { numRuns: 200 },
    );
  });

  it('contract → reference → contract is the identity for ids made from reference ids', () => {
    fc.assert(
      fc.property(referenceId, fc.nat(), fc.string(), (id, lamport, body) => {
        const event = createEvent(
          {
            community_id: root.nodeId,
            event_type: 'chat.message.sent',
            data: { client_id: 'c-1', recipient: bob.nodeId, body },
            lamport,
            event_id: referenceEventIdToUlid(id),
          },
          alice,
        );
        const { signature: _signature, ...unsigned } = event;
        expect(referenceEventToContract(contractEventToReference(event))).toEqual(unsigned);
      }),
      { numRuns: 100 },
    );
  });

  it('maps market locations, nested ids and integral floats', () => {
    const target = 'AAAAAAAZ2PVWLFHBAECAKBQHBA';
    const contract = referenceEventToContract({
      schema_version: 1,
      event_id: 'AAAAAAAZ2PVWLFHBAECAKBQHBB',
      event_type: 'market.post.updated',
      community_id: root.nodeId,
      author: alice.nodeId,
      lamport: 2,
      payload: {
        client_id: 'm-1',
        target_event_id: target,
        fields: { location: { lat: 1, lon: new PythonFloat(2), label: 'x' }, price: new PythonFloat(3) },
      },
      issued_at: '2026-05-26T08:14:22.281734Z',
    });
    expect(contract.data).toEqual({
      client_id: 'm-1',
      target_event_id: referenceEventIdToUlid(target),
      fields: { location: { lat: 1, lng: 2, label: 'x' }, price: 3 },
    });
    expect(contract.wall_clock).toBe('2026-05-26T08:14:22.281Z');
    const back = contractEventToReference(contract);
    expect(back.payload).toEqual({
      client_id: 'm-1',
      target_event_id: ulidToReferenceEventId(referenceEventIdToUlid(target)),
      fields: { location: { lat: 1, lon: 2, label: 'x' }, price: 3 },
    });
    expect(back.issued_at).toBe('2026-05-26T08:14:22.281000Z');
  });

  it('refuses an unknown event type and a malformed envelope with typed errors', () => {
    const event: UnsignedReferenceEvent = {
      schema_version: 1,
      event_id: 'AAAAAAAZ2PVWLFHBAECAKBQHBA',
      event_type: 'weather.report',
      community_id: root.nodeId,
      author: alice.nodeId,
      lamport: 1,
      payload: {},
      issued_at: '2026-05-26T08:14:22.281734Z',
    };
    expect(() => referenceEventToContract(event)).toThrow(
      expect.objectContaining({
        code: 'event_conversion',
        path: '$.event_type',
        details: { reason: 'invalid_contract_event' },
      }),
    );
    expect(() => referenceEventToContract({ ...event, issued_at: 'now' })).toThrow(
      expect.objectContaining({ code: 'event_conversion', details: { reason: 'unconvertible_timestamp' } }),
    );
    expect(() => referenceEventToContract({ ...event, lamport: -1 })).toThrow(
      expect.objectContaining({ code: 'malformed_reference_event', path: '$.lamport' }),
    );
    expect(() => referenceEventToContract(null as unknown as UnsignedReferenceEvent)).toThrow(
      expect.objectContaining({ code: 'malformed_reference_event', path: '$' }),
    );
    expect(() => contractEventToReference({ event_id: 'x' } as never)).toThrow(
      expect.objectContaining({ code: 'event_conversion', details: { reason: 'invalid_contract_event' } }),
    );
  });
});

describe('reference event signatures', () => {
  it('a signed event verifies, and any change to a signed field breaks it', () => {
    fc.assert(
      fc.property(referenceChat, fc.string({ unit: 'binary' }), (event, other) => {
        const signed = signReferenceEvent(event, alice);
        expect(verifyReferenceEvent(signed)).toEqual({ valid: true, event: signed, signed: true });
        fc.pre(other !== event.payload.body);
        const changed = { ...signed, payload: { ...signed.payload, body: other } };
        expect(verifyReferenceEvent(changed)).toMatchObject({ valid: false, reason: 'signature_mismatch' });
      }),
      { numRuns: 100 },
    );
  });

  it('signs ASCII bytes only, whatever the payload holds', () => {
    fc.assert(
      fc.property(referenceChat, (event) => {
        expect(referenceSigningBytes(event).every((byte) => byte >= 0x20 && byte <= 0x7e)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it("refuses a validly signed event outside the reference log's 22 types as schema_unknown", () => {
    const base = {
      schema_version: 1,
      event_id: 'AAAAAAAZ2PVWLFHBAECAKBQHBA',
      community_id: root.nodeId,
      author: alice.nodeId,
      lamport: 1,
      payload: {},
      issued_at: '2026-05-26T08:14:22.281734Z',
    };
    const unknown = signReferenceEvent({ ...base, event_type: 'market.post.deleted' }, alice);
    expect(verifyReferenceEvent(unknown)).toMatchObject({ valid: false, reason: 'schema_unknown' });
    const extra = signReferenceEvent({ ...base, event_type: 'file.advertised' }, alice);
    expect(verifyReferenceEvent(extra)).toMatchObject({ valid: true });
  });

  it('ignores fields beyond the eight signed ones', () => {
    const event = signReferenceEvent(
      {
        schema_version: 1,
        event_id: 'AAAAAAAZ2PVWLFHBAECAKBQHBA',
        event_type: 'chat.message.read',
        community_id: root.nodeId,
        author: alice.nodeId,
        lamport: 1,
        payload: {},
        issued_at: '2026-05-26T08:14:22.281734Z',
      },
      alice,
    );
    expect(verifyReferenceEvent({ ...event, received_at: 'later' })).toMatchObject({ valid: true });
  });

  it('reads absent schema_version, payload and signature with the sync wire defaults (1, {}, "")', () => {
    const unsigned = {
      event_id: 'AAAAAAAZ2PVWLFHBAECAKBQHBA',
      event_type: 'chat.message.read',
      community_id: root.nodeId,
      author: alice.nodeId,
      lamport: 1,
      issued_at: '2026-05-26T08:14:22.281734Z',
    };
    const { signature } = signReferenceEvent({ ...unsigned, schema_version: 1, payload: {} }, alice);
    expect(verifyReferenceEvent({ ...unsigned, signature })).toEqual({
      valid: true,
      signed: true,
      event: { ...unsigned, schema_version: 1, payload: {}, signature },
    });
    expect(verifyReferenceEvent({ ...unsigned, payload: { a: 1 }, signature })).toMatchObject({
      reason: 'signature_mismatch',
    });
    expect(verifyReferenceEvent(unsigned)).toMatchObject({ valid: false, reason: 'unsigned' });
    expect(verifyReferenceEvent(unsigned, { acceptUnsigned: true })).toMatchObject({
      valid: true,
      signed: false,
    });
    const { lamport: _lamport, ...noLamport } = unsigned;
    expect(verifyReferenceEvent(noLamport, { acceptUnsigned: true })).toMatchObject({
      reason: 'malformed_event',
    });
  });

  it('checks the event type before the field types, as append_received does', () => {
    const event = {
      event_id: 'AAAAAAAZ2PVWLFHBAECAKBQHBA',
      event_type: 'market.post.deleted',
      community_id: root.nodeId,
      author: alice.nodeId,
      lamport: '3',
      issued_at: '2026-05-26T08:14:22.281734Z',
    };
    expect(verifyReferenceEvent(event, { acceptUnsigned: true })).toMatchObject({ reason: 'schema_unknown' });
    expect(
      verifyReferenceEvent({ ...event, event_type: 'chat.message.read' }, { acceptUnsigned: true }),
    ).toMatchObject({ reason: 'malformed_event' });
  });

  it.each([
    ['not an object', 'event'],
    ['an array', []],
    ['a payload with NaN', { payload: { n: Number.NaN } }],
    ['no signature', { signature: undefined }],
  ])('reports %s as malformed_event, never throws', (_name, change) => {
    const base = {
      schema_version: 1,
      event_id: 'AAAAAAAZ2PVWLFHBAECAKBQHBA',
      event_type: 'chat.message.read',
      community_id: root.nodeId,
      author: alice.nodeId,
      lamport: 1,
      payload: {},
      issued_at: '2026-05-26T08:14:22.281734Z',
      signature: '',
    };
    const value = typeof change === 'object' && !Array.isArray(change) ? { ...base, ...change } : change;
    expect(verifyReferenceEvent(value)).toMatchObject({ valid: false, reason: 'malformed_event' });
  });
});
