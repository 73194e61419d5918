import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentHash, contentIdentity, VERSION_LENGTH, versionFromHash } from './skill-store.js';

/** The reference stores' hash: Node's SHA-256 over the string as UTF-8. */
const referenceHash = (body: string) => createHash('sha256').update(body, 'utf8').digest('hex');

describe('contentHash', () => {
  it('is the SHA-256 of the UTF-8 body in lowercase hex (FIPS 180-2 known answers)', () => {
    expect(contentHash('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(contentHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('covers the persisted status line, so a signed Approved body hashes apart from a bare one', () => {
    const body = (status: string) => `# Skill: triage\n# Status: ${status}\n\nSay hi.\n`;
    const hashes = new Set(
      ['Draft', 'Approved', 'Approved v3:c2ln', 'approved'].map((s) => contentHash(body(s))),
    );
    expect(hashes.size).toBe(4);
  });

  it('hashes the bytes as given: no newline, BOM or Unicode normalisation', () => {
    expect(contentHash('a\r\nb')).not.toBe(contentHash('a\nb'));
    expect(contentHash('a\n')).not.toBe(contentHash('a'));
    expect(contentHash('\ufeffa')).not.toBe(contentHash('a'));
    expect(contentHash('caf\u00e9')).not.toBe(contentHash('cafe\u0301'));
  });

  it('encodes a lone surrogate as U+FFFD, the bytes a UTF-8 file or database would hold', () => {
    expect(contentHash('a\ud800b')).toBe(contentHash('a\ufffdb'));
    expect(contentHash('a\ud800b')).toBe(referenceHash('a\ud800b'));
  });

  it('refuses a non-string body with a typed error', () => {
    for (const body of [undefined, null, 42, new Uint8Array(1), ['a']]) {
      expect(() => contentHash(body as unknown as string)).toThrow(
        expect.objectContaining({ code: 'storage_validation' }),
      );
    }
  });

  it('equals the reference hashing for any string, lone surrogates included (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (body) => {
        expect(contentHash(body)).toBe(referenceHash(body));
      }),
      { numRuns: 150 },
    );
  });

  it('is deterministic and 64 lowercase hex digits (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (body) => {
        const hash = contentHash(body);
        expect(hash).toMatch(/^[0-9a-f]{64}$/);
        expect(contentHash(`${body}`)).toBe(hash);
      }),
      { numRuns: 200 },
    );
  });
});

describe('versionFromHash', () => {
  it('is the first 12 hex digits of the hash', () => {
    expect(VERSION_LENGTH).toBe(12);
    expect(versionFromHash(contentHash('abc'))).toBe('ba7816bf8f01');
  });

  it('refuses anything but 64 lowercase hex digits', () => {
    const hash = contentHash('abc');
    for (const bad of [hash.toUpperCase(), hash.slice(0, 63), `${hash}0`, `g${hash.slice(1)}`, '', 7, null]) {
      expect(() => versionFromHash(bad as string)).toThrow(
        expect.objectContaining({ code: 'storage_validation', path: 'hash' }),
      );
    }
  });

  it('is a prefix of the content hash for any body (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (body) => {
        const hash = contentHash(body);
        const version = versionFromHash(hash);
        expect(version).toHaveLength(12);
        expect(hash.startsWith(version)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('contentIdentity', () => {
  it('returns both fields a store records for a body', () => {
    expect(contentIdentity('abc')).toEqual({
      content_hash: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      version: 'ba7816bf8f01',
    });
  });
});
