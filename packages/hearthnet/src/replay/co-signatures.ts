import { canonicalJson } from '../canonical-json/index.js';
import { ed25519Sign, ed25519Verify } from '../crypto/ed25519.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { ED25519_PREFIX, parseNodeId } from '../crypto/node-id.js';
import { base64UrlDecode, base64UrlEncode } from '../encoding/index.js';
import type { CoSigner } from '../events/event-data.js';

/** The field of `data` that carries co-signatures; it is left out of what co-signers sign. */
const CO_SIGNERS_FIELD = 'co_signers';

/**
 * The bytes a co-signer signs (contract §4.18): the canonical JSON of the event's `data` without
 * `co_signers`, so every co-signer signs the same intent independently of the others.
 *
 * @throws {HearthNetLocalError} when `data` holds something canonical JSON cannot encode.
 */
export function coSignatureIntent(data: Readonly<Record<string, unknown>>): Uint8Array {
  const intent: Record<string, unknown> = {};
  for (const key of Object.keys(data)) {
    if (key !== CO_SIGNERS_FIELD) intent[key] = data[key];
  }
  return canonicalJson(intent);
}

/**
 * Co-signs the intent of a revoke, promote or demote (`data` without `co_signers`) with `key`.
 *
 * @throws {HearthNetLocalError} when `data` holds something canonical JSON cannot encode.
 * @example
 * const intent = { target_node_id: mallory.nodeId, reason: 'compromised' };
 * const co_signers = [alice, bob, carol].map((key) => coSign(intent, key));
 * createEvent({ ..., event_type: 'community.member.revoked', data: { ...intent, co_signers } }, alice);
 */
export function coSign(data: Readonly<Record<string, unknown>>, key: KeyPair): CoSigner {
  const signature = ed25519Sign(coSignatureIntent(data), key.secretKey);
  return { node_id: key.nodeId, signature: ED25519_PREFIX + base64UrlEncode(signature) };
}

/**
 * Whether `coSigner.signature` is `coSigner.node_id`'s signature over the intent of `data`. Never
 * throws: a malformed node id or signature is `false`.
 */
export function verifyCoSignature(data: Readonly<Record<string, unknown>>, coSigner: CoSigner): boolean {
  try {
    const publicKey = parseNodeId(coSigner.node_id);
    if (!coSigner.signature.startsWith(ED25519_PREFIX)) return false;
    const signature = base64UrlDecode(coSigner.signature.slice(ED25519_PREFIX.length));
    return ed25519Verify(signature, coSignatureIntent(data), publicKey);
  } catch {
    return false;
  }
}
