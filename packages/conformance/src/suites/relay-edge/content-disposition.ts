/** A `Content-Disposition` header read back: its type and the file name it carries. */
export interface ContentDisposition {
  /** The disposition type, lowercase (`attachment`, `inline`). */
  readonly type: string;
  /** `filename*` (RFC 8187, decoded) when present, else `filename`; `undefined` with neither. */
  readonly filename: string | undefined;
}

/**
 * Reads a `Content-Disposition` value (RFC 6266): parameters are `token` or quoted-string values,
 * `filename*` is `charset'lang'percent-encoded` (UTF-8 or ISO-8859-1). `undefined` when the header
 * cannot be read.
 */
export function parseContentDisposition(value: string): ContentDisposition | undefined {
  const typeMatch = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*/.exec(value);
  if (typeMatch === null) return undefined;
  const parameters = new Map<string, string>();
  const parameter = /;\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+\*?)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)\s*/gy;
  parameter.lastIndex = typeMatch[0].length;
  let match = parameter.exec(value);
  while (match !== null) {
    const [, name = '', raw = ''] = match;
    const text = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    parameters.set(name.toLowerCase(), text);
    if (parameter.lastIndex === value.length) break;
    match = parameter.exec(value);
  }
  if (parameter.lastIndex !== value.length && parameters.size > 0) return undefined;
  const extended = parameters.get('filename*');
  const filename = extended === undefined ? parameters.get('filename') : decodeExtValue(extended);
  return { type: (typeMatch[1] ?? '').toLowerCase(), filename };
}

/** RFC 8187 `ext-value`: `charset'[language]'value-chars`. */
function decodeExtValue(text: string): string | undefined {
  const match = /^([^']*)'[^']*'(.*)$/.exec(text);
  if (match === null) return undefined;
  const [, charset = '', encoded = ''] = match;
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    if (encoded[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(encoded.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(encoded.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(encoded.charCodeAt(i));
    }
  }
  const label = charset.toLowerCase() === 'iso-8859-1' ? 'latin1' : 'utf-8';
  try {
    return new TextDecoder(label, { fatal: true }).decode(new Uint8Array(bytes));
  } catch {
    return undefined;
  }
}
