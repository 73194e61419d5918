/** Longest file name, in UTF-8 bytes, that common file systems accept (`NAME_MAX`). */
const MAX_NAME_BYTES = 255;

const utf8 = new TextEncoder();

/**
 * Why `name` cannot be used as one path segment (a folder or file name inside the drop directory), or
 * `undefined` when it can. Refused: the empty string, `.` and `..`, `/` and `\` (path separators on POSIX
 * and Windows), NUL and the other C0 control characters and DEL, and names longer than
 * `maxBytes` UTF-8 bytes. Nothing is trimmed or normalised: the name is used exactly as given.
 */
export function unsafeSegmentReason(name: string, maxBytes = MAX_NAME_BYTES): string | undefined {
  if (name === '') return 'is empty';
  if (name === '.' || name === '..') return `is '${name}'`;
  if (name.includes('/') || name.includes('\\')) return 'contains a path separator';
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'contains a control character';
  if (utf8.encode(name).length > maxBytes) return `is longer than ${maxBytes} UTF-8 bytes`;
  return undefined;
}

/** The longest `dispatch_id` in UTF-8 bytes: room for the `.json` suffix within `NAME_MAX`. */
export const MAX_DISPATCH_ID_BYTES = MAX_NAME_BYTES - '.json'.length;
