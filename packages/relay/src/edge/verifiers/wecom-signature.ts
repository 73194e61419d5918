import { createHash } from 'node:crypto';
import { compareCodePoints } from './code-point-order.js';

/**
 * WeCom's `msg_signature`: the lowercase hex SHA-1 of the token, timestamp, nonce and encrypted
 * message, sorted and concatenated. The same signature covers an encrypted reply.
 *
 * @example
 * weComMsgSignature('QDG6eK', '1409659589', '263014780', echostr); // 40 lowercase hex characters
 */
export function weComMsgSignature(token: string, timestamp: string, nonce: string, encrypt: string): string {
  const text = [token, timestamp, nonce, encrypt].sort(compareCodePoints).join('');
  return createHash('sha1').update(text, 'utf8').digest('hex');
}
