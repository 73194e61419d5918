import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readVectorJson } from '../test/vectors.js';
import {
  blake3,
  blake3Hasher,
  blake3Hex,
  blobCid,
  CHUNK_SIZE_BYTES,
  chunkBlob,
  contentId,
  type Hasher,
  parseContentId,
  sha256Hasher,
  shortContentId,
} from './hashing.js';

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

function patternBytes(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => i % 251);
}

describe('chunkBlob', () => {
  it('uses 256 KiB chunks by default', () => {
    expect(CHUNK_SIZE_BYTES).toBe(262144);
  });

  it.each([
    [0, [0]],
    [1, [1]],
    [262143, [262143]],
    [262144, [262144]],
    [262145, [262144, 1]],
    [3 * 262144 + 7, [262144, 262144, 262144, 7]],
  ])('cuts %i bytes into chunks of sizes %j', (length, sizes) => {
    const data = patternBytes(length);
    const blob = chunkBlob(data);
    expect(blob.size_bytes).toBe(length);
    expect(blob.chunks.map((c) => c.size_bytes)).toEqual(sizes);
    expect(blob.chunks.map((c) => c.index)).toEqual(sizes.map((_, i) => i));
    blob.chunks.forEach((chunk, i) => {
      const start = i * CHUNK_SIZE_BYTES;
      expect(chunk.cid).toBe(`blake3:${blake3Hex(data.slice(start, start + chunk.size_bytes))}`);
    });
    expect(blob.cid).toBe(
      `blake3:${blake3Hex(
        blob.chunks
          .map((c) => c.cid)
          .sort()
          .join('\n'),
      )}`,
    );
  });

  it('turns an empty blob into exactly one empty chunk', () => {
    const emptyCid = contentId(new Uint8Array(0));
    expect(chunkBlob(new Uint8Array(0))).toEqual({
      chunks: [{ index: 0, cid: emptyCid, size_bytes: 0 }],
      cid: contentId(emptyCid),
      size_bytes: 0,
    });
  });

  it('honours a custom chunk size and hasher', () => {
    const data = patternBytes(10);
    const blob = chunkBlob(data, { chunkSizeBytes: 4, hasher: sha256Hasher });
    expect(blob.chunks).toEqual([
      { index: 0, cid: contentId(data.slice(0, 4), sha256Hasher), size_bytes: 4 },
      { index: 1, cid: contentId(data.slice(4, 8), sha256Hasher), size_bytes: 4 },
      { index: 2, cid: contentId(data.slice(8), sha256Hasher), size_bytes: 2 },
    ]);
    expect(blob.cid).toBe(
      blobCid(
        blob.chunks.map((c) => c.cid),
        sha256Hasher,
      ),
    );
    expect(blob.cid.startsWith('sha256:')).toBe(true);
  });

  it('hashes every chunk and the chunk list with an injected hasher', () => {
    const inputs: string[] = [];
    const recordingHasher: Hasher = {
      algorithm: 'recording',
      digest: (data) => {
        inputs.push(new TextDecoder().decode(data));
        return new Uint8Array(32).fill(inputs.length);
      },
    };
    const blob = chunkBlob(new TextEncoder().encode('abcde'), { chunkSizeBytes: 2, hasher: recordingHasher });
    expect(inputs.slice(0, 3)).toEqual(['ab', 'cd', 'e']);
    expect(inputs[3]).toBe(blob.chunks.map((c) => c.cid).join('\n'));
    expect(blob.cid).toBe(`recording:${'04'.repeat(32)}`);
  });

  it('keeps sizes and concatenated chunks equal to the blob for any size and chunk size', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 200 }),
        fc.integer({ min: 1, max: 64 }),
        (data, chunkSizeBytes) => {
          const { chunks, size_bytes } = chunkBlob(data, { chunkSizeBytes });
          expect(size_bytes).toBe(data.length);
          expect(chunks.reduce((sum, c) => sum + c.size_bytes, 0)).toBe(data.length);
          expect(chunks).toHaveLength(Math.max(1, Math.ceil(data.length / chunkSizeBytes)));
          expect(chunks.slice(0, -1).every((c) => c.size_bytes === chunkSizeBytes)).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '4'])(
    'rejects chunk size %p',
    (chunkSizeBytes) => {
      expect(() => chunkBlob(new Uint8Array(4), { chunkSizeBytes: chunkSizeBytes as number })).toThrow(
        expect.objectContaining({ code: 'invalid_chunk_size' }),
      );
    },
  );

  it('rejects a blob that is not bytes', () => {
    expect(() => chunkBlob('abc' as unknown as Uint8Array)).toThrow(
      expect.objectContaining({ code: 'invalid_hash_input' }),
    );
  });
});

describe('blobCid', () => {
  const cids = ['x', 'y', 'z', 'w'].map((s) => contentId(s));

  it('does not depend on chunk order', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(cids, { minLength: 4, maxLength: 4 }), (shuffled) => {
        expect(blobCid(shuffled)).toBe(blobCid(cids));
      }),
      { numRuns: 30 },
    );
  });

  it('hashes the sorted ids joined by newlines, without a trailing newline', () => {
    const sorted = [...cids].sort();
    expect(blobCid(cids)).toBe(contentId(sorted.join('\n')));
    expect(blobCid(cids)).not.toBe(contentId(`${sorted.join('\n')}\n`));
    expect(blobCid(cids, sha256Hasher)).toBe(contentId(sorted.join('\n'), sha256Hasher));
  });

  it('changes when a chunk id changes or repeats', () => {
    expect(blobCid([cids[0]!, cids[1]!])).not.toBe(blobCid([cids[0]!, cids[2]!]));
    expect(blobCid([cids[0]!, cids[0]!])).not.toBe(blobCid([cids[0]!]));
  });

  it('rejects entries that are not content ids', () => {
    expect(() => blobCid([cids[0]!, 'blake3:nope'])).toThrow(
      expect.objectContaining({ code: 'invalid_content_id' }),
    );
    expect(() => blobCid([cids[0]!, 7 as unknown as string])).toThrow(
      expect.objectContaining({ code: 'invalid_content_id' }),
    );
    expect(() => blobCid([cids[0]!.slice(7)])).toThrow(
      expect.objectContaining({ code: 'invalid_content_id' }),
    );
    expect(() => blobCid('blake3:abc' as unknown as string[])).toThrow(
      expect.objectContaining({ code: 'invalid_hash_input' }),
    );
  });
});

const hex64 = 'ea8f163db38682925e4491c5e58d4bb3506ef8c14eb78a86e908c5624a67200f';

describe('sha256Hasher', () => {
  it('agrees with node:crypto SHA-256', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (data) => {
        const expected = createHash('sha256').update(data).digest('hex');
        expect(Buffer.from(sha256Hasher.digest(data)).toString('hex')).toBe(expected);
        expect(contentId(data, sha256Hasher)).toBe(`sha256:${expected}`);
      }),
      { numRuns: 200 },
    );
  });

  it('names itself sha256 and blake3Hasher names itself blake3', () => {
    expect(sha256Hasher.algorithm).toBe('sha256');
    expect(blake3Hasher.algorithm).toBe('blake3');
    expect(Object.isFrozen(blake3Hasher) && Object.isFrozen(sha256Hasher)).toBe(true);
  });
});

describe('contentId', () => {
  it('is blake3: plus the lowercase hex digest by default', () => {
    expect(blake3Hex('hello')).toBe(hex64);
    expect(contentId('hello')).toBe(`blake3:${hex64}`);
    expect(contentId(new TextEncoder().encode('hello'))).toBe(`blake3:${hex64}`);
  });

  it('uses an injected hasher and its algorithm name', () => {
    const seen: Uint8Array[] = [];
    const constantHasher: Hasher = {
      algorithm: 'test-hash',
      digest: (data) => {
        seen.push(data);
        return new Uint8Array(32).fill(0xab);
      },
    };
    expect(contentId('hi', constantHasher)).toBe(`test-hash:${'ab'.repeat(32)}`);
    expect(seen).toEqual([new Uint8Array([0x68, 0x69])]);
  });

  it('rejects a hasher with a malformed name or a digest that is not 32 bytes', () => {
    const digest32 = () => new Uint8Array(32);
    for (const hasher of [
      { algorithm: 'BLAKE3', digest: digest32 },
      { algorithm: 'a:b', digest: digest32 },
      { algorithm: '', digest: digest32 },
      { algorithm: 'sha512', digest: () => new Uint8Array(64) },
      { algorithm: 'x', digest: () => 'nope' as unknown as Uint8Array },
    ]) {
      expect(() => contentId('x', hasher)).toThrow(expect.objectContaining({ code: 'invalid_hasher' }));
    }
  });
});

describe('parseContentId', () => {
  it('parses prefixed blake3 and sha256 ids and bare hex', () => {
    expect(parseContentId(`blake3:${hex64}`)).toEqual({ algorithm: 'blake3', hex: hex64, form: 'prefixed' });
    expect(parseContentId(`sha256:${hex64}`)).toEqual({ algorithm: 'sha256', hex: hex64, form: 'prefixed' });
    expect(parseContentId(hex64)).toEqual({ algorithm: 'blake3', hex: hex64, form: 'bare' });
  });

  it('round-trips every id contentId makes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.boolean(), (data, useSha) => {
        const hasher = useSha ? sha256Hasher : blake3Hasher;
        const cid = contentId(data, hasher);
        const parsed = parseContentId(cid);
        expect(`${parsed.algorithm}:${parsed.hex}`).toBe(cid);
        expect(parsed.form).toBe('prefixed');
      }),
      { numRuns: 100 },
    );
  });

  it.each([
    ['empty', ''],
    ['uppercase hex', `blake3:${hex64.toUpperCase()}`],
    ['bare uppercase hex', hex64.toUpperCase()],
    ['short digest', `blake3:${hex64.slice(1)}`],
    ['long digest', `blake3:${hex64}0`],
    ['unknown algorithm', `sha512:${hex64}`],
    ['uppercase algorithm', `BLAKE3:${hex64}`],
    ['empty algorithm', `:${hex64}`],
    ['non-hex digit', `blake3:${hex64.slice(0, 63)}g`],
    ['surrounding whitespace', ` blake3:${hex64}`],
    ['trailing newline', `blake3:${hex64}\n`],
    ['double prefix', `blake3:blake3:${hex64}`],
    ['bare 63 hex', hex64.slice(1)],
  ])('rejects %s', (_label, cid) => {
    expect(() => parseContentId(cid)).toThrow(expect.objectContaining({ code: 'invalid_content_id' }));
  });

  it('rejects non-strings with the typed error, not a TypeError', () => {
    for (const bad of [undefined, null, 42, {}, [hex64]]) {
      expect(() => parseContentId(bad as unknown as string)).toThrow(
        expect.objectContaining({
          name: 'HearthNetLocalError',
          code: 'invalid_content_id',
          details: { value: bad },
        }),
      );
    }
  });
});

describe('shortContentId', () => {
  it('keeps the prefix and the first 16 hex characters', () => {
    expect(shortContentId(`blake3:${hex64}`)).toBe('blake3:ea8f163db3868292');
    expect(shortContentId(`sha256:${hex64}`)).toBe('sha256:ea8f163db3868292');
  });

  it('shows a bare id with its blake3 prefix', () => {
    expect(shortContentId(hex64)).toBe('blake3:ea8f163db3868292');
  });

  it('rejects what is not a content id', () => {
    expect(() => shortContentId('blake3:abc')).toThrow(
      expect.objectContaining({ code: 'invalid_content_id' }),
    );
  });
});

describe('the default BLAKE3 on Node', () => {
  it('is the native binding here, and gives the digests of @noble/hashes for any input', () => {
    // The binding is loaded by the first digest (not at import) and stays in Node's module cache.
    blake3Hasher.digest(new Uint8Array(1));
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    expect(loaded.some((path) => path.includes('@napi-rs/blake-hash'))).toBe(true);
    const sizes = [0, 1, 63, 64, 65, 1023, 1024, 1025, 2048, 4097, 262_144, 262_145];
    for (const size of sizes) {
      const data = Uint8Array.from({ length: size }, (_, i) => (i * 7 + size) & 255);
      expect(Buffer.from(blake3Hasher.digest(data)).toString('hex'), `${size} B`).toBe(
        Buffer.from(nobleBlake3(data)).toString('hex'),
      );
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), fc.nat(16), (bytes, offset) => {
        // A view into a larger buffer hashes only its own bytes.
        const view = new Uint8Array(bytes.length + offset + 3).subarray(offset, offset + bytes.length);
        view.set(bytes);
        expect(Array.from(blake3Hasher.digest(view))).toEqual(Array.from(nobleBlake3(bytes)));
      }),
    );
  });
});
