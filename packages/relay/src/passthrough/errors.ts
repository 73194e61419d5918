import { RelayError } from '../errors.js';

/** Base class of every error the passthrough, prompt-callback and relay-URL helpers throw. */
export abstract class PassthroughError extends RelayError {}

/** An argument has the wrong type (a body that is not a `Uint8Array`, a header name that is not a string). */
export class PassthroughArgumentError extends PassthroughError {
  override readonly name = 'PassthroughArgumentError';
  readonly code = 'passthrough_invalid_argument';
}

/** `bodyB64` is not canonical padded standard base64 (only the strict decoder throws this). */
export class InvalidPassthroughBodyError extends PassthroughError {
  override readonly name = 'InvalidPassthroughBodyError';
  readonly code = 'passthrough_body_invalid';
}

/**
 * A wire `headers` value the gateway cannot read: a non-iterable that crashes its reader, or an entry
 * whose Python `str()` form cannot be reproduced (a float, an object, a huge integer).
 */
export class InvalidPassthroughHeadersError extends PassthroughError {
  override readonly name = 'InvalidPassthroughHeadersError';
  readonly code = 'passthrough_headers_invalid';
}

/** A prompt or option id does not match `[A-Za-z0-9_.-]{1,32}`, so no callback token can carry it. */
export class InvalidPromptCallbackIdError extends PassthroughError {
  override readonly name = 'InvalidPromptCallbackIdError';
  readonly code = 'prompt_callback_invalid_id';
}

/** The text is not a prompt callback token `hp1:<prompt_id>:<option_id>`. */
export class MalformedPromptCallbackTokenError extends PassthroughError {
  override readonly name = 'MalformedPromptCallbackTokenError';
  readonly code = 'prompt_callback_malformed';
}
