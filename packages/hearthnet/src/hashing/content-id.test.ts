import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blake3Hex } from './blake3.js';
import { contentId, parseContentId, shortContentId } from './content-id.js';
import { blake3Hasher, type Hasher, sha256Hasher } from './hasher.js';

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
