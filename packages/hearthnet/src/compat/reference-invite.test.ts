import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import {
  decodeReferenceInvite,
  encodeReferenceInvite,
  makeReferenceInvite,
  type ReferenceInvite,
  verifyReferenceInvite,
} from './reference-invite.js';

const root = keyPairFromSeed(new Uint8Array(32).fill(1));
const alice = keyPairFromSeed(new Uint8Array(32).fill(2));

const input = fc.record(
  {
    community_id: fc.constant(root.nodeId),
    community_name: fc.string({ unit: 'grapheme' }),
    invitee_node_id: fc.constant(alice.nodeId),
    issued_at: fc.constant('2026-05-26T08:14:22Z'),
    expires_at: fc.constant('2026-05-27T08:14:22Z'),
    relay_url: fc.webUrl(),
    relay_token: fc.string({ minLength: 1 }),
  },
  { requiredKeys: ['community_id', 'community_name', 'invitee_node_id', 'issued_at', 'expires_at'] },
);

describe('hn1: invites', () => {
  it('make → encode → decode gives the invite back, and it verifies', () => {
    fc.assert(
      fc.property(input, (fields) => {
        const invite = makeReferenceInvite(fields, root);
        const blob = encodeReferenceInvite(invite);
        expect(blob).toMatch(/^hn1:[A-Za-z0-9_-]+$/);
        const decoded = decodeReferenceInvite(blob);
        expect(decoded).toEqual(invite);
        expect(verifyReferenceInvite(decoded, { now: '2026-05-26T09:00:00Z' })).toEqual({ valid: true });
      }),
      { numRuns: 100 },
    );
  });

  it('leaves empty relay fields out, as the reference does', () => {
    const invite = makeReferenceInvite(
      {
        community_id: root.nodeId,
        community_name: 'x',
        invitee_node_id: alice.nodeId,
        issued_at: 'a',
        expires_at: 'b',
        relay_url: '',
        relay_token: '',
      },
      root,
    );
    expect(Object.keys(invite)).not.toContain('relay_url');
    expect(decodeReferenceInvite(encodeReferenceInvite(invite))).toEqual(invite);
  });

  it('refuses to encode an invite with a non-string field', () => {
    expect(() => encodeReferenceInvite({ community_id: 5 } as unknown as ReferenceInvite)).toThrow(
      expect.objectContaining({
        name: 'HearthNetLocalError',
        code: 'invalid_invite',
        details: { reason: 'invalid_field' },
      }),
    );
  });

  it.each([
    ['not a string', 42, 'wrong_prefix'],
    ['non-ASCII base64', 'hn1:é', 'invalid_encoding'],
    ['a single stray character', 'hn1:A', 'invalid_encoding'],
  ])('refuses %s with a typed error', (_name, blob, reason) => {
    expect(() => decodeReferenceInvite(blob as string)).toThrow(
      expect.objectContaining({ code: 'invalid_invite', details: { reason } }),
    );
  });

  it('reads an absent cn or sig as "", as decode_invite does; such an invite does not verify', () => {
    const blob = (fields: Record<string, string>) =>
      `hn1:${Buffer.from(JSON.stringify(fields)).toString('base64url')}`;
    const short = { cid: root.nodeId, inv: root.nodeId, tee: alice.nodeId, iat: 'a', exp: 'b' };
    const invite = decodeReferenceInvite(blob(short));
    expect(invite).toEqual({
      community_id: root.nodeId,
      community_name: '',
      inviter_node_id: root.nodeId,
      invitee_node_id: alice.nodeId,
      issued_at: 'a',
      expires_at: 'b',
      signature: '',
    });
    expect(verifyReferenceInvite(invite)).toMatchObject({ valid: false, reason: 'invalid_signature' });
    expect(() => decodeReferenceInvite(blob({ ...short, cn: 5 } as never))).toThrow(
      expect.objectContaining({ code: 'invalid_invite', details: { reason: 'invalid_field' } }),
    );
  });

  it('refuses a UTF-8 byte order mark, as json.loads does', () => {
    const json = JSON.stringify({ cid: 'c', cn: 'n', inv: 'i', tee: 't', iat: 'a', exp: 'b', sig: 's' });
    const withBom = `hn1:${Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json)]).toString('base64url')}`;
    expect(() => decodeReferenceInvite(withBom)).toThrow(
      expect.objectContaining({ code: 'invalid_invite', details: { reason: 'invalid_json' } }),
    );
  });

  it('refuses a blob in which a key repeats (json.loads would keep the last one silently)', () => {
    const json = '{"cid":"c","cn":"n","inv":"i","tee":"t","tee":"u","iat":"a","exp":"b","sig":"s"}';
    const doubled = `hn1:${Buffer.from(json).toString('base64url')}`;
    expect(() => decodeReferenceInvite(doubled)).toThrow(
      expect.objectContaining({
        code: 'invalid_invite',
        details: { reason: 'invalid_json' },
        message: expect.stringContaining('duplicate key "tee"'),
      }),
    );
  });

  it('reports a signature by another key as invalid', () => {
    const invite = makeReferenceInvite(
      {
        community_id: root.nodeId,
        community_name: 'x',
        invitee_node_id: alice.nodeId,
        issued_at: 'a',
        expires_at: 'b',
      },
      root,
    );
    expect(verifyReferenceInvite({ ...invite, inviter_node_id: alice.nodeId })).toMatchObject({
      valid: false,
      reason: 'invalid_signature',
    });
  });
});
