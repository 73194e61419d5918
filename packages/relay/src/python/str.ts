import type { JsonValue } from '../json/json-value.js';
import { pythonFloatRepr } from './float-repr.js';

/**
 * Python's `str(value)` for a value the gateway read from JSON, as `str()`, an f-string or
 * `":".join(...)` renders it: a string as is, `None` (`null`, or `undefined` for an absent key),
 * `True`/`False`, lists and dicts in `repr` form. JavaScript has one number type, so an integral
 * `number` renders as a Python `int` (`1.0` on the wire cannot be told from `1` here) and any other as
 * the float `repr` (`1e-05`, `nan`); a `bigint` is a Python `int`. Callers for which that choice
 * could be wrong (an integral number beyond ±(2^53 − 1), `-0`) refuse such values before calling.
 *
 * @example
 * pythonStr([1, 'a', null]); // "[1, 'a', None]"
 * pythonStr(1e-5); // '1e-05'
 */
export function pythonStr(value: JsonValue | bigint | undefined): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

/** Python's `repr(value)` for a value the gateway read from JSON; numbers as in {@link pythonStr}. */
function pythonRepr(value: JsonValue | bigint | undefined): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number')
    return Number.isInteger(value) ? BigInt(value).toString() : pythonFloatRepr(value);
  if (typeof value === 'string') return pythonStringRepr(value);
  if (Array.isArray(value)) return `[${(value as readonly JsonValue[]).map(pythonRepr).join(', ')}]`;
  const entries = Object.entries(value as { readonly [key: string]: JsonValue });
  return `{${entries.map(([k, v]) => `${pythonStringRepr(k)}: ${pythonRepr(v)}`).join(', ')}}`;
}

/** Characters `str.isprintable()` rejects: control, format, surrogate, private use, unassigned, separators. */
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python's `repr(str)`: single quotes unless the text has `'` and no `"`; non-printables escaped. */
function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch !== ' ' && NON_PRINTABLE.test(ch)) out += escapeCodePoint(code);
    else out += ch;
  }
  return out + quote;
}

function escapeCodePoint(code: number): string {
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}
