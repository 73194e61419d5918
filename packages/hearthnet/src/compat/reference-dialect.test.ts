import { describe, expect, it } from 'vitest';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import {
  referenceEvents,
  referenceInvites,
  referenceJson,
  referenceManifests,
  referenceSnapshots,
} from './reference-dialect.js';

const author = keyPairFromSeed(new Uint8Array(32).fill(7));

describe('the reference dialect objects', () => {
  it('read, sign, verify and convert a reference event', () => {
    const signed = referenceEvents.sign(
      {
        schema_version: 1,
        event_id: referenceEvents.idFromUlid('01J0000000000000000000000A'),
        event_type: 'chat.message.sent',
        community_id: author.nodeId,
        author: author.nodeId,
        lamport: 3,
        issued_at: '2026-05-26T08:14:22.281734Z',
        payload: { client_id: 'c-1', to: author.nodeId, body: 'hi', score: 1.5 },
      },
      author,
    );
    const text = new TextDecoder().decode(referenceEvents.signingBytes(signed));
    expect(referenceJson.parse(text)).toMatchObject({ lamport: 3 });
    const verdict = referenceEvents.verify(referenceJson.parse(JSON.stringify(signed)));
    expect(verdict).toMatchObject({ valid: true, signed: true });
    if (!verdict.valid) return;
    const contract = referenceEvents.toContract(verdict.event);
    expect(contract.wall_clock).toBe(referenceEvents.timestampToContract(signed.issued_at));
    expect(referenceEvents.idToUlid(signed.event_id)).toBe(contract.event_id);
    expect(referenceEvents.fromContract(contract).issued_at).toBe(
      referenceEvents.timestampFromContract(contract.wall_clock),
    );
  });

  it('sign and verify snapshots and invites, and frame SSE', () => {
    const snapshot = referenceSnapshots.sign(
      {
        schema_version: 1,
        community_id: author.nodeId,
        at_lamport: 4,
        views: { membership: {} },
        issued_at: '2026-05-26T08:14:22.000000Z',
        author: author.nodeId,
      },
      author,
    );
    expect(referenceSnapshots.verify(snapshot)).toMatchObject({ valid: true, signed: true });
    expect(referenceSnapshots.signingBytes(snapshot)).toBeInstanceOf(Uint8Array);

    const invite = referenceInvites.make(
      {
        community_id: author.nodeId,
        community_name: 'garage',
        invitee_node_id: author.nodeId,
        issued_at: '2026-05-26T08:14:22Z',
        expires_at: '2026-05-27T08:14:22Z',
      },
      author,
    );
    const decoded = referenceInvites.decode(referenceInvites.encode(invite));
    expect(referenceInvites.verify(decoded)).toMatchObject({ valid: true });

    expect(referenceJson.encodeSseFrame({ done: true }, 'done')).toBe('event: done\ndata: {"done":true}\n\n');
  });

  it('hold the manifest checks', () => {
    expect(referenceManifests.verifyNode({}, { now: 0 })).toMatchObject({ valid: false });
    expect(referenceManifests.verifyCommunity({}, { now: 0 })).toMatchObject({ valid: false });
    expect(() => referenceManifests.parseServed({})).toThrow(
      expect.objectContaining({ code: 'malformed_reference_manifest' }),
    );
    expect(referenceManifests.cid({ size_bytes: 0, chunk_size_bytes: 262144, chunks: [] })).toMatch(
      /^blake3:/,
    );
    expect(typeof referenceManifests.toContract).toBe('function');
  });
});
