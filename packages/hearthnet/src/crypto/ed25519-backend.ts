/**
 * One Ed25519 implementation (RFC 8032, pure Ed25519): the primitives the SDK signs and verifies
 * with. Callers go through {@link ed25519Verify}, which applies the libsodium verification rule in
 * front of the backend, so every backend gives the same verdicts.
 */
export interface Ed25519Backend {
  /** A short name for diagnostics, e.g. `'node:crypto'`. */
  readonly name: string;
  /** The 32-byte public key of a 32-byte seed (RFC 8032's private key). */
  publicKeyFromSeed(seed: Uint8Array): Uint8Array;
  /** The deterministic 64-byte signature of `message` under the key of `seed`. */
  sign(message: Uint8Array, seed: Uint8Array): Uint8Array;
  /**
   * The cofactorless RFC 8032 check: true when the encoding of `[S]B − [k]A` equals the
   * signature's `R` bytes. May throw on malformed input; callers treat a throw as `false`.
   */
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
}
