import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { RelayError } from '../../errors.js';
import { assertNonEmptyString, assertOptions, maxSkewSeconds, unixSeconds } from './arguments.js';
import { decodeHex } from './bytes.js';
import { parseJsonBody } from './json-body.js';
import { type EdgeRequest, headerValue, parseEdgeRequest } from './request.js';
import { freshTimestamp } from './timestamp.js';

/** The header holding the hex Ed25519 signature of a Discord interaction. */
export const DISCORD_SIGNATURE_HEADER = 'X-Signature-Ed25519';
/** The header holding the signed unix-seconds timestamp of a Discord interaction. */
export const DISCORD_TIMESTAMP_HEADER = 'X-Signature-Timestamp';

/** Options of {@link verifyDiscordInteraction}. */
export interface DiscordVerifierOptions {
  /** The application's public key from the Developer Portal: 64 hex characters (32 bytes). */
  readonly publicKey: string;
  /** Seconds the signed timestamp may be away from `now`, either way; default 300. */
  readonly maxSkewSeconds?: number | undefined;
  /** The clock in unix seconds (fractions are truncated); the current time when absent. */
  readonly now?: number | undefined;
}

/** A Discord interaction object: `type` 1 is a PING, which must be answered with `{ type: 1 }`. */
export interface DiscordInteraction {
  readonly type: number;
  readonly [field: string]: unknown;
}

/** A Discord interaction whose signature and timestamp checked out. */
export interface VerifiedDiscordInteraction {
  /** The parsed body. It still holds the interaction `token`: strip it before it leaves the edge. */
  readonly interaction: DiscordInteraction;
  /** The raw body, exactly the bytes that were signed. */
  readonly body: Uint8Array;
  /** The signed timestamp, in unix seconds. */
  readonly timestamp: number;
}

/**
 * Verifies a Discord interaction webhook: the `X-Signature-Ed25519` header must be the Ed25519
 * signature, under the application's public key, of the `X-Signature-Timestamp` header's bytes
 * followed by the raw body. Then the timestamp must be within `maxSkewSeconds` of the clock, and
 * only then is the body parsed: it must be a UTF-8 JSON object with an integer `type`.
 *
 * Throws a `RelayError` with code `missing_signature`, `malformed_signature` (not 128 hex
 * characters), `bad_signature`, `missing_timestamp`, `malformed_timestamp`, `stale_timestamp`,
 * `malformed_body`, or `invalid_argument` for unusable options. Answer every refusal
 * with 401: Discord probes endpoints with bad signatures.
 *
 * @example
 * const { interaction } = verifyDiscordInteraction(
 *   { method: 'POST', url, headers: request.headers, body: new Uint8Array(await request.arrayBuffer()) },
 *   { publicKey: process.env.DISCORD_PUBLIC_KEY! },
 * );
 * if (interaction.type === 1) return Response.json({ type: 1 });
 */
export function verifyDiscordInteraction(
  request: EdgeRequest,
  options: DiscordVerifierOptions,
): VerifiedDiscordInteraction {
  assertOptions(options);
  const key = discordPublicKey(options.publicKey);
  const maxSkew = maxSkewSeconds(options.maxSkewSeconds);
  const now = unixSeconds(options.now);
  parseEdgeRequest(request);
  const { headers, body } = request;

  const signatureText = headerValue(headers, DISCORD_SIGNATURE_HEADER);
  if (signatureText === undefined) {
    throw new RelayError('missing_signature', `no ${DISCORD_SIGNATURE_HEADER} header`, {
      path: DISCORD_SIGNATURE_HEADER,
    });
  }
  const timestampText = headerValue(headers, DISCORD_TIMESTAMP_HEADER);
  if (timestampText === undefined) {
    throw new RelayError('missing_timestamp', `no ${DISCORD_TIMESTAMP_HEADER} header`, {
      path: DISCORD_TIMESTAMP_HEADER,
    });
  }
  const signature = decodeHex(signatureText, 64);
  if (signature === undefined) {
    throw new RelayError('malformed_signature', `${DISCORD_SIGNATURE_HEADER} must be 128 hex characters`, {
      path: DISCORD_SIGNATURE_HEADER,
    });
  }
  const signed = Buffer.concat([Buffer.from(timestampText, 'utf8'), body]);
  if (!verify(null, signed, key, signature)) {
    throw new RelayError('bad_signature', 'the interaction is not signed by this application', {
      path: DISCORD_SIGNATURE_HEADER,
    });
  }
  const timestamp = freshTimestamp(timestampText, now, maxSkew, DISCORD_TIMESTAMP_HEADER);
  return { interaction: interactionOf(parseJsonBody(body)), body, timestamp };
}

/** The Ed25519 public key of a 64-hex-character application key. */
function discordPublicKey(publicKey: unknown): KeyObject {
  assertNonEmptyString(publicKey, 'publicKey');
  const raw = decodeHex(publicKey, 32);
  if (raw === undefined) {
    throw new RelayError('invalid_argument', 'publicKey must be 64 hex characters (32 bytes)', {
      path: 'publicKey',
    });
  }
  try {
    const x = Buffer.from(raw).toString('base64url');
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
  } catch (error) {
    throw new RelayError('invalid_argument', 'publicKey is not an Ed25519 public key', {
      path: 'publicKey',
      cause: error,
    });
  }
}

/** The parsed body as an interaction: a JSON object whose `type` is an integer. */
function interactionOf(value: unknown): DiscordInteraction {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RelayError('malformed_body', 'the interaction is not a JSON object', { path: 'body' });
  }
  if (!Number.isSafeInteger((value as { type?: unknown }).type)) {
    throw new RelayError('malformed_body', 'the interaction has no integer type', { path: 'body.type' });
  }
  return value as DiscordInteraction;
}
