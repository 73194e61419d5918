/** Characters RFC 8187 lets stand unencoded in an `ext-value` (`attr-char`). */
const ATTR_CHAR = /^[A-Za-z0-9!#$&+\-.^_`|~]$/;

/**
 * The `Content-Disposition` of a media download (RFC 6266): `attachment`, with
 * `filename="…"` for a plain printable-ASCII name, plus `filename*=UTF-8''…` (RFC 8187
 * percent-encoding) when the name has other characters, in which case `filename` carries an ASCII
 * fallback with `_` in their place. `"`, `\` and `%` also go to the fallback as `_`. The gateway reads
 * only the extension after the first `filename=`, which both forms keep.
 *
 * @example
 * attachmentContentDisposition('cat.jpg'); // 'attachment; filename="cat.jpg"'
 * attachmentContentDisposition('café.png');
 * // `attachment; filename="caf_.png"; filename*=UTF-8''caf%C3%A9.png`
 */
export function attachmentContentDisposition(filename: string | undefined): string {
  if (filename === undefined || filename === '') return 'attachment';
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/gu, '_');
  if (fallback === filename) return `attachment; filename="${filename}"`;
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeExtValue(filename)}`;
}

function encodeExtValue(text: string): string {
  let encoded = '';
  for (const character of text) {
    if (ATTR_CHAR.test(character)) {
      encoded += character;
      continue;
    }
    for (const byte of new TextEncoder().encode(character)) {
      encoded += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    }
  }
  return encoded;
}
