import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

const utf8 = new TextEncoder();

/**
 * The exact body the reference webhook POSTs for `deliver(agent_id, payload)`: `JSON.stringify` of
 * `{ agent_id, ...payload }` — `agent_id` first, then the payload's own keys in their own order (a payload
 * key named `agent_id` overrides the first one in place), non-ASCII written raw, absent fields omitted.
 * Receivers verify `X-Signature` over these bytes, so they must not change.
 *
 * @throws {TypeError} the payload holds something JSON cannot carry (a `bigint`, a cycle).
 * @example
 * webhookDeliverBody('perry', { kind: 'augment', content: 'hi', meta });
 * // '{"agent_id":"perry","kind":"augment","content":"hi","meta":{…}}'
 */
export function webhookDeliverBody(agent_id: string, payload: object): string {
  return JSON.stringify({ agent_id, ...payload });
}

/**
 * The `X-Signature` header value for a request body: `sha256=` and the lowercase hex HMAC-SHA256 of the
 * body's UTF-8 bytes, keyed with the secret's UTF-8 bytes (lone surrogates become U+FFFD in both, as
 * when the body is sent).
 *
 * @example
 * webhookSignature('s3cret', body); // 'sha256=5f0c…'
 */
export function webhookSignature(secret: string, body: string): string {
  return `sha256=${bytesToHex(hmac(sha256, utf8.encode(secret), utf8.encode(body)))}`;
}
