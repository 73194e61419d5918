import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt } from 'node:crypto';
import { compareCodePoints, describeType, encodeBase64 } from '@agentwire/internal';

import { RelayError } from '../errors.js';
import {
  assertNonEmptyString,
  assertOptions,
  bytesEqual,
  decodeBase64,
  decodeUtf8,
  type EdgeRequest,
  freshTimestamp,
  maxSkewSeconds,
  parseEdgeRequest,
  unixSeconds,
} from './verifiers.js';

/** WeCom pads to a multiple of 32 bytes (PKCS#7 with k = 32), not the AES block size. */
const PAD_BLOCK = 32;
const RANDOM_BYTES = 16;
const LENGTH_BYTES = 4;

/**
 * Encrypts a message the way WeCom does: AES-256-CBC (IV = the key's first 16 bytes, no cipher
 * padding) over `random(16) + be32(len(msg)) + msg + receiveid`, padded PKCS#7-style to a
 * multiple of 32 bytes, base64-encoded.
 */
export function encryptWeComPayload(message: Uint8Array, secrets: WeComSecrets, random: Uint8Array): string {
  const receiveId = Buffer.from(secrets.corpId, 'utf8');
  const length = Buffer.alloc(LENGTH_BYTES);
  length.writeUInt32BE(message.length);
  const plain = Buffer.concat([random, length, message, receiveId]);
  const padLength = PAD_BLOCK - (plain.length % PAD_BLOCK);
  const padded = Buffer.concat([plain, Buffer.alloc(padLength, padLength)]);
  const cipher = createCipheriv('aes-256-cbc', secrets.aesKey, secrets.aesKey.subarray(0, 16));
  cipher.setAutoPadding(false);
  return encodeBase64(Buffer.concat([cipher.update(padded), cipher.final()]));
}

/**
 * The message inside a WeCom ciphertext. Throws `decrypt_failed` when it is not canonical
 * base64 of whole AES blocks, its padding is not 1 to 32 bytes of the pad length, its message length
 * overruns it, or the message is not UTF-8; `corp_id_mismatch` when the trailing receive id
 * is not the configured one.
 */
export function decryptWeComPayload(encrypt: string, secrets: WeComSecrets, path: string): string {
  const cipherText = decodeBase64(encrypt);
  if (cipherText === undefined || cipherText.length === 0 || cipherText.length % 16 !== 0) {
    throw new RelayError('decrypt_failed', `${path} is not base64 of whole AES blocks`, { path });
  }
  const decipher = createDecipheriv('aes-256-cbc', secrets.aesKey, secrets.aesKey.subarray(0, 16));
  decipher.setAutoPadding(false);
  const padded = Buffer.concat([decipher.update(cipherText), decipher.final()]);
  const padLength = padded[padded.length - 1]!;
  const end = padded.length - padLength;
  if (
    padLength < 1 ||
    padLength > PAD_BLOCK ||
    end < 0 ||
    padded.subarray(end).some((b) => b !== padLength)
  ) {
    throw new RelayError('decrypt_failed', `${path} has bad padding`, { path });
  }
  const headerEnd = RANDOM_BYTES + LENGTH_BYTES;
  if (end < headerEnd) throw new RelayError('decrypt_failed', `${path} is too short for a message`, { path });
  const messageEnd = headerEnd + padded.readUInt32BE(RANDOM_BYTES);
  if (messageEnd > end)
    throw new RelayError('decrypt_failed', `${path} has a message length past its end`, { path });
  const receiveId = decodeUtf8(padded.subarray(messageEnd, end));
  if (receiveId !== secrets.corpId) {
    throw new RelayError('corp_id_mismatch', `${path} is addressed to another corp id`, { path });
  }
  const message = decodeUtf8(padded.subarray(headerEnd, messageEnd));
  if (message === undefined)
    throw new RelayError('decrypt_failed', `${path} holds a message that is not UTF-8`, { path });
  return message;
}

const ENCODING_AES_KEY = /^[A-Za-z0-9+/]{43}$/;

/** The secrets of one WeCom callback configuration. */
export interface WeComCryptoOptions {
  /** The callback Token (used to sign). */
  readonly token: string;
  /** The callback EncodingAESKey: 43 base64 characters, the AES key without its final `=`. */
  readonly encodingAesKey: string;
  /**
   * WeCom's `receiveid`: the corp id for an internal app's callbacks, the suite id for a
   * third-party app's. Decrypted messages must name it.
   */
  readonly corpId: string;
}

/** Checked WeCom secrets: the token, the 32-byte AES key and the receive id. */
export interface WeComSecrets {
  readonly token: string;
  readonly aesKey: Uint8Array;
  readonly corpId: string;
}

/** Checks WeCom options; the AES key is base64-decode(EncodingAESKey + '='). */
export function weComSecrets(options: unknown): WeComSecrets {
  assertOptions(options);
  const { token, encodingAesKey, corpId } = options as Partial<Record<keyof WeComCryptoOptions, unknown>>;
  assertNonEmptyString(token, 'token');
  assertNonEmptyString(corpId, 'corpId');
  if (typeof encodingAesKey !== 'string' || !ENCODING_AES_KEY.test(encodingAesKey)) {
    throw new RelayError(
      'invalid_argument',
      'encodingAesKey must be 43 base64 characters (WeCom EncodingAESKey)',
      { path: 'encodingAesKey' },
    );
  }
  return { token, aesKey: new Uint8Array(Buffer.from(`${encodingAesKey}=`, 'base64')), corpId };
}

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

const ENCRYPT_OPEN = /<Encrypt\s*>/y;
const ENCRYPT_CLOSE = /\s*<\/Encrypt\s*>/y;
const CDATA_OPEN = '<![CDATA[';
const CDATA_CLOSE = ']]>';

/**
 * The text of the one `<Encrypt>` element of a WeCom callback body, written as CDATA or as plain
 * text, whitespace around it ignored. CDATA sections and comments elsewhere are skipped, so an
 * `<Encrypt>` quoted inside another element's CDATA is not taken. Throws `malformed_body`
 * when there is no such element, more than one, an unterminated one, or one that is empty.
 */
export function extractEncryptElement(xml: string): string {
  const found: string[] = [];
  let at = 0;
  for (;;) {
    const lt = xml.indexOf('<', at);
    if (lt < 0) break;
    if (xml.startsWith(CDATA_OPEN, lt)) {
      at = endOf(xml, CDATA_CLOSE, lt + CDATA_OPEN.length);
    } else if (xml.startsWith('<!--', lt)) {
      at = endOf(xml, '-->', lt + 4);
    } else if (matchesAt(ENCRYPT_OPEN, xml, lt)) {
      const [value, next] = encryptContent(xml, ENCRYPT_OPEN.lastIndex);
      found.push(value);
      at = next;
    } else {
      at = lt + 1;
    }
  }
  if (found.length !== 1) {
    throw new RelayError('malformed_body', `the body has ${found.length} <Encrypt> elements, not one`, {
      path: 'body',
    });
  }
  if (found[0] === '')
    throw new RelayError('malformed_body', 'the <Encrypt> element is empty', { path: 'body' });
  return found[0]!;
}

/** The content of an `<Encrypt>` element starting at `start`, and the index after its end tag. */
function encryptContent(xml: string, start: number): [string, number] {
  let from = start;
  while (/\s/.test(xml.charAt(from))) from++;
  let value: string;
  let next: number;
  if (xml.startsWith(CDATA_OPEN, from)) {
    const close = endOf(xml, CDATA_CLOSE, from + CDATA_OPEN.length);
    value = xml.slice(from + CDATA_OPEN.length, close - CDATA_CLOSE.length);
    next = close;
  } else {
    next = xml.indexOf('<', from);
    if (next < 0)
      throw new RelayError('malformed_body', 'the <Encrypt> element is not closed', { path: 'body' });
    value = xml.slice(from, next).trim();
  }
  if (!matchesAt(ENCRYPT_CLOSE, xml, next)) {
    throw new RelayError('malformed_body', 'the <Encrypt> element is not closed', { path: 'body' });
  }
  return [value, ENCRYPT_CLOSE.lastIndex];
}

/** The index just past the first `terminator` at or after `from`; throws when there is none. */
function endOf(xml: string, terminator: string, from: number): number {
  const index = xml.indexOf(terminator, from);
  if (index < 0)
    throw new RelayError('malformed_body', `the body has an unterminated section (no ${terminator})`, {
      path: 'body',
    });
  return index + terminator.length;
}

/** Whether the sticky `pattern` matches at `index` (its `lastIndex` is then just past the match). */
function matchesAt(pattern: RegExp, xml: string, index: number): boolean {
  pattern.lastIndex = index;
  return pattern.test(xml);
}

const SIGNATURE = /^[0-9a-fA-F]{40}$/;

/** Options of {@link verifyWeComCallback}. */
export interface WeComVerifierOptions extends WeComCryptoOptions {
  /** Seconds the signed `timestamp` may be away from `now`, either way; default 300. */
  readonly maxSkewSeconds?: number | undefined;
  /** The clock in unix seconds (fractions are truncated); the current time when absent. */
  readonly now?: number | undefined;
}

/** A verified WeCom callback: the URL check (GET) or a message (POST). */
export type VerifiedWeComCallback = VerifiedWeComUrlVerification | VerifiedWeComMessage;

/** The URL-verification GET: answer it with `echo` as the whole plain-text body (no quotes, no newline). */
export interface VerifiedWeComUrlVerification {
  readonly kind: 'url_verification';
  readonly echo: string;
  readonly timestamp: number;
  readonly nonce: string;
}

/**
 * A callback POST. `message` is the decrypted XML, the only part of the request that is signed:
 * read `ToUserName`, `AgentID` and the rest from it, not from the outer envelope.
 */
export interface VerifiedWeComMessage {
  readonly kind: 'message';
  readonly message: string;
  readonly timestamp: number;
  readonly nonce: string;
}

/**
 * Verifies and decrypts a WeCom (企业微信) callback in BizMsgCrypt form. The query's
 * `msg_signature` must be the SHA-1 of the sorted token, `timestamp`, `nonce` and ciphertext (see
 * `weComMsgSignature`); the ciphertext is the `echostr` query parameter of the URL-verification
 * GET, or the `<Encrypt>` element (CDATA or plain) of a POST's XML body. Then the timestamp must be
 * within `maxSkewSeconds` of the clock, and the ciphertext must decrypt (AES-256-CBC, PKCS#7 to 32
 * bytes) to a message addressed to `corpId`.
 *
 * Throws a `RelayError` with code `missing_signature`, `malformed_signature` (not 40 hex characters),
 * `bad_signature`, `missing_timestamp`, `malformed_timestamp`, `stale_timestamp`,
 * `malformed_request` (no `nonce` or `echostr`, or a method other than GET and POST),
 * `malformed_body`, `decrypt_failed`, `corp_id_mismatch`, or `invalid_argument`
 * for unusable options. A `+` that arrived unescaped in `echostr` (read as a space) is restored,
 * since base64 has no spaces.
 *
 * @example
 * const callback = verifyWeComCallback(request, { token, encodingAesKey, corpId });
 * if (callback.kind === 'url_verification') return new Response(callback.echo);
 * const reply = encryptWeComReply(replyXml, { token, encodingAesKey, corpId });
 * return new Response(reply.xml, { headers: { 'content-type': 'application/xml' } });
 */
export function verifyWeComCallback(
  request: EdgeRequest,
  options: WeComVerifierOptions,
): VerifiedWeComCallback {
  const secrets = weComSecrets(options);
  const maxSkew = maxSkewSeconds(options.maxSkewSeconds);
  const now = unixSeconds(options.now);
  const query = parseEdgeRequest(request).searchParams;
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'POST') {
    throw new RelayError('malformed_request', `WeCom sends GET and POST callbacks, not ${method}`, {
      path: 'method',
    });
  }

  const signature = queryValue(query, 'msg_signature');
  if (signature === undefined)
    throw new RelayError('missing_signature', 'no msg_signature parameter', { path: 'msg_signature' });
  const timestampText = queryValue(query, 'timestamp');
  if (timestampText === undefined)
    throw new RelayError('missing_timestamp', 'no timestamp parameter', { path: 'timestamp' });
  const nonce = queryValue(query, 'nonce');
  if (nonce === undefined) throw new RelayError('malformed_request', 'no nonce parameter', { path: 'nonce' });
  if (!SIGNATURE.test(signature)) {
    throw new RelayError('malformed_signature', 'msg_signature must be 40 hex characters', {
      path: 'msg_signature',
    });
  }

  const isUrlVerification = method === 'GET';
  const encrypt = isUrlVerification ? echoStr(query) : encryptOfBody(request.body);
  verifySignature(secrets, timestampText, nonce, encrypt, signature);
  const timestamp = freshTimestamp(timestampText, now, maxSkew, 'timestamp');
  const path = isUrlVerification ? 'echostr' : 'Encrypt';
  const plain = decryptWeComPayload(encrypt, secrets, path);
  return isUrlVerification
    ? { kind: 'url_verification', echo: plain, timestamp, nonce }
    : { kind: 'message', message: plain, timestamp, nonce };
}

/** A query parameter's first value, or undefined when absent or empty. */
function queryValue(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name);
  return value === null || value === '' ? undefined : value;
}

/** The `echostr` ciphertext, with `+` restored where the query decoding turned it into a space. */
function echoStr(query: URLSearchParams): string {
  const echo = queryValue(query, 'echostr');
  if (echo === undefined)
    throw new RelayError('malformed_request', 'no echostr parameter', { path: 'echostr' });
  return echo.replaceAll(' ', '+');
}

/** The `<Encrypt>` ciphertext of a POST body. */
function encryptOfBody(body: Uint8Array): string {
  const xml = decodeUtf8(body);
  if (xml === undefined)
    throw new RelayError('malformed_body', 'the body is not well-formed UTF-8', { path: 'body' });
  return extractEncryptElement(xml);
}

/** Throws `bad_signature` unless `signature` signs the ciphertext. */
function verifySignature(
  secrets: WeComSecrets,
  timestamp: string,
  nonce: string,
  encrypt: string,
  signature: string,
): void {
  const expected = weComMsgSignature(secrets.token, timestamp, nonce, encrypt);
  if (!bytesEqual(Buffer.from(expected, 'latin1'), Buffer.from(signature.toLowerCase(), 'latin1'))) {
    throw new RelayError('bad_signature', 'the callback is not signed with this token', {
      path: 'msg_signature',
    });
  }
}

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
    throw new RelayError('invalid_argument', `random must be 16 bytes, got ${describeType(random)}`, {
      path: 'random',
    });
  }
  return random;
}
