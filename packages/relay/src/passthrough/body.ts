import { base64DecodePythonLenient, base64DecodeStrict, base64Encode } from '../encoding/base64.js';
import { RelayError } from '../errors.js';
import { describe } from './describe.js';

/**
 * Encodes a forwarded request body for `passthrough_forward.forward.bodyB64`: standard base64 with
 * `=` padding, the only form the gateway decodes back to the same bytes (anything unpadded arrives
 * as an empty body, silently).
 *
 * @example
 * encodePassthroughBody(new TextEncoder().encode('{"type":1}')); // 'eyJ0eXBlIjoxfQ=='
 */
export function encodePassthroughBody(body: Uint8Array): string {
  if (!(body instanceof Uint8Array)) {
    throw new RelayError('passthrough_invalid_argument', `body must be a Uint8Array, got ${describe(body)}`, {
      path: 'body',
    });
  }
  return base64Encode(body);
}

/**
 * Decodes `bodyB64` exactly as the gateway does (`base64.b64decode` in non-validating mode, any
 * failure giving an empty body), so a connector can see what the gateway will receive. Never
 * throws: a non-string, a text with non-ASCII characters, unpadded or truncated base64 all give
 * zero bytes; characters outside the standard alphabet (`-`, `_`, whitespace) are skipped; data
 * after completed padding is ignored.
 *
 * @example
 * decodePassthroughBody('eyJ0eXBlIjoxfQ=='); // bytes of '{"type":1}'
 * decodePassthroughBody('eyJ0eXBlIjoxfQ');   // Uint8Array [] — unpadded
 */
export function decodePassthroughBody(bodyB64: unknown): Uint8Array {
  if (typeof bodyB64 !== 'string') return new Uint8Array(0);
  const decoded = base64DecodePythonLenient(bodyB64);
  return decoded instanceof Uint8Array ? decoded : new Uint8Array(0);
}

/**
 * Decodes `bodyB64` only when it is canonical padded standard base64 — what
 * {@link encodePassthroughBody} writes — and throws a `RelayError` `passthrough_body_invalid` otherwise.
 * Every text it accepts decodes to the same bytes under {@link decodePassthroughBody}.
 */
export function decodePassthroughBodyStrict(bodyB64: string): Uint8Array {
  if (typeof bodyB64 !== 'string') {
    throw new RelayError('passthrough_body_invalid', `bodyB64 must be a string, got ${describe(bodyB64)}`, {
      path: 'bodyB64',
    });
  }
  const decoded = base64DecodeStrict(bodyB64);
  if (decoded instanceof Uint8Array) return decoded;
  throw new RelayError(
    'passthrough_body_invalid',
    `bodyB64 is not padded standard base64: ${decoded.refused}`,
    { path: 'bodyB64' },
  );
}
