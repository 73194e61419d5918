import { timingSafeEqual } from 'node:crypto';

const HEX = /^(?:[0-9a-fA-F]{2})*$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes of a hex text (either case) of exactly `length` bytes, or `undefined`. */
export function decodeHex(text: string, length: number): Uint8Array | undefined {
  if (text.length !== length * 2 || !HEX.test(text)) return undefined;
  return new Uint8Array(Buffer.from(text, 'hex'));
}

/**
 * The bytes of a text in canonical padded standard base64 (RFC 4648 §4, unused bits zero), or
 * `undefined` for anything else: no whitespace, no URL-safe alphabet, no missing padding.
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (!BASE64.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? new Uint8Array(bytes) : undefined;
}

/** Padded standard base64 of `bytes`. */
export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** The text of well-formed UTF-8 `bytes` (a leading BOM is kept as U+FEFF), or `undefined`. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Whether two byte strings are equal, in time that depends only on their lengths. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
