// The few Python forms several packages must reproduce byte for byte: `repr(float)`, a `json.dumps`
// string literal, and the code-point order of `str` (which is also the order of UTF-8 bytes).

/**
 * Python's `repr(float)` (also its `str()`): the shortest digits that read back to the same double,
 * in exponent form below 1e-4 and from 1e16 on (`1e-05`, `1e+16`), otherwise positional with at
 * least one fractional digit (`3.0`, `0.30000000000000004`); `nan`, `inf`, `-inf`, `-0.0`.
 *
 * @example
 * pythonFloatRepr(0.00001); // '1e-05'
 * pythonFloatRepr(2); // '2.0'
 */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const [mantissa = '0', exponentText = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const significand = digits.length > 1 ? `${digits.slice(0, 1)}.${digits.slice(1)}` : digits;
    const exponentSign = exponent < 0 ? '-' : '+';
    return `${sign}${significand}e${exponentSign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const integerPart = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fractionPart = digits.slice(exponent + 1);
  return `${sign}${integerPart}.${fractionPart === '' ? '0' : fractionPart}`;
}

/**
 * A string literal as Python's `json.dumps` writes it, quotes included. With `ensureAscii` (the
 * default, `ensure_ascii=True`) `"`, `\` and every character outside U+0020–U+007E are escaped: `\"`,
 * `\\`, the short escapes `\n \r \t \b \f`, anything else as lowercase `\uXXXX` (an astral character
 * as its surrogate pair, a lone surrogate as itself). Without it, only `"`, `\` and U+0000–U+001F.
 */
export function pythonJsonString(text: string, ensureAscii = true): string {
  return ensureAscii ? quoteAscii(text) : quoteUnicode(text);
}

/** Printable ASCII without `"` and `\`: written as it is. */
const VERBATIM = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  34: '\\"',
  92: '\\\\',
  10: '\\n',
  13: '\\r',
  9: '\\t',
  8: '\\b',
  12: '\\f',
};

function quoteAscii(text: string): string {
  if (VERBATIM.test(text)) return `"${text}"`;
  let out = '"';
  let runStart = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x20 && unit <= 0x7e && unit !== 0x22 && unit !== 0x5c) continue;
    out += text.slice(runStart, i);
    out += SHORT_ESCAPES[unit] ?? `\\u${unit.toString(16).padStart(4, '0')}`;
    runStart = i + 1;
  }
  return `${out}${text.slice(runStart)}"`;
}

/** `ensure_ascii=False`: only `"`, `\` and the C0 controls are escaped (Python's `ESCAPE` set). */
function quoteUnicode(text: string): string {
  let out = '"';
  let runStart = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x20 && unit !== 0x22 && unit !== 0x5c) continue;
    out += text.slice(runStart, i);
    out += SHORT_ESCAPES[unit] ?? `\\u${unit.toString(16).padStart(4, '0')}`;
    runStart = i + 1;
  }
  return `${out}${text.slice(runStart)}"`;
}

/**
 * Compares two strings by Unicode code point, as Python orders `str` (and as UTF-8 bytes sort, for well-formed text). A surrogate pair counts as the
 * one astral code point it encodes; a lone surrogate (which Python strings may hold, e.g. from a
 * `\udc00` escape) counts as its own code point U+D800–U+DFFF, below U+E000 and every astral one.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // Below U+D800 neither unit can be part of a surrogate pair that decides the order.
      return x < 0xd800 || y < 0xd800 ? x - y : compareCodePointsFrom(a, b, i);
    }
  }
  return a.length - b.length;
}

/**
 * Orders two strings that agree up to code unit `i` and differ there, by the code points that hold
 * unit `i`. A high surrogate just before `i` (shared by both) starts the code point in question: it
 * is an astral code point in a string whose unit `i` is a low surrogate and a lone surrogate in the
 * other.
 */
function compareCodePointsFrom(a: string, b: string, i: number): number {
  if (i > 0 && isHighSurrogate(a.charCodeAt(i - 1))) {
    const x = a.codePointAt(i - 1)!;
    const y = b.codePointAt(i - 1)!;
    if (x !== y) return x - y;
    // Both are the same lone high surrogate: the next code points start at `i`.
  }
  return a.codePointAt(i)! - b.codePointAt(i)!;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/**
 * Python's `bool(value)` for a value read from JSON: `None` (`null`, or `undefined` for an absent
 * key), `False`, `0`, `""`, `[]` and `{}` are false; everything else, `NaN` included, is true. A
 * `bigint` stands for a Python `int` (`0n` is false), a `Map` for a `dict`; any other object counts
 * its own enumerable keys (a `PythonFloat`-style wrapper is the caller's to unwrap first).
 *
 * @example
 * isPythonTruthy(Number.NaN); // true
 * isPythonTruthy({}); // false
 */
export function isPythonTruthy(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'bigint') return value !== 0n;
  if (typeof value === 'string') return value !== '';
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof Map) return value.size > 0;
  return typeof value === 'object' ? Object.keys(value).length > 0 : Boolean(value);
}

/**
 * Python's `str(value)` for a value read from JSON, as `str()`, an f-string or
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
export function pythonStr(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

/** Python's `repr(value)` for a value read from JSON; numbers as in {@link pythonStr}. */
function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number')
    return Number.isInteger(value) ? BigInt(value).toString() : pythonFloatRepr(value);
  if (typeof value === 'string') return pythonStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  const entries = Object.entries(value as object);
  return `{${entries.map(([k, v]) => `${pythonStringRepr(k)}: ${pythonRepr(v)}`).join(', ')}}`;
}

/** Characters `str.isprintable()` rejects: control, format, surrogate, private use, unassigned, separators. */
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/**
 * Python's `repr(str)`: single quotes unless the text has `'` and no `"`; `\\`, `\t`, `\n`, `\r` and
 * every character `str.isprintable()` rejects escaped (`\xhh`, `\uhhhh`, `\Uhhhhhhhh`).
 *
 * @example
 * pythonStringRepr("it's"); // `"it's"`
 * pythonStringRepr('a\u200bb'); // `'a\\u200bb'`
 */
export function pythonStringRepr(text: string): string {
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
