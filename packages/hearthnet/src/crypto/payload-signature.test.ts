import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../canonical-json/canonical-json.js';
import { base64UrlDecode, base64UrlEncode, hexDecode } from '../encoding.js';
import { ed25519Sign, ed25519Verify, nobleBackend } from './ed25519.js';
import { keyPairFromSeed, shortNodeId } from './key-pair.js';
import { signPayload, verifyPayload } from './payload-signature.js';

const keyPair = keyPairFromSeed(
  hexDecode('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'),
);
const otherKeyPair = keyPairFromSeed(new Uint8Array(32).fill(7));

/** Signs like the Python reference: canonical JSON of the payload as it is, no normalisation. */
function signLikeReference(payload: Record<string, unknown>): Record<string, unknown> {
  const signature = ed25519Sign(canonicalJson(payload), keyPair.secretKey);
  return { ...payload, signature: `ed25519:${base64UrlEncode(signature)}` };
}

describe('signPayload', () => {
  it('signs the canonical JSON of the payload without its top-level signature', () => {
    const payload = { b: 2, a: { signature: 'nested stays' }, signature: 'old, dropped' };
    const signed = signPayload(payload, keyPair);
    expect(signed.signature).toMatch(/^ed25519:[A-Za-z0-9_-]{86}$/);
    const signature = base64UrlDecode(signed.signature.slice('ed25519:'.length));
    const expectedMessage = new TextEncoder().encode('{"a":{"signature":"nested stays"},"b":2}');
    expect(ed25519Verify(signature, expectedMessage, keyPair.publicKey)).toBe(true);
    expect(signed).toEqual({ a: { signature: 'nested stays' }, b: 2, signature: signed.signature });
  });

  it('returns a new object and leaves the input alone', () => {
    const payload = { n: 0.1 + 0.2, list: [1, 2], signature: 'x' };
    const snapshot = structuredClone(payload);
    const signed = signPayload(payload, keyPair);
    expect(payload).toEqual(snapshot);
    expect(signed).not.toBe(payload);
    expect(signed.list).not.toBe(payload.list);
  });

  it('normalises numbers so what is sent is what is signed', () => {
    const signed = signPayload({ price: 0.1 + 0.2, big: 1234567.5, zero: -0 }, keyPair);
    expect(signed).toMatchObject({ price: 0.3, big: 1234570, zero: 0 });
    expect(Object.is(signed.zero, 0)).toBe(true);
    expect(verifyPayload(signed, keyPair.publicKey)).toEqual({ valid: true });
  });

  it('signs the same with a key pair, its seed, and either backend', () => {
    const payload = { hello: 'world' };
    const bySeed = signPayload(payload, keyPair.secretKey);
    expect(signPayload(payload, keyPair)).toEqual(bySeed);
    expect(signPayload(payload, keyPair, { backend: nobleBackend })).toEqual(bySeed);
  });

  it('survives JSON on the wire for any JSON object', () => {
    const payload = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 });
    fc.assert(
      fc.property(payload, (p) => {
        const received = JSON.parse(JSON.stringify(signPayload(p, keyPair)));
        expect(verifyPayload(received, keyPair.nodeId)).toEqual({ valid: true });
      }),
      { numRuns: 150 },
    );
  });

  it('throws the canonical JSON codes for payloads canonical JSON cannot encode', () => {
    const cases: [unknown, string][] = [
      [Number.NaN, 'non_finite_number'],
      [Infinity, 'non_finite_number'],
      [undefined, 'unsupported_type'],
      [new Date(0), 'unsupported_type'],
      ['\ud800', 'lone_surrogate'],
      [() => 1, 'unsupported_type'],
    ];
    for (const [value, code] of cases) {
      expect(() => signPayload({ value }, keyPair)).toThrow(
        expect.objectContaining({ code, path: '$.value' }),
      );
    }
    expect(() => signPayload(new Map() as unknown as Record<string, unknown>, keyPair)).toThrow(
      expect.objectContaining({ code: 'unsupported_type' }),
    );
  });

  it('throws invalid_key for a bad key and invalid_payload for a non-object', () => {
    expect(() => signPayload({}, new Uint8Array(31))).toThrow(
      expect.objectContaining({ code: 'invalid_key' }),
    );
    expect(() => signPayload({}, { ...keyPair, secretKey: new Uint8Array(64) })).toThrow(
      expect.objectContaining({ code: 'invalid_key' }),
    );
    expect(() => signPayload({}, null as unknown as Uint8Array)).toThrow(
      expect.objectContaining({ code: 'invalid_key' }),
    );
    for (const payload of [null, [], 'text', 3]) {
      expect(() => signPayload(payload as unknown as Record<string, unknown>, keyPair)).toThrow(
        expect.objectContaining({ code: 'invalid_payload' }),
      );
    }
  });

  it('keeps an own __proto__ key as data', () => {
    const payload = JSON.parse('{"__proto__":{"x":1},"a":1}') as Record<string, unknown>;
    const signed = signPayload(payload, keyPair);
    expect(Object.keys(signed)).toEqual(['__proto__', 'a', 'signature']);
    expect(Object.getPrototypeOf(signed)).toBe(Object.prototype);
    expect(verifyPayload(JSON.parse(JSON.stringify(signed)), keyPair.publicKey)).toEqual({ valid: true });
  });
});

describe('verifyPayload', () => {
  const signed = signPayload({ type: 'hello', n: 1, nested: { signature: 'kept' } }, keyPair);

  it('accepts with a public key or a node id, on either backend', () => {
    expect(verifyPayload(signed, keyPair.publicKey)).toEqual({ valid: true });
    expect(verifyPayload(signed, keyPair.nodeId)).toEqual({ valid: true });
    expect(verifyPayload(signed, keyPair.nodeId, { backend: nobleBackend })).toEqual({ valid: true });
  });

  it('reports each failure with its reason, never throwing', () => {
    const reasonOf = (payload: unknown, key: Uint8Array | string = keyPair.publicKey): string | undefined => {
      const verdict = verifyPayload(payload, key);
      return verdict.valid ? undefined : verdict.reason;
    };
    const { signature, ...unsigned } = signed;
    expect(reasonOf(null)).toBe('not_an_object');
    expect(reasonOf([signed])).toBe('not_an_object');
    expect(reasonOf('{}')).toBe('not_an_object');
    expect(reasonOf(signed, keyPair.publicKey.subarray(1))).toBe('invalid_public_key');
    expect(reasonOf(signed, shortNodeId(keyPair.publicKey))).toBe('invalid_public_key');
    expect(reasonOf(signed, 42 as unknown as string)).toBe('invalid_public_key');
    expect(reasonOf(unsigned)).toBe('missing_signature');
    expect(reasonOf({ ...unsigned, signature: undefined })).toBe('missing_signature');
    expect(reasonOf({ ...unsigned, signature: `rsa-pss:${signature.slice(8)}` })).toBe(
      'unsupported_algorithm',
    );
    expect(reasonOf({ ...unsigned, signature: signature.slice(8) })).toBe('malformed_signature');
    expect(reasonOf({ ...unsigned, signature: 42 })).toBe('malformed_signature');
    expect(reasonOf({ ...unsigned, signature: '' })).toBe('malformed_signature');
    expect(reasonOf({ ...unsigned, signature: `${signature}=` })).toBe('malformed_signature');
    expect(reasonOf({ ...unsigned, signature: signature.slice(0, -4) })).toBe('malformed_signature');
    expect(reasonOf({ ...signed, extra: Number.NaN })).toBe('unencodable_payload');
    expect(reasonOf({ ...signed, n: 2 })).toBe('signature_mismatch');
    expect(reasonOf({ ...signed, nested: { signature: 'changed' } })).toBe('signature_mismatch');
    expect(reasonOf(signed, otherKeyPair.publicKey)).toBe('signature_mismatch');
  });

  it('explains a failure in detail', () => {
    const verdict = verifyPayload({ ...signed, signature: 'ed25519:@@' }, keyPair.publicKey);
    expect(verdict).toMatchObject({
      valid: false,
      reason: 'malformed_signature',
      detail: expect.stringContaining('@'),
    });
  });

  it('verifies a reference signature over lossy numbers and reports them', () => {
    const fromReference = signLikeReference({ price: 0.30000000000000004, big: 1234567.5, ok: 0.5 });
    expect(verifyPayload(fromReference, keyPair.publicKey)).toEqual({
      valid: true,
      lossyNumbers: ['$.big', '$.price'],
    });
    const tampered = { ...fromReference, ok: 0.25 };
    expect(verifyPayload(tampered, keyPair.publicKey)).toMatchObject({
      valid: false,
      reason: 'signature_mismatch',
      lossyNumbers: ['$.big', '$.price'],
    });
  });

  it('accepts the reference encodings of a signature only when lenient', () => {
    const raw = base64UrlDecode(signed.signature.slice(8));
    const variants = [
      `ed25519:${Buffer.from(raw).toString('base64')}`, // standard alphabet, padded
      `${signed.signature}==`,
      `${signed.signature.slice(0, 30)}....${signed.signature.slice(30)}`, // four stray characters
    ];
    for (const signature of variants) {
      const payload = { ...signed, signature };
      expect(verifyPayload(payload, keyPair.publicKey)).toMatchObject({
        valid: false,
        reason: 'malformed_signature',
      });
      expect(verifyPayload(payload, keyPair.publicKey, { lenientEncoding: true })).toEqual({ valid: true });
    }
    const twoStray = {
      ...signed,
      signature: `${signed.signature.slice(0, 30)}..${signed.signature.slice(30)}`,
    };
    expect(verifyPayload(twoStray, keyPair.publicKey, { lenientEncoding: true })).toMatchObject({
      reason: 'malformed_signature',
    });
  });

  it('parses a node id leniently only when asked', () => {
    const padded = `${keyPair.nodeId}=`;
    expect(verifyPayload(signed, padded)).toMatchObject({ valid: false, reason: 'invalid_public_key' });
    expect(verifyPayload(signed, padded, { lenientEncoding: true })).toEqual({ valid: true });
  });

  it('refuses a malleated signature (S + L) as libsodium does', () => {
    const raw = base64UrlDecode(signed.signature.slice(8));
    let s = 0n;
    for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(raw[i]!);
    s += 2n ** 252n + 27742317777372353535851937790883648493n;
    const malleated = raw.slice();
    for (let i = 32; i < 64; i++, s >>= 8n) malleated[i] = Number(s & 255n);
    expect(s).toBe(0n); // still fits 32 bytes
    const payload = { ...signed, signature: `ed25519:${base64UrlEncode(malleated)}` };
    expect(verifyPayload(payload, keyPair.publicKey)).toMatchObject({
      valid: false,
      reason: 'signature_mismatch',
    });
  });
});
