import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64UrlEncode, hexDecode } from '../encoding.js';
import type { HearthNetLocalError, InvalidNodeIdReason } from '../errors.js';
import { nodeIdFromPublicKey, parseNodeId, shortNodeId } from './key-pair.js';

const publicKey = hexDecode('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'); // RFC 8032 TEST 1
const nodeId = 'ed25519:11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo';
const key = fc.uint8Array({ minLength: 32, maxLength: 32 });

function reasonOf(run: () => unknown): InvalidNodeIdReason | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toMatchObject({ name: 'HearthNetLocalError', code: 'invalid_node_id' });
    return (error as HearthNetLocalError).details?.reason as InvalidNodeIdReason | undefined;
  }
  return undefined;
}

describe('nodeIdFromPublicKey / parseNodeId', () => {
  it('writes ed25519: and unpadded base64url of the key', () => {
    expect(nodeIdFromPublicKey(publicKey)).toBe(nodeId);
    expect(nodeId).toHaveLength(51);
  });

  it('round-trips every key, strictly and leniently', () => {
    fc.assert(
      fc.property(key, (k) => {
        const id = nodeIdFromPublicKey(k);
        expect(parseNodeId(id)).toEqual(k);
        expect(parseNodeId(id, { lenient: true })).toEqual(k);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => nodeIdFromPublicKey(publicKey.subarray(1))).toThrow(
      expect.objectContaining({ code: 'invalid_key' }),
    );
  });

  it('names why an id is refused', () => {
    expect(reasonOf(() => parseNodeId(42 as unknown as string))).toBe('not_a_string');
    expect(reasonOf(() => parseNodeId(nodeId.slice(8)))).toBe('missing_prefix');
    expect(reasonOf(() => parseNodeId(shortNodeId(publicKey)))).toBe('short_form');
    expect(reasonOf(() => parseNodeId(`${nodeId}=`))).toBe('invalid_encoding');
    expect(reasonOf(() => parseNodeId(`ed25519:${base64UrlEncode(new Uint8Array(31))}`))).toBe(
      'wrong_length',
    );
  });

  it('accepts padding and the standard alphabet only when lenient', () => {
    const standard = `ed25519:${Buffer.from(publicKey).toString('base64')}`; // padded, may hold + and /
    expect(reasonOf(() => parseNodeId(standard))).toBe('invalid_encoding');
    expect(parseNodeId(standard, { lenient: true })).toEqual(publicKey);
    expect(parseNodeId(`${nodeId}=`, { lenient: true })).toEqual(publicKey);
  });

  it('keeps the cause of an encoding failure', () => {
    try {
      parseNodeId('ed25519:@@@@');
      expect.unreachable();
    } catch (error) {
      expect((error as Error).cause).toBeInstanceOf(Error);
    }
  });
});

describe('shortNodeId', () => {
  it('groups padded base32 of the first 8 key bytes by 4', () => {
    expect(shortNodeId(publicKey)).toBe('ed25519:25NJ-QAMC-WEFL-O===');
    expect(shortNodeId(nodeId)).toBe('ed25519:25NJ-QAMC-WEFL-O===');
  });

  it('always has three full groups and one character plus ===', () => {
    fc.assert(
      fc.property(key, (k) => {
        expect(shortNodeId(k)).toMatch(/^ed25519:[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]===$/);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a bad key or id with a typed error', () => {
    expect(() => shortNodeId(new Uint8Array(8))).toThrow(expect.objectContaining({ code: 'invalid_key' }));
    expect(() => shortNodeId('ed25519:nope')).toThrow(expect.objectContaining({ code: 'invalid_node_id' }));
  });
});
