/** C0 and C1 controls, DEL, and the bidirectional formatting marks that can disguise an extension. */
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The file name to keep for an upload's `X-Media-Filename`: its last path segment (after the last
 * `/` or `\`), without control characters or bidirectional marks, trimmed. `undefined` when nothing
 * usable is left (an empty name, `.` or `..`). The header is read as the Latin-1 text the gateway
 * sends; the name is only ever served back in `Content-Disposition`, never used as a path.
 *
 * @example
 * sanitizeMediaFilename('../../etc/passwd'); // 'passwd'
 * sanitizeMediaFilename('C:\\Users\\me\\photo.jpg'); // 'photo.jpg'
 */
export function sanitizeMediaFilename(raw: string): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const cleaned = raw.replace(UNSAFE_CHARACTERS, '');
  const name = cleaned.slice(Math.max(cleaned.lastIndexOf('/'), cleaned.lastIndexOf('\\')) + 1).trim();
  return name === '' || name === '.' || name === '..' ? undefined : name;
}
