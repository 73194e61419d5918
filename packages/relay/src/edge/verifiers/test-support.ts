import { expect } from 'vitest';
import { EdgeVerificationError, type EdgeVerificationErrorCode } from './errors.js';

/** The code of the {@link EdgeVerificationError} `run` throws; fails the test on success or another error. */
export function refusal(run: () => unknown): EdgeVerificationErrorCode {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(EdgeVerificationError);
    return (error as EdgeVerificationError).code;
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
