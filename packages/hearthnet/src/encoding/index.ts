export { base32Decode, base32Encode } from './base32.js';
export { base64Decode, base64Encode } from './base64.js';
export { base64UrlDecode, base64UrlDecodeLenient, base64UrlEncode } from './base64url.js';
export { hexDecode, hexEncode } from './hex.js';
