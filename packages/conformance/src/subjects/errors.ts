/** A subjects description (the default export of a `--subjects` module) does not have the documented shape. */
export class InvalidSubjectsError extends Error {
  override readonly name = 'InvalidSubjectsError';
  readonly code = 'invalid_subjects';
}
