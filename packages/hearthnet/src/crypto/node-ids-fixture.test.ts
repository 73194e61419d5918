import { describe, expect, it } from 'vitest';
import { decodeTagged, loadHearthnetFixture } from './fixture-test-support.js';
import { nodeIdFromPublicKey, parseNodeId, shortNodeId } from './key-pair.js';

interface NodeIdCase {
  readonly id: string;
  readonly operation: 'from_public_key' | 'parse';
  readonly public_key?: unknown;
  readonly node_id: string;
  readonly short_node_id?: string;
  readonly lenient?: boolean;
  readonly error?: string;
  readonly reason?: string;
}

const fixture = loadHearthnetFixture<NodeIdCase>('node-ids.json');

describe('fixtures/hearthnet/node-ids.json', () => {
  it('has both operations, and accepting and refusing parse cases', () => {
    expect(new Set(fixture.cases.map((c) => c.operation))).toEqual(new Set(['from_public_key', 'parse']));
    expect(fixture.cases.some((c) => c.operation === 'parse' && c.error !== undefined)).toBe(true);
    expect(fixture.cases.some((c) => c.operation === 'parse' && c.error === undefined)).toBe(true);
  });

  for (const c of fixture.cases) {
    it(c.id, () => {
      if (c.operation === 'from_public_key') {
        const publicKey = decodeTagged(c.public_key) as Uint8Array;
        expect(nodeIdFromPublicKey(publicKey)).toBe(c.node_id);
        expect(shortNodeId(publicKey)).toBe(c.short_node_id);
        expect(shortNodeId(c.node_id)).toBe(c.short_node_id);
        expect(parseNodeId(c.node_id)).toEqual(publicKey);
        return;
      }
      const parse = () => parseNodeId(c.node_id, { lenient: c.lenient === true });
      if (c.error === undefined) {
        expect(parse()).toEqual(decodeTagged(c.public_key));
      } else {
        expect(parse).toThrow(expect.objectContaining({ code: 'invalid_node_id' }));
        expect(parse).toThrow(
          expect.objectContaining({ code: c.error, details: expect.objectContaining({ reason: c.reason }) }),
        );
      }
    });
  }
});
