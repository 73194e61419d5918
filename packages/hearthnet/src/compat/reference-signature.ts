import { ed25519Sign, ed25519Verify } from '../crypto/ed25519.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { ED25519_PREFIX, parseNodeId } from '../crypto/node-id.js';
import { base64UrlDecodeLenient, base64UrlEncode } from '../encoding/index.js';

/** Why a reference signature (events, snapshots) did not verify. */
export interface ReferenceSignatureFailure {
  /**
   * `invalid_author`: the author is not a full node id; `malformed_signature`: the signature does not
   * decode to 64 bytes; `signature_mismatch`: it does not verify under the author's key.
   */
  readonly reason: 'invalid_author' | 'malformed_signature' | 'signature_mismatch';
  readonly message: string;
}

/**
 * The reference's signature string for `message` (`_sign` / `_sign_snapshot` with a key whose `.sign`
 * returns the 64-byte Ed25519 signature): `"ed25519:" + base64url(signature)`, unpadded.
 */
export function referenceSignature(message: Uint8Array, key: KeyPair): string {
  return ED25519_PREFIX + base64UrlEncode(ed25519Sign(message, key.secretKey));
}

/**
 * Checks a non-empty reference signature over `message` under `author`, decoding as leniently as the
 * reference (`kp_store.verify` after stripping an optional `ed25519:` prefix and re-padding: `=`
 * padding and the `+/` alphabet pass). Returns `undefined` when it verifies. Never throws.
 */
export function checkReferenceSignature(
  signature: string,
  author: string,
  message: Uint8Array,
): ReferenceSignatureFailure | undefined {
  let publicKey: Uint8Array;
  try {
    publicKey = parseNodeId(author, { lenient: true });
  } catch (error) {
    return { reason: 'invalid_author', message: messageOf(error) };
  }
  const encoded = signature.startsWith(ED25519_PREFIX) ? signature.slice(ED25519_PREFIX.length) : signature;
  let decoded: Uint8Array;
  try {
    decoded = base64UrlDecodeLenient(encoded);
  } catch (error) {
    return { reason: 'malformed_signature', message: messageOf(error) };
  }
  if (decoded.length !== 64) {
    return { reason: 'malformed_signature', message: `a signature has 64 bytes, got ${decoded.length}` };
  }
  if (!ed25519Verify(decoded, message, publicKey)) {
    return { reason: 'signature_mismatch', message: "the signature does not verify under the author's key" };
  }
  return undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
