import { describe, expect, it } from 'vitest';
import { readVectorJson } from '../../test/vectors.js';
import { hexDecode, hexEncode } from '../encoding.js';
import type { Ed25519Backend } from './ed25519.js';
import {
  ed25519PublicKeyFromSeed,
  ed25519Sign,
  ed25519Verify,
  nobleBackend,
  nodeCryptoBackend,
} from './ed25519.js';

// Public vectors (RFC 8032, Wycheproof, ed25519-speccheck): see test/vectors/README.md.

interface Rfc8032Vector {
  name: string;
  secret_key_hex: string;
  public_key_hex: string;
  message_hex: string;
  signature_hex: string;
}
interface WycheproofFile {
  numberOfTests: number;
  testGroups: {
    publicKey: { pk: string };
    tests: { tcId: number; msg: string; sig: string; result: string }[];
  }[];
}
interface SpeccheckCase {
  message: string;
  pub_key: string;
  signature: string;
}

const rfc8032 = readVectorJson('rfc8032/ed25519.json') as Rfc8032Vector[];
const wycheproof = readVectorJson('wycheproof/ed25519_test.json') as WycheproofFile;
const wycheproofTests = wycheproof.testGroups.flatMap((g) =>
  g.tests.map((t) => ({ ...t, pk: g.publicKey.pk })),
);
const speccheckCases = readVectorJson('ed25519-speccheck/cases.json') as SpeccheckCase[];
const speccheckDecisions = readVectorJson('ed25519-speccheck/decisions.json') as {
  case: number;
  libsodium: boolean;
}[];

const backends: [string, Ed25519Backend][] = [
  ['node:crypto', nodeCryptoBackend()!],
  ['@noble/ed25519', nobleBackend],
];

describe.each(backends)('Ed25519 public vectors on %s', (_name, backend) => {
  it('is available', () => {
    expect(backend).toBeDefined();
  });

  it.each(rfc8032.map((v) => [v.name, v] as const))(
    'RFC 8032 %s: public key, signature, verification',
    (_n, v) => {
      const seed = hexDecode(v.secret_key_hex);
      const message = hexDecode(v.message_hex);
      expect(hexEncode(ed25519PublicKeyFromSeed(seed, { backend }))).toBe(v.public_key_hex);
      expect(hexEncode(ed25519Sign(message, seed, { backend }))).toBe(v.signature_hex);
      expect(
        ed25519Verify(hexDecode(v.signature_hex), message, hexDecode(v.public_key_hex), { backend }),
      ).toBe(true);
    },
  );

  it('gives the Wycheproof verdict on all 151 tests', () => {
    expect(wycheproofTests).toHaveLength(wycheproof.numberOfTests);
    expect(wycheproofTests).toHaveLength(151);
    const wrong = wycheproofTests
      .filter(
        (t) =>
          ed25519Verify(hexDecode(t.sig), hexDecode(t.msg), hexDecode(t.pk), { backend }) !==
          (t.result === 'valid'),
      )
      .map((t) => t.tcId);
    expect(wrong).toEqual([]);
  });

  it("gives libsodium's verdict on the 12 speccheck cases (accepts only case 3)", () => {
    const verdicts = speccheckCases.map((c) =>
      ed25519Verify(hexDecode(c.signature), hexDecode(c.message), hexDecode(c.pub_key), { backend }),
    );
    expect(verdicts).toEqual(speccheckDecisions.map((d) => d.libsodium));
    expect(verdicts.filter(Boolean)).toHaveLength(1);
  });
});
