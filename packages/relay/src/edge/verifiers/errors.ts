import { RelayError } from '../../errors.js';

/** Stable codes of the errors the edge webhook verifiers throw. */
export type EdgeVerificationErrorCode =
  | 'invalid_argument'
  | 'malformed_request'
  | 'missing_signature'
  | 'malformed_signature'
  | 'bad_signature'
  | 'missing_timestamp'
  | 'malformed_timestamp'
  | 'stale_timestamp'
  | 'body_hash_mismatch'
  | 'malformed_body'
  | 'decrypt_failed'
  | 'corp_id_mismatch';

/**
 * Base class of every error the edge webhook verifiers (Discord, Twilio, WeCom) throw: catch it to
 * refuse the request. Every code but `invalid_argument` describes the request, so answer those
 * with 401/403 and never echo the message to the sender; `invalid_argument` is a bug or a bad
 * configuration on this side.
 */
export abstract class EdgeVerificationError extends RelayError {
  abstract override readonly name: string;
  abstract override readonly code: EdgeVerificationErrorCode;
}

/** A verifier was called with unusable options or a request of the wrong shape (not a refusal). */
export class EdgeVerifierArgumentError extends EdgeVerificationError {
  override readonly name = 'EdgeVerifierArgumentError';
  readonly code = 'invalid_argument';
}

/** The request lacks a part the provider always sends (a query parameter, a supported method). */
export class MalformedEdgeRequestError extends EdgeVerificationError {
  override readonly name = 'MalformedEdgeRequestError';
  readonly code = 'malformed_request';
}

/** The request carries no signature (header or query parameter absent or empty). */
export class MissingSignatureError extends EdgeVerificationError {
  override readonly name = 'MissingSignatureError';
  readonly code = 'missing_signature';
}

/** The signature is not in the provider's encoding or has the wrong length. */
export class MalformedSignatureError extends EdgeVerificationError {
  override readonly name = 'MalformedSignatureError';
  readonly code = 'malformed_signature';
}

/** The signature is well formed but does not sign this request under the configured secret. */
export class BadSignatureError extends EdgeVerificationError {
  override readonly name = 'BadSignatureError';
  readonly code = 'bad_signature';
}

/** The request carries no timestamp. */
export class MissingTimestampError extends EdgeVerificationError {
  override readonly name = 'MissingTimestampError';
  readonly code = 'missing_timestamp';
}

/** The timestamp is not a whole number of unix seconds in decimal digits. */
export class MalformedTimestampError extends EdgeVerificationError {
  override readonly name = 'MalformedTimestampError';
  readonly code = 'malformed_timestamp';
}

/** The signed timestamp is further from the clock than the allowed skew (a replay, or a bad clock). */
export class StaleTimestampError extends EdgeVerificationError {
  override readonly name = 'StaleTimestampError';
  readonly code = 'stale_timestamp';
}

/** Twilio: the body's SHA-256 differs from the signed `bodySHA256` query parameter. */
export class BodyHashMismatchError extends EdgeVerificationError {
  override readonly name = 'BodyHashMismatchError';
  readonly code = 'body_hash_mismatch';
}

/** The body is not what the provider sends (not UTF-8, not JSON, no single `<Encrypt>` element, …). */
export class MalformedBodyError extends EdgeVerificationError {
  override readonly name = 'MalformedBodyError';
  readonly code = 'malformed_body';
}

/** WeCom: the signed ciphertext does not decrypt to a well-formed message (base64, padding, layout). */
export class DecryptFailedError extends EdgeVerificationError {
  override readonly name = 'DecryptFailedError';
  readonly code = 'decrypt_failed';
}

/** WeCom: the decrypted message names another receiver (corp id or suite id) than the configured one. */
export class CorpIdMismatchError extends EdgeVerificationError {
  override readonly name = 'CorpIdMismatchError';
  readonly code = 'corp_id_mismatch';
}
