/**
 * A fresh outbound `requestId` in the gateway's format: `uuid4().hex`, 32 lowercase hex digits with no
 * dashes. Uses the global Web Crypto `randomUUID` (Node ≥ 19, browsers, workers).
 *
 * @example
 * newRequestId(); // '9f0c6d1e2b3a4c5d8e7f601a2b3c4d5e'
 */
export function newRequestId(): string {
  return crypto.randomUUID().replaceAll('-', '');
}
