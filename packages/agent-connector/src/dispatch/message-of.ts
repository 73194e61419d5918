/** The text of a thrown value (`error.message` for an `Error`), without ever throwing itself. */
export function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return 'unprintable error';
  }
}
