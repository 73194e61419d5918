import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { PythonFloat } from './reference-json.js';
import {
  type ReferenceSnapshot,
  referenceSnapshotSigningBytes,
  signReferenceSnapshot,
  type UnsignedReferenceSnapshot,
  verifyReferenceSnapshot,
} from './reference-snapshot.js';

const root = keyPairFromSeed(new Uint8Array(32).fill(1));
const alice = keyPairFromSeed(new Uint8Array(32).fill(2));

const issuedAt = fc
  .integer({ min: 0, max: 253402300799999 })
  .map((ms) => `${new Date(ms).toISOString().slice(0, 23)}000Z`);

/** JSON values as a reference view state holds them, with any Unicode text and integral floats. */
const stateValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'grapheme' }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer({ min: -1000, max: 1000 }).map((n) => new PythonFloat(n)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ unit: 'grapheme' }), tie('value'), { maxKeys: 3 }),
  ),
})).value;

const unsignedSnapshot: fc.Arbitrary<UnsignedReferenceSnapshot> = fc.record({
  schema_version: fc.constant(1),
  community_id: fc.constant(root.nodeId),
  at_lamport: fc.nat(),
  views: fc.dictionary(
    fc.string({ unit: 'grapheme' }),
    fc.dictionary(fc.string({ unit: 'grapheme' }), stateValue, { maxKeys: 4 }),
    { maxKeys: 3 },
  ),
  issued_at: issuedAt,
  author: fc.constant(alice.nodeId),
});

const example: UnsignedReferenceSnapshot = {
  schema_version: 1,
  community_id: root.nodeId,
  at_lamport: 42,
  views: {
    chat: { messages: {}, seen_client_ids: ['c-1'] },
    marketplace: { posts: {}, price: new PythonFloat(2) },
  },
  issued_at: '2026-05-26T08:14:22.281734Z',
  author: alice.nodeId,
};

describe('reference snapshot signing bytes', () => {
  it('are printable ASCII only, whatever the views hold', () => {
    fc.assert(
      fc.property(unsignedSnapshot, (snapshot) => {
        expect(referenceSnapshotSigningBytes(snapshot).every((byte) => byte >= 0x20 && byte <= 0x7e)).toBe(
          true,
        );
      }),
      { numRuns: 200 },
    );
  });

  it('are the six fields with sorted keys, without the signature or other fields', () => {
    const text = new TextDecoder().decode(
      referenceSnapshotSigningBytes({
        ...example,
        signature: 'ed25519:x',
        extra: 1,
      } as UnsignedReferenceSnapshot),
    );
    expect(text).toBe(
      `{"at_lamport":42,"author":"${alice.nodeId}","community_id":"${root.nodeId}",` +
        '"issued_at":"2026-05-26T08:14:22.281734Z","schema_version":1,' +
        '"views":{"chat":{"messages":{},"seen_client_ids":["c-1"]},"marketplace":{"posts":{},"price":2.0}}}',
    );
  });

  it('throw typed errors for a malformed snapshot or a view JSON cannot carry', () => {
    expect(() => referenceSnapshotSigningBytes({ ...example, at_lamport: -1 })).toThrow(
      expect.objectContaining({ name: 'HearthNetLocalError', path: '$.at_lamport' }),
    );
    expect(() =>
      referenceSnapshotSigningBytes({
        ...example,
        views: { chat: [] },
      } as unknown as UnsignedReferenceSnapshot),
    ).toThrow(expect.objectContaining({ code: 'malformed_reference_snapshot' }));
    expect(() => referenceSnapshotSigningBytes({ ...example, views: { chat: { n: Number.NaN } } })).toThrow(
      expect.objectContaining({ code: 'python_json_unencodable' }),
    );
  });
});

describe('reference snapshot signatures', () => {
  it('a signed snapshot verifies, and any change to a signed field breaks it', () => {
    const changes: ((snapshot: ReferenceSnapshot) => ReferenceSnapshot)[] = [
      (s) => ({ ...s, at_lamport: s.at_lamport + 1 }),
      (s) => ({ ...s, schema_version: 2 }),
      (s) => ({ ...s, community_id: alice.nodeId }),
      (s) => ({ ...s, issued_at: s.issued_at.replace(/\d(?=Z$)/, (d) => String((Number(d) + 1) % 10)) }),
      (s) => ({ ...s, author: root.nodeId }),
      (s) => ({ ...s, views: { ...s.views, added: {} } }),
    ];
    fc.assert(
      fc.property(unsignedSnapshot, fc.nat({ max: changes.length - 1 }), (unsigned, which) => {
        const signed = signReferenceSnapshot(unsigned, alice);
        expect(verifyReferenceSnapshot(signed)).toEqual({ valid: true, snapshot: signed, signed: true });
        const changed = (changes[which] as (s: ReferenceSnapshot) => ReferenceSnapshot)(signed);
        expect(verifyReferenceSnapshot(changed)).toMatchObject({
          valid: false,
          reason: 'signature_mismatch',
        });
      }),
      { numRuns: 100 },
    );
  });

  it('tells an integral float from an integer, and ignores key order', () => {
    const signed = signReferenceSnapshot(example, alice);
    const asInteger = { ...signed, views: { ...signed.views, marketplace: { posts: {}, price: 2 } } };
    expect(verifyReferenceSnapshot(asInteger)).toMatchObject({ valid: false, reason: 'signature_mismatch' });
    const reordered = {
      ...signed,
      views: { marketplace: signed.views.marketplace, chat: signed.views.chat },
    };
    expect(verifyReferenceSnapshot(reordered)).toMatchObject({ valid: true, signed: true });
  });

  it('refuses an empty signature unless acceptUnsigned, as the reference accepts it', () => {
    const unsigned = { ...example, signature: '' };
    expect(verifyReferenceSnapshot(unsigned)).toMatchObject({ valid: false, reason: 'unsigned' });
    expect(verifyReferenceSnapshot(unsigned, { acceptUnsigned: true })).toEqual({
      valid: true,
      snapshot: unsigned,
      signed: false,
    });
  });

  it('reports a bad author or signature encoding with its reason', () => {
    const signed = signReferenceSnapshot(example, alice);
    expect(verifyReferenceSnapshot({ ...signed, author: 'local-1a2b3c4d' })).toMatchObject({
      valid: false,
      reason: 'invalid_author',
    });
    expect(verifyReferenceSnapshot({ ...signed, signature: 'ed25519:AAAA' })).toMatchObject({
      valid: false,
      reason: 'malformed_signature',
    });
    expect(
      verifyReferenceSnapshot({ ...signed, signature: signed.signature.slice('ed25519:'.length) }),
    ).toMatchObject({ valid: true, signed: true });
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(verifyReferenceSnapshot(value)).toMatchObject({ valid: false, reason: 'malformed_snapshot' });
      }),
      { numRuns: 200 },
    );
    expect(
      verifyReferenceSnapshot({ ...example, views: { chat: { n: Infinity } }, signature: '' }),
    ).toMatchObject({
      valid: false,
      reason: 'malformed_snapshot',
    });
  });
});
