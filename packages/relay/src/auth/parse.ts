import { base64UrlDecodeNoPad } from '../encoding/base64.js';
import { RelayError } from '../errors.js';

/** The parts of a channel token, as {@link parseRelayToken} reads them. No signature has been checked. */
export interface ParsedRelayToken {
  /** Everything before the last two `:` — the gateway id for an upgrade token. */
  readonly payload: string;
  /** Expiry in unix seconds; `0` means never. */
  readonly expiresAt: number;
  /** The HMAC-SHA-256 as 64 lowercase hex characters. */
  readonly signature: string;
  /** The text the signature covers: `payload:exp`. */
  readonly signedText: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const CANONICAL_EXP = /^(?:0|[1-9][0-9]{0,15})$/;
const LOWER_HEX_SHA256 = /^[0-9a-f]{64}$/;

/**
 * Reads a channel token in its one canonical form — the form every minter produces — and throws
 * a `RelayError` `relay_token_malformed` for anything else. The token must be strict unpadded base64url of
 * valid UTF-8 `payload:exp:sig`, split from the right; `exp` a decimal integer without sign, leading
 * zeros or whitespace; `sig` 64 lowercase hex characters.
 *
 * The Python mirror (`verify_token`) is more lenient: it also decodes padded or standard-alphabet
 * base64, skips stray characters, reads `exp` with `int()` (`+5`, `007`, ` 5 `) and accepts
 * uppercase hex. Rejecting those keeps one accepted text per token, so changing any character of a
 * token makes it fail.
 *
 * @example
 * parseRelayToken(token); // { payload: 'gw-instance-1', expiresAt: 0, signature: '37aa…3564', signedText: 'gw-instance-1:0' }
 */
export function parseRelayToken(token: string): ParsedRelayToken {
  if (typeof token !== 'string')
    throw new RelayError('relay_token_malformed', 'a token must be a string', { path: 'token' });
  if (token === '') throw new RelayError('relay_token_malformed', 'the token is empty', { path: 'token' });
  const bytes = base64UrlDecodeNoPad(token);
  if (!(bytes instanceof Uint8Array)) {
    throw new RelayError('relay_token_malformed', `the token is not unpadded base64url: ${bytes.refused}`, {
      path: 'token',
    });
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch (cause) {
    throw new RelayError('relay_token_malformed', 'the decoded token is not valid UTF-8', {
      path: 'token',
      cause,
    });
  }
  const sigColon = text.lastIndexOf(':');
  const expColon = sigColon > 0 ? text.lastIndexOf(':', sigColon - 1) : -1;
  if (expColon < 0) {
    throw new RelayError(
      'relay_token_malformed',
      'the decoded token has fewer than three `:`-separated parts',
      { path: 'token' },
    );
  }
  const payload = text.slice(0, expColon);
  const expText = text.slice(expColon + 1, sigColon);
  const signature = text.slice(sigColon + 1);
  if (!CANONICAL_EXP.test(expText) || Number(expText) > Number.MAX_SAFE_INTEGER) {
    throw new RelayError(
      'relay_token_malformed',
      `exp ${JSON.stringify(expText)} is not a canonical decimal number of unix seconds`,
      { path: 'token.exp' },
    );
  }
  if (!LOWER_HEX_SHA256.test(signature)) {
    throw new RelayError('relay_token_malformed', 'the signature is not 64 lowercase hex characters', {
      path: 'token.signature',
    });
  }
  return { payload, expiresAt: Number(expText), signature, signedText: `${payload}:${expText}` };
}

/**
 * The gateway id (payload) of a channel token, read without checking the signature, so a connector
 * can pick that gateway's secret list before calling `verifyRelayToken`. Throws
 * `relay_token_malformed` like {@link parseRelayToken}. Never trust the id before verifying.
 *
 * @example
 * const secrets = store.secretsFor(peekRelayTokenGatewayId(token));
 * const result = verifyRelayToken(token, secrets);
 */
export function peekRelayTokenGatewayId(token: string): string {
  return parseRelayToken(token).payload;
}
