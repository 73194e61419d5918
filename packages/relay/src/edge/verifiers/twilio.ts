import { createHash, createHmac } from 'node:crypto';
import { RelayError } from '../../errors.js';
import { assertNonEmptyString, assertOptions } from './arguments.js';
import { bytesEqual, decodeBase64 } from './bytes.js';
import { parseJsonBody } from './json-body.js';
import { type EdgeRequest, headerValue, parseEdgeRequest } from './request.js';
import { parseFormParams, type TwilioParam, twilioSignedText } from './twilio-params.js';
import { twilioUrlVariants } from './twilio-url.js';

export type { TwilioParam } from './twilio-params.js';

/** The header holding Twilio's base64 HMAC-SHA1 request signature. */
export const TWILIO_SIGNATURE_HEADER = 'X-Twilio-Signature';
/** The query parameter through which Twilio signs a JSON body's SHA-256. */
export const TWILIO_BODY_HASH_PARAM = 'bodySHA256';

const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/** Options of {@link verifyTwilioWebhook}. */
export interface TwilioVerifierOptions {
  /** The account's (primary) Auth Token, the HMAC key, used as its UTF-8 bytes. */
  readonly authToken: string;
}

/** A Twilio webhook whose signature checked out. */
export type VerifiedTwilioWebhook = VerifiedTwilioFormWebhook | VerifiedTwilioJsonWebhook;

/** A form-encoded (or bodiless) webhook: every parameter was covered by the signature. */
export interface VerifiedTwilioFormWebhook {
  readonly kind: 'form';
  /** The body's parameters in the order they came; empty for a bodiless request. */
  readonly params: readonly TwilioParam[];
  readonly body: Uint8Array;
  /** The URL text the signature covers (the request URL, with or without its port). */
  readonly signedUrl: string;
}

/** A JSON webhook: the signed `bodySHA256` query parameter matched the body. */
export interface VerifiedTwilioJsonWebhook {
  readonly kind: 'json';
  readonly json: unknown;
  readonly body: Uint8Array;
  /** The URL text the signature covers (the request URL, with or without its port). */
  readonly signedUrl: string;
}

/**
 * Verifies a Twilio webhook. `X-Twilio-Signature` must be the base64 HMAC-SHA1, keyed with the Auth
 * Token, of the request URL followed, for each parameter name in code-point order and each of its
 * distinct values in code-point order, by name + value. As Twilio's validators do, the URL both
 * without and with its port is tried. `request.url` must be
 * the URL configured in Twilio, query string included, exactly as written there.
 *
 * - URL with a `bodySHA256` query parameter (Twilio's JSON webhooks): the signature covers the URL
 *   alone, the parameter must equal the lowercase hex SHA-256 of the raw body, and the body must be
 *   JSON (`kind: 'json'`).
 * - Otherwise a non-empty body must be `application/x-www-form-urlencoded` and its decoded
 *   parameters are signed (`kind: 'form'`); a bodiless request (GET) signs the URL alone. A body
 *   of another type is refused, since no signature covers it.
 *
 * Throws a `RelayError` with code `missing_signature`, `malformed_signature` (not base64 of 20
 * bytes), `bad_signature`, `body_hash_mismatch`, `malformed_body`, or `invalid_argument` for
 * unusable options or a relative URL. Webhooks signed with a
 * Webhooks Rule's shared key (`X-Twilio-Webhooks-Signature-Settings`) are not supported.
 *
 * @example
 * const hook = verifyTwilioWebhook(
 *   { method: 'POST', url: 'https://edge.example.com/twilio/sms', headers, body },
 *   { authToken: process.env.TWILIO_AUTH_TOKEN! },
 * );
 * if (hook.kind === 'form') console.log(new Map(hook.params).get('Body'));
 */
export function verifyTwilioWebhook(
  request: EdgeRequest,
  options: TwilioVerifierOptions,
): VerifiedTwilioWebhook {
  assertOptions(options);
  assertNonEmptyString(options.authToken, 'authToken');
  const url = parseEdgeRequest(request);
  const { headers, body } = request;

  const signatureText = headerValue(headers, TWILIO_SIGNATURE_HEADER);
  if (signatureText === undefined) {
    throw new RelayError('missing_signature', `no ${TWILIO_SIGNATURE_HEADER} header`, {
      path: TWILIO_SIGNATURE_HEADER,
    });
  }
  const signature = decodeBase64(signatureText);
  if (signature?.length !== 20) {
    throw new RelayError(
      'malformed_signature',
      `${TWILIO_SIGNATURE_HEADER} must be the base64 of a 20-byte HMAC-SHA1`,
      { path: TWILIO_SIGNATURE_HEADER },
    );
  }

  const bodyHash = url.searchParams.get(TWILIO_BODY_HASH_PARAM);
  const params = bodyHash === null ? formParams(headers, body) : [];
  const signedUrl = matchingUrl(request.url, params, options.authToken, signature);
  if (signedUrl === undefined) {
    throw new RelayError('bad_signature', 'the request is not signed with this Auth Token', {
      path: TWILIO_SIGNATURE_HEADER,
    });
  }
  if (bodyHash === null) return { kind: 'form', params, body, signedUrl };

  const actual = createHash('sha256').update(body).digest('hex');
  if (!bytesEqual(Buffer.from(bodyHash, 'utf8'), Buffer.from(actual, 'utf8'))) {
    throw new RelayError(
      'body_hash_mismatch',
      `the body's SHA-256 is not the signed ${TWILIO_BODY_HASH_PARAM}`,
      { path: TWILIO_BODY_HASH_PARAM },
    );
  }
  return { kind: 'json', json: parseJsonBody(body), body, signedUrl };
}

/** The signed parameters of a request without `bodySHA256`: its form body's, or none. */
function formParams(headers: Headers, body: Uint8Array): readonly TwilioParam[] {
  if (body.length === 0) return [];
  const mediaType = (headers.get('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (mediaType !== FORM_MEDIA_TYPE) {
    throw new RelayError(
      'malformed_body',
      `a ${mediaType || 'untyped'} body without ${TWILIO_BODY_HASH_PARAM} is covered by no signature`,
      { path: 'body' },
    );
  }
  return parseFormParams(body);
}

/** The URL variant whose signature equals `signature`, or undefined; every variant is checked. */
function matchingUrl(
  url: string,
  params: readonly TwilioParam[],
  authToken: string,
  signature: Uint8Array,
): string | undefined {
  let match: string | undefined;
  for (const variant of twilioUrlVariants(url)) {
    const expected = createHmac('sha1', authToken).update(twilioSignedText(variant, params), 'utf8').digest();
    if (bytesEqual(expected, signature) && match === undefined) match = variant;
  }
  return match;
}
