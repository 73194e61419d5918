/** Why a value has no canonical JSON form. */
export type CanonicalJsonErrorCode =
  | 'non_finite_number'
  | 'lone_surrogate'
  | 'unsupported_type'
  | 'cycle'
  | 'max_depth';

/**
 * Thrown when a value cannot be written as HearthNet canonical JSON: a NaN or infinite number
 * (`non_finite_number`), a string or key holding a lone UTF-16 surrogate (`lone_surrogate`), a value
 * JSON cannot carry such as `undefined`, a function, a symbol, a sparse array hole or a non-plain object
 * (`unsupported_type`), an object that contains itself (`cycle`), or nesting deeper than
 * {@link MAX_CANONICAL_DEPTH} (`max_depth`).
 */
export class CanonicalJsonError extends Error {
  override readonly name = 'CanonicalJsonError';
  /** The condition that failed. */
  readonly code: CanonicalJsonErrorCode;
  /** Where in the value it failed, as a JSON path such as `$.items[3]["content-type"]`. */
  readonly path: string;

  constructor(code: CanonicalJsonErrorCode, path: string, message: string, options?: ErrorOptions) {
    super(`${message} at ${path}`, options);
    this.code = code;
    this.path = path;
  }
}
