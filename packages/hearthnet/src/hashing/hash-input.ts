import { HearthNetLocalError } from '../errors.js';

const utf8Encoder = new TextEncoder();
// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The bytes that are hashed for `data`: the bytes themselves, or the UTF-8 encoding of a string.
 * A string holding a lone surrogate is rejected rather than silently encoded as U+FFFD.
 */
export function hashInputBytes(data: Uint8Array | string): Uint8Array {
  if (data instanceof Uint8Array) return data;
  if (typeof data === 'string') {
    if (loneSurrogate.test(data)) {
      throw new HearthNetLocalError(
        'invalid_hash_input',
        'cannot hash a string with a lone surrogate: it has no UTF-8 form',
      );
    }
    return utf8Encoder.encode(data);
  }
  throw new HearthNetLocalError(
    'invalid_hash_input',
    `data to hash must be a Uint8Array or a string, got ${typeName(data)}`,
  );
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return Object.getPrototypeOf(value)?.constructor?.name ?? 'an object';
}
