import { expect } from 'vitest';
import { RelayError, type RelayErrorCode } from '../errors.js';

/** The codes the edge webhook verifiers throw a {@link RelayError} with. */
const VERIFIER_CODES: ReadonlySet<RelayErrorCode> = new Set<RelayErrorCode>([
  'invalid_argument',
  'malformed_request',
  'missing_signature',
  'malformed_signature',
  'bad_signature',
  'missing_timestamp',
  'malformed_timestamp',
  'stale_timestamp',
  'body_hash_mismatch',
  'malformed_body',
  'decrypt_failed',
  'corp_id_mismatch',
]);

/**
 * The code of the verifier's {@link RelayError} `run` throws; fails the test on success, on another
 * error, or on a code that is not a verifier's.
 */
export function refusal(run: () => unknown): RelayErrorCode {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RelayError);
    const { code } = error as RelayError;
    expect(VERIFIER_CODES.has(code), `${code} is not a verifier code`).toBe(true);
    return code;
  }
  throw new Error('expected the verifier to refuse');
}

/** `bytes` with the byte at `index` xor-ed with `mask` (non-zero). */
export function flipByte(bytes: Uint8Array, index: number, mask: number): Uint8Array {
  const copy = new Uint8Array(bytes);
  copy[index]! ^= mask;
  return copy;
}

/** UTF-8 bytes of a text. */
export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
