import { describe, expect, it } from 'vitest';
import { canonicalJsonString } from '../canonical-json/canonical-json.js';
import { coSign, coSignatureIntent, verifyCoSignature } from './membership-rules.js';
import { alice, bob, mallory } from './replay.test-support.js';

const intent = { target_node_id: mallory.nodeId, reason: 'compromised' };

describe('co-signatures', () => {
  it('sign the canonical JSON of data without co_signers', () => {
    const withSigners = { ...intent, co_signers: [coSign(intent, bob)] };
    expect(new TextDecoder().decode(coSignatureIntent(withSigners))).toBe(canonicalJsonString(intent));
  });

  it('verify for the signer and the same intent only', () => {
    const signed = coSign(intent, alice);
    expect(verifyCoSignature({ ...intent, co_signers: [] }, signed)).toBe(true);
    expect(verifyCoSignature({ ...intent, reason: 'other' }, signed)).toBe(false);
    expect(verifyCoSignature(intent, { ...signed, node_id: bob.nodeId })).toBe(false);
  });

  it('answer false for malformed signatures and node ids', () => {
    const signed = coSign(intent, alice);
    expect(verifyCoSignature(intent, { ...signed, signature: 'ed25519:!!' })).toBe(false);
    expect(verifyCoSignature(intent, { ...signed, signature: signed.signature.slice(8) })).toBe(false);
    expect(verifyCoSignature(intent, { ...signed, node_id: 'ed25519:short' })).toBe(false);
  });
});
