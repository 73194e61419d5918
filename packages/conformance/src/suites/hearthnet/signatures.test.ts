import {
  nodeIdFromPublicKey,
  parseNodeId,
  shortNodeId,
  signPayload,
  verifyPayload,
} from '@agentwire/hearthnet';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { type SignatureImplementation, signatureSuite } from './signatures.js';

const full: SignatureImplementation = {
  sign: (payload, seed) => signPayload(payload, seed),
  verify: (payload, publicKey, options) => verifyPayload(payload, publicKey, options),
  verifyWithNodeId: (payload, nodeId, options) => verifyPayload(payload, nodeId, options),
  nodeId: nodeIdFromPublicKey,
  shortNodeId: (publicKey) => shortNodeId(publicKey),
  parseNodeId: (nodeId, { lenient }) => parseNodeId(nodeId, { lenient }),
  lenientEncoding: true,
  errorCode: (error) => (error as { code?: string }).code,
};

describe('signatureSuite', () => {
  it('passes every case against @agentwire/hearthnet, with nothing skipped', async () => {
    const report = await runSuite(signatureSuite(full));
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    expect(report.results.some((r) => r.id.startsWith('hearthnet.signatures.node-ids.'))).toBe(true);
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
});

describe('signatureSuite through registerSuite', () => {
  registerSuite(signatureSuite(full), { describe, it, afterAll });
});
