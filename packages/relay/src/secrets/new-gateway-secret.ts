import { base64UrlEncodeNoPad } from '../encoding/base64.js';

/** Random bytes in every generated secret, delivery key and enrollment token (256 bits). */
export const GATEWAY_SECRET_BYTES = 32;

/**
 * A fresh random secret: {@link GATEWAY_SECRET_BYTES} bytes from the Web Crypto
 * `crypto.getRandomValues`, as unpadded base64url (43 characters). Serves as gateway secret, delivery
 * key and one-time enrollment token.
 *
 * @example
 * newGatewaySecret(); // 'q3Jx…' (43 characters of [A-Za-z0-9_-])
 */
export function newGatewaySecret(): string {
  return base64UrlEncodeNoPad(crypto.getRandomValues(new Uint8Array(GATEWAY_SECRET_BYTES)));
}
