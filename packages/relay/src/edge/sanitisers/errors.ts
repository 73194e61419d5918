import { RelayError } from '../../errors.js';

/** Stable codes of the errors the edge sanitisers throw. */
export type SanitiserErrorCode = 'sanitiser_invalid_argument' | 'sanitiser_malformed_payload';

/**
 * Base class of every error the edge sanitisers throw. `path` names the option, or the field of the
 * payload, that failed.
 */
export abstract class SanitiserError extends RelayError {
  abstract override readonly name: string;
  abstract override readonly code: SanitiserErrorCode;
}

/** A sanitiser was called with an unusable argument or option (a bug or a bad configuration). */
export class SanitiserArgumentError extends SanitiserError {
  override readonly name = 'SanitiserArgumentError';
  readonly code = 'sanitiser_invalid_argument';
}

/**
 * A verified payload cannot be sanitised: not a UTF-8 JSON object (Discord), an id of a type the
 * gateway's `str()` rendering cannot be reproduced for, or XML without a readable `<xml>` root (WeCom).
 */
export class MalformedWebhookPayloadError extends SanitiserError {
  override readonly name = 'MalformedWebhookPayloadError';
  readonly code = 'sanitiser_malformed_payload';
}
