import { randomBytes, randomInt } from 'node:crypto';
import { RelayError } from '../../errors.js';
import { describe, unixSeconds } from './arguments.js';
import { encryptWeComPayload } from './wecom-cipher.js';
import { type WeComCryptoOptions, weComSecrets } from './wecom-config.js';
import { weComMsgSignature } from './wecom-signature.js';

const NONCE = /^[0-9A-Za-z]{1,64}$/;
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Options of {@link encryptWeComReply}. */
export interface WeComReplyOptions extends WeComCryptoOptions {
  /** The reply's unix-seconds timestamp (fractions truncated); the current time when absent. */
  readonly timestamp?: number | undefined;
  /** The reply's nonce, 1 to 64 ASCII letters and digits; ten random digits when absent. */
  readonly nonce?: string | undefined;
  /** The 16 random bytes that open the plaintext; fresh random bytes when absent. */
  readonly random?: Uint8Array | undefined;
}

/** An encrypted, signed passive reply. */
export interface EncryptedWeComReply {
  /** Base64 ciphertext of the reply. */
  readonly encrypt: string;
  /** `msg_signature` over the token, timestamp, nonce and ciphertext. */
  readonly msgSignature: string;
  readonly timestamp: string;
  readonly nonce: string;
  /** The response body WeCom expects: `<xml>` with Encrypt, MsgSignature, TimeStamp and Nonce. */
  readonly xml: string;
}

/**
 * Encrypts and signs a passive reply to a WeCom callback (the encrypt side of BizMsgCrypt):
 * `message` (the reply XML) is encrypted like a callback and signed with the same
 * `msg_signature` rule. Throws a `RelayError` `invalid_argument` for unusable options or a message with
 * an unpaired surrogate.
 *
 * @example
 * const reply = encryptWeComReply('<xml><MsgType><![CDATA[text]]></MsgType>…</xml>', {
 *   token, encodingAesKey, corpId,
 * });
 * return new Response(reply.xml, { headers: { 'content-type': 'application/xml' } });
 */
export function encryptWeComReply(message: string, options: WeComReplyOptions): EncryptedWeComReply {
  const secrets = weComSecrets(options);
  if (typeof message !== 'string' || UNPAIRED_SURROGATE.test(message)) {
    throw new RelayError('invalid_argument', 'message must be a string with no unpaired surrogate', {
      path: 'message',
    });
  }
  const timestamp = String(unixSeconds(options.timestamp, 'timestamp'));
  const nonce = replyNonce(options.nonce);
  const random = replyRandom(options.random);
  const encrypt = encryptWeComPayload(Buffer.from(message, 'utf8'), secrets, random);
  const msgSignature = weComMsgSignature(secrets.token, timestamp, nonce, encrypt);
  const xml =
    `<xml><Encrypt><![CDATA[${encrypt}]]></Encrypt><MsgSignature><![CDATA[${msgSignature}]]></MsgSignature>` +
    `<TimeStamp>${timestamp}</TimeStamp><Nonce><![CDATA[${nonce}]]></Nonce></xml>`;
  return { encrypt, msgSignature, timestamp, nonce, xml };
}

/** The given nonce once checked, or ten random digits. */
function replyNonce(nonce: unknown): string {
  if (nonce === undefined) return String(randomInt(1_000_000_000, 10_000_000_000));
  if (typeof nonce !== 'string' || !NONCE.test(nonce)) {
    throw new RelayError('invalid_argument', 'nonce must be 1 to 64 ASCII letters and digits', {
      path: 'nonce',
    });
  }
  return nonce;
}

/** The given 16 random bytes once checked, or fresh ones. */
function replyRandom(random: unknown): Uint8Array {
  if (random === undefined) return randomBytes(16);
  if (!(random instanceof Uint8Array) || random.length !== 16) {
    throw new RelayError('invalid_argument', `random must be 16 bytes, got ${describe(random)}`, {
      path: 'random',
    });
  }
  return random;
}
