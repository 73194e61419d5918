import type { HearthNetError } from '../../capabilities/index.js';

// What a reference node answers for the bus's own refusals (note §6, §19), which a node serving the
// reference wire mirrors: FastAPI's `{"detail": …}` for a body that is not JSON, `missing_capability`
// and `invalid_version` with 400, and `call_error` with 500 when no provider serves the call.

/** The status and body a reference node answers instead of the contract's §5.4 body. */
export interface ReferenceAnswer {
  readonly status: number;
  readonly body: { readonly [key: string]: string };
}

const answers = new WeakMap<HearthNetError, ReferenceAnswer>();

/** Marks `error` as answered, on the reference wire, with `answer`; returns the error. */
export function withReferenceAnswer<E extends HearthNetError>(error: E, answer: ReferenceAnswer): E {
  answers.set(error, answer);
  return error;
}

/** The reference answer `error` was marked with, if any. */
export function referenceAnswerOf(error: HearthNetError): ReferenceAnswer | undefined {
  return answers.get(error);
}

/** Python's `str.isspace()` characters, which `int()` strips around a number. */
const PYTHON_SPACE = /^[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*/u;
const PYTHON_SPACE_END = /[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/u;
/** Python `int()` digits: any Unicode decimal digit, single underscores between them, an optional sign. */
const PYTHON_INT = /^[+-]?\p{Nd}+(?:_\p{Nd}+)*$/u;
const DECIMAL_DIGIT = /^\p{Nd}$/u;

/**
 * A reference node's reading of `version` (`_parse_version`: `"major.minor"` through Python `int()`,
 * extra parts ignored, a missing minor read as 0): `"1"` and `"1.0.5"` are 1.0, `" 1 . 0 "`, `"01.00"`,
 * `"1_0.0"` and Arabic-Indic digits are read as Python reads them, and negative numbers are taken
 * (no provider serves them). The result is `{ version: "M.m" }`, or `{ refused }` with the
 * `ValueError` text Python gives for the first part it cannot read.
 *
 * @example
 * referenceVersion('1'); // { version: '1.0' }
 * referenceVersion('1.x'); // { refused: "invalid literal for int() with base 10: 'x'" }
 */
export function referenceVersion(
  version: string,
): { readonly version: string } | { readonly refused: string } {
  const [major = '', minor = '0'] = version.split('.');
  const parsedMajor = pythonInt(major);
  if (parsedMajor === undefined) return { refused: intRefusal(major) };
  const parsedMinor = pythonInt(minor);
  if (parsedMinor === undefined) return { refused: intRefusal(minor) };
  return { version: `${parsedMajor}.${parsedMinor}` };
}

/** Python `int(text)` as decimal text (exact, any size), or `undefined` where Python raises. */
function pythonInt(text: string): string | undefined {
  const trimmed = text.replace(PYTHON_SPACE, '').replace(PYTHON_SPACE_END, '');
  if (!PYTHON_INT.test(trimmed)) return undefined;
  const negative = trimmed.startsWith('-');
  let digits = '';
  for (const character of trimmed.replace(/^[+-]/, '').replaceAll('_', '')) {
    digits += String(decimalDigitValue(character));
  }
  const magnitude = BigInt(digits);
  return (negative && magnitude !== 0n ? -magnitude : magnitude).toString();
}

/**
 * The value of a Unicode decimal digit: digits come in runs of ten from zero upwards (several runs
 * may follow one another, as the mathematical digits do).
 */
function decimalDigitValue(character: string): number {
  const codePoint = character.codePointAt(0) as number;
  let start = codePoint;
  while (DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start -= 1;
  return (codePoint - start) % 10;
}

/** Python's `ValueError` text for `int(text)`. */
function intRefusal(text: string): string {
  return `invalid literal for int() with base 10: ${pythonRepr(text)}`;
}

/**
 * Python's `repr()` of a string for the printable-ASCII cases, and its escapes for control characters;
 * other characters are kept as they are (Python escapes the non-printable ones among them too).
 */
function pythonRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const character of text) {
    const code = character.codePointAt(0) as number;
    if (character === '\\' || character === quote) out += `\\${character}`;
    else if (character === '\n') out += '\\n';
    else if (character === '\r') out += '\\r';
    else if (character === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += character;
  }
  return out + quote;
}
