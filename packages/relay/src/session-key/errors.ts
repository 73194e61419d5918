import { RelayError } from '../errors.js';
/** Stable codes of the errors `buildSessionKey` and `canonicalWhatsAppIdentifier` throw. */
export type SessionKeyErrorCode =
  | 'whatsapp_identifier_unresolvable'
  | 'invalid_session_source'
  | 'invalid_session_key_options';

/**
 * Base class of every error the session-key oracle throws. `path` names the source field or option
 * that failed (`chat_id`, `user_id_alt`, `options.profile`, …; `''` for the source itself).
 */
export abstract class SessionKeyError extends RelayError {
  abstract override readonly code: SessionKeyErrorCode;
}

/**
 * The gateway itself crashes on this source: a WhatsApp identifier that normalises to text the
 * gateway's LID-mapping walk refuses (anything outside `[A-Za-z0-9@.+-]`, such as a space), or to
 * nothing on the walk's second normalisation (`"++"`). The gateway raises `ValueError: min() arg is
 * an empty sequence` there; no session key exists for such a source.
 */
export class UnresolvableWhatsAppIdentifierError extends SessionKeyError {
  override readonly name = 'UnresolvableWhatsAppIdentifierError';
  readonly code = 'whatsapp_identifier_unresolvable';
  /** The identifier after the gateway's normalisation, i.e. the text it could not resolve. */
  readonly normalized: string;

  constructor(path: string, normalized: string) {
    super(
      `WhatsApp identifier in ${path} normalises to ${JSON.stringify(normalized)}, which the gateway cannot resolve (it crashes on this source)`,
      path,
    );
    this.normalized = normalized;
  }
}

/**
 * The source is not something the gateway could hold: not an object, a missing or empty
 * `platform`, or a field value with no faithful Python rendering (an object, an array, a number
 * JavaScript cannot tell apart from a different Python value).
 */
export class InvalidSessionKeySourceError extends SessionKeyError {
  override readonly name = 'InvalidSessionKeySourceError';
  readonly code = 'invalid_session_source';
}

/** An option of `buildSessionKey` has the wrong type or an unknown value. */
export class InvalidSessionKeyOptionsError extends SessionKeyError {
  override readonly name = 'InvalidSessionKeyOptionsError';
  readonly code = 'invalid_session_key_options';
}
