import { describe, expect, it } from 'vitest';
import { canonicalJsonString } from '../canonical-json/canonical-json.js';
import type { Ed25519Backend } from './ed25519.js';
import { nobleBackend, nodeCryptoBackend } from './ed25519.js';
import { decodeTagged, loadHearthnetFixture } from './fixture-test-support.js';
import { signPayload, verifyPayload } from './payload-signature.js';

interface SignCase {
  readonly id: string;
  readonly operation: 'sign';
  readonly seed: unknown;
  readonly payload: unknown;
  readonly canonical: string;
  readonly signature: string;
  readonly signed: unknown;
}
interface VerifyCase {
  readonly id: string;
  readonly operation: 'verify';
  readonly payload: unknown;
  readonly public_key?: unknown;
  readonly node_id?: string;
  readonly lenient_encoding: boolean;
  readonly valid: boolean;
  readonly reason?: string;
  readonly lossy_numbers?: string[];
}

const fixture = loadHearthnetFixture<SignCase | VerifyCase>('signatures.json');
const backends: [string, Ed25519Backend][] = [
  ['node:crypto', nodeCryptoBackend()!],
  ['@noble/ed25519', nobleBackend],
];

describe('fixtures/hearthnet/signatures.json', () => {
  it('covers every verification outcome', () => {
    const outcomes = new Set(
      fixture.cases.filter((c): c is VerifyCase => c.operation === 'verify').map((c) => c.reason ?? 'valid'),
    );
    expect([...outcomes].sort()).toEqual(
      [
        'valid',
        'not_an_object',
        'missing_signature',
        'unsupported_algorithm',
        'malformed_signature',
        'invalid_public_key',
        'unencodable_payload',
        'signature_mismatch',
      ].sort(),
    );
  });

  describe.each(backends)('on %s', (_name, backend) => {
    for (const c of fixture.cases) {
      it(c.id, () => {
        if (c.operation === 'sign') {
          const signed = signPayload(
            decodeTagged(c.payload) as Record<string, unknown>,
            decodeTagged(c.seed) as Uint8Array,
            {
              backend,
            },
          );
          const { signature, ...unsigned } = signed;
          expect(canonicalJsonString(unsigned)).toBe(c.canonical);
          expect(signature).toBe(c.signature);
          expect(signed).toEqual(decodeTagged(c.signed));
          return;
        }
        const key = c.public_key === undefined ? c.node_id! : (decodeTagged(c.public_key) as Uint8Array);
        const verdict = verifyPayload(decodeTagged(c.payload), key, {
          lenientEncoding: c.lenient_encoding,
          backend,
        });
        expect(verdict.valid).toBe(c.valid);
        expect(verdict.valid ? undefined : verdict.reason).toBe(c.reason);
        expect(verdict.lossyNumbers).toEqual(c.lossy_numbers);
      });
    }
  });
});
