import {
  type Ed25519Backend,
  nobleBackend,
  nodeCryptoBackend,
  nodeIdFromPublicKey,
  parseNodeId,
  shortNodeId,
  signPayload,
  verifyPayload,
} from '@agentwire/hearthnet';
import { afterAll, describe, expect, it } from 'vitest';
import signaturesFixture from '../../../fixtures/hearthnet/signatures.json' with { type: 'json' };
import { readFixtureFile } from '../../fixtures/fixture-file.js';
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { type SignatureImplementation, signatureSuite } from './signatures.js';

/** Every function `@agentwire/hearthnet` offers the suite, signing and verifying on `backend`. */
function hearthnetOn(backend: Ed25519Backend): SignatureImplementation {
  return {
    sign: (payload, seed) => signPayload(payload, seed, { backend }),
    verify: (payload, publicKey, options) => verifyPayload(payload, publicKey, { ...options, backend }),
    verifyWithNodeId: (payload, nodeId, options) => verifyPayload(payload, nodeId, { ...options, backend }),
    nodeId: nodeIdFromPublicKey,
    shortNodeId: (publicKey) => shortNodeId(publicKey),
    shortNodeIdFromNodeId: (nodeId) => shortNodeId(nodeId),
    parseNodeId: (nodeId, { lenient }) => parseNodeId(nodeId, { lenient }),
    lenientEncoding: true,
    errorCode: (error) => (error as { code?: string }).code,
    errorReason: (error) => (error as { details?: { reason?: string } }).details?.reason,
  };
}

const full = hearthnetOn(nobleBackend);
const backends: [string, Ed25519Backend][] = [
  ['node:crypto', nodeCryptoBackend()!],
  ['@noble/ed25519', nobleBackend],
];

describe('signatureSuite', () => {
  it.each(backends)(
    'passes every case against @agentwire/hearthnet on %s, with nothing skipped',
    async (_name, backend) => {
      const report = await runSuite(signatureSuite(hearthnetOn(backend)));
      expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
      expect(report.results.some((r) => r.id.startsWith('hearthnet.signatures.node-ids.'))).toBe(true);
    },
  );

  it('runs a fixture that covers every verification outcome', () => {
    const fixture = readFixtureFile(signaturesFixture, 'hearthnet/signatures.json');
    const outcomes = new Set(
      fixture.cases
        .filter((c) => c['operation'] === 'verify')
        .map((c) => (c['valid'] === true ? 'valid' : String(c['reason']))),
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

  it('accepts a plain boolean verify and skips what a minimal implementation does not offer', async () => {
    const report = await runSuite(
      signatureSuite({
        sign: full.sign,
        verify: (payload, publicKey, options) => verifyPayload(payload, publicKey, options).valid,
      }),
    );
    expect(report.ok).toBe(true);
    const skipped = report.results.filter((r) => r.status === 'skipped').map((r) => r.id);
    expect(skipped).toContain('hearthnet.signatures.verify-valid-node-id');
    expect(skipped).toContain('hearthnet.signatures.verify-padded-signature-lenient');
    expect(skipped).toContain('hearthnet.signatures.node-ids.from-public-key-test-1');
    expect(skipped).toContain('hearthnet.signatures.node-ids.parse-valid-strict');
    expect(report.results.find((r) => r.id === 'hearthnet.signatures.verify-valid-public-key')?.status).toBe(
      'passed',
    );
  });

  it('counts a throwing verify as a rejection, as the Python reference raises', async () => {
    const throwing: SignatureImplementation = {
      ...full,
      verify: (payload, publicKey, options) => {
        const verdict = verifyPayload(payload, publicKey, options);
        if (!verdict.valid) throw new Error(`verify_failed: ${verdict.reason}`);
        return true;
      },
    };
    expect((await runSuite(signatureSuite(throwing))).ok).toBe(true);
  });

  it('fails a verifier that accepts everything, a signer that keeps floats, and wrong reasons', async () => {
    const report = await runSuite(
      signatureSuite({
        ...full,
        sign: (payload, seed) => ({ ...payload, signature: String(signPayload(payload, seed)['signature']) }),
        verify: (payload, publicKey, options) => {
          const verdict = verifyPayload(payload, publicKey, options);
          return verdict.valid ? verdict : { valid: true };
        },
        verifyWithNodeId: (payload, nodeId, options) => {
          const verdict = verifyPayload(payload, nodeId, options);
          return verdict.valid ? verdict : { valid: false, reason: 'signature_mismatch' };
        },
      }),
    );
    const failed = new Set(report.results.filter((r) => r.status === 'failed').map((r) => r.id));
    expect(failed.has('hearthnet.signatures.verify-tampered-field')).toBe(true);
    expect(failed.has('hearthnet.signatures.verify-rule-small-order-key')).toBe(true);
    expect(failed.has('hearthnet.signatures.sign-normalises-floats')).toBe(true);
    expect(failed.has('hearthnet.signatures.sign-simple')).toBe(false);
    expect(failed.has('hearthnet.signatures.verify-short-node-id')).toBe(true);
    expect(failed.has('hearthnet.signatures.verify-valid-public-key')).toBe(false);
  });

  it('fails a short id cut from the node id text, a parser that is always lenient, and lost reasons', async () => {
    const report = await runSuite(
      signatureSuite({
        ...full,
        // Cuts the display form out of the base64url text instead of re-encoding the key in base32.
        shortNodeIdFromNodeId: (nodeId) => `${nodeId.slice(0, 22)}===`,
        parseNodeId: (nodeId) => parseNodeId(nodeId, { lenient: true }),
        errorReason: () => 'invalid',
      }),
    );
    const failed = new Set(report.results.filter((r) => r.status === 'failed').map((r) => r.id));
    expect(failed).toContain('hearthnet.signatures.node-ids.from-public-key-test-1.short-from-node-id');
    expect(failed).toContain('hearthnet.signatures.node-ids.parse-padded-strict');
    expect(failed).toContain('hearthnet.signatures.node-ids.parse-missing-prefix-strict.reason');
    expect(failed).not.toContain('hearthnet.signatures.node-ids.from-public-key-test-1.parse');
    expect(failed).not.toContain('hearthnet.signatures.node-ids.from-public-key-test-1.short');
  });

  it('fails a parser that loses the last key byte on the round trip of every node id', async () => {
    const report = await runSuite(
      signatureSuite({
        ...full,
        parseNodeId: (nodeId, options) => parseNodeId(nodeId, options).subarray(0, 31),
      }),
    );
    const failed = new Set(report.results.filter((r) => r.status === 'failed').map((r) => r.id));
    expect(failed).toContain('hearthnet.signatures.node-ids.from-public-key-test-1.parse');
    expect(failed).toContain('hearthnet.signatures.node-ids.parse-valid-strict');
    expect(failed).not.toContain('hearthnet.signatures.node-ids.parse-missing-prefix-strict');
  });
});

describe('signatureSuite through registerSuite', () => {
  registerSuite(signatureSuite(full), { describe, it, afterAll });
});
