import { RelayError } from '../../errors.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** The text of well-formed UTF-8 `bytes`; throws `sanitiser_malformed_payload` otherwise. */
export function decodeUtf8Strict(bytes: Uint8Array, path: string): string {
  try {
    return strictUtf8.decode(bytes);
  } catch (error) {
    throw new RelayError('sanitiser_malformed_payload', `${path} is not well-formed UTF-8`, {
      path,
      cause: error,
    });
  }
}

/** UTF-8 bytes of `text` (well-formed UTF-16 round-trips byte for byte with {@link decodeUtf8Strict}). */
export function encodeUtf8(text: string): Uint8Array {
  return encoder.encode(text);
}
