/** Raised for text that Python's `json.loads` refuses. */
export class PythonJsonSyntaxError extends Error {
  override readonly name = 'PythonJsonSyntaxError';
  /** UTF-16 offset of the failure in the text. */
  readonly offset: number;

  constructor(message: string, offset: number) {
    super(`${message} at offset ${offset}`);
    this.offset = offset;
  }
}
