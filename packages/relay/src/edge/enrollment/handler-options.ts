import { RelayError } from '../../errors.js';
import { edgeErrorResponse } from '../http/error-response.js';
import { isEdgeHttpError } from '../http/refusals.js';

/** Options every enrollment endpoint takes. */
export interface EnrollmentHandlerBaseOptions {
  /**
   * Receives what made the endpoint answer 500 `internal_error`: a store or verifier that threw or
   * broke its contract. The endpoint itself never puts a secret or token in an error. Default: ignore.
   */
  readonly onError?: (error: unknown) => void;
  /** The largest request body accepted, in bytes; a larger one is answered 413. Default 64 KiB. */
  readonly maxBodyBytes?: number;
}

/** The default {@link EnrollmentHandlerBaseOptions.maxBodyBytes}. */
export const DEFAULT_ENROLLMENT_MAX_BODY_BYTES = 64 * 1024;

/** The checked base options. */
export interface ResolvedBaseOptions {
  readonly onError: (error: unknown) => void;
  readonly maxBodyBytes: number;
}

/**
 * Checks the options object, the base options and that every name in `required` is an object or a
 * function (a store or a callback).
 *
 * @throws {RelayError} `invalid_enrollment_argument`, path `options.<name>`.
 */
export function resolveBaseOptions(
  options: EnrollmentHandlerBaseOptions,
  required: Readonly<Record<string, 'object' | 'function'>>,
): ResolvedBaseOptions {
  if (typeof options !== 'object' || options === null) {
    throw new RelayError('invalid_enrollment_argument', 'options must be an object', { path: 'options' });
  }
  const fields = options as unknown as Readonly<Record<string, unknown>>;
  for (const [name, kind] of Object.entries(required)) {
    const value = fields[name];
    if (typeof value !== kind || value === null) {
      throw new RelayError('invalid_enrollment_argument', `options.${name} must be a ${kind}`, {
        path: `options.${name}`,
      });
    }
  }
  const { onError = () => undefined, maxBodyBytes = DEFAULT_ENROLLMENT_MAX_BODY_BYTES } = options;
  if (typeof onError !== 'function') {
    throw new RelayError('invalid_enrollment_argument', 'options.onError must be a function', {
      path: 'options.onError',
    });
  }
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) {
    throw new RelayError('invalid_enrollment_argument', 'options.maxBodyBytes must be a positive integer', {
      path: 'options.maxBodyBytes',
    });
  }
  return { onError, maxBodyBytes };
}

/**
 * The answer to what a handler threw: an edge HTTP refusal with its status and `{error, message}`,
 * anything else a bare 500 `internal_error`, reported to `onError` first.
 */
export function answerFailure(error: unknown, onError: (error: unknown) => void): Response {
  if (!isEdgeHttpError(error)) onError(error);
  return edgeErrorResponse(error);
}
