import { RelayError } from '../../errors.js';
import { maxSkewSeconds, unixSeconds } from './arguments.js';
import { bytesEqual, decodeUtf8 } from './bytes.js';
import { type EdgeRequest, parseEdgeRequest } from './request.js';
import { freshTimestamp } from './timestamp.js';
import { decryptWeComPayload } from './wecom-cipher.js';
import { type WeComCryptoOptions, type WeComSecrets, weComSecrets } from './wecom-config.js';
import { weComMsgSignature } from './wecom-signature.js';
import { extractEncryptElement } from './wecom-xml.js';

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
 * {@link weComMsgSignature}); the ciphertext is the `echostr` query parameter of the URL-verification
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
