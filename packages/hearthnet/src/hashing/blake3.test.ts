import { describe, expect, it } from 'vitest';
import { readVectorJson } from '../../test/vectors.js';
import { blake3, blake3Hex } from './blake3.js';

interface Blake3Vector {
  input_len: number;
  hash: string;
}

// Official BLAKE3 vectors (hash mode; each output is 131 bytes of XOF, the default hash is its first 32).
const vectors = readVectorJson<{ cases: Blake3Vector[] }>('blake3/test_vectors.json');

function vectorInput(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => i % 251);
}

describe('blake3', () => {
  it('has the 35 official vectors to check', () => {
    expect(vectors.cases).toHaveLength(35);
  });

  it.each(vectors.cases.map((c) => [c.input_len, c.hash.slice(0, 64)] as const))(
    'matches the official vector for %i input bytes',
    (length, expected) => {
      expect(blake3Hex(vectorInput(length))).toBe(expected);
      expect(Buffer.from(blake3(vectorInput(length))).toString('hex')).toBe(expected);
    },
  );

  it('hashes a string as its UTF-8 bytes', () => {
    const text = 'grüße 😀 ～';
    expect(blake3Hex(text)).toBe(blake3Hex(new TextEncoder().encode(text)));
    expect(blake3Hex('')).toBe(vectors.cases[0]!.hash.slice(0, 64));
  });

  it('hashes only the bytes a subarray view covers', () => {
    const backing = vectorInput(1100);
    expect(blake3Hex(backing.subarray(10, 1034))).toBe(blake3Hex(backing.slice(10, 1034)));
  });

  it('rejects strings with a lone surrogate instead of hashing U+FFFD', () => {
    for (const bad of ['\uD800', 'a\uDC00b', 'x\uD83D']) {
      expect(() => blake3(bad)).toThrow(expect.objectContaining({ code: 'invalid_hash_input' }));
    }
    expect(blake3Hex('\uD83D\uDE00')).toBe(blake3Hex('😀'));
  });

  it('rejects input that is neither bytes nor a string with a typed error', () => {
    for (const bad of [undefined, null, 42, [1, 2], new ArrayBuffer(4), { length: 0 }]) {
      expect(() => blake3(bad as unknown as string)).toThrow(
        expect.objectContaining({ name: 'HearthNetLocalError', code: 'invalid_hash_input' }),
      );
    }
  });
});
