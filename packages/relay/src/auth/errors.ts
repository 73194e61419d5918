import { RelayError } from '../errors.js';

/** Base class of every error the channel-token functions throw. */
export abstract class RelayAuthError extends RelayError {}

/** An argument has the wrong type or is out of range (a non-string secret, a fractional TTL, a NaN clock). */
export class RelayTokenArgumentError extends RelayAuthError {
  override readonly name = 'RelayTokenArgumentError';
  readonly code = 'relay_token_invalid_argument';
}

/**
 * A payload or secret holds an unpaired UTF-16 surrogate. It has no UTF-8 form: Python's `str.encode`
 * raises on it, and `TextEncoder` would silently sign U+FFFD instead.
 */
export class RelayTokenSurrogateError extends RelayAuthError {
  override readonly name = 'RelayTokenSurrogateError';
  readonly code = 'relay_token_unpaired_surrogate';
}

/** `mintRelayToken` was given an empty secret: the verifier skips empty secrets, so no such token can verify. */
export class EmptyRelaySecretError extends RelayAuthError {
  override readonly name = 'EmptyRelaySecretError';
  readonly code = 'relay_secret_empty';
}

/** The text is not a channel token in its one canonical form (see `parseRelayToken`). */
export class MalformedRelayTokenError extends RelayAuthError {
  override readonly name = 'MalformedRelayTokenError';
  readonly code = 'relay_token_malformed';
}
