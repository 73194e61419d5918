import { RelayError } from '../errors.js';

// Python's `json.loads`, keeping what the gateway's later `str()` and `==` can tell apart and
// JavaScript's `JSON.parse` loses: an `int` (exact, as a `bigint`) from a `float` (`1.0` is not `1`),
// and a dict's key order (JavaScript objects put integer-like keys first).

/**
 * A value as Python's `json.loads` returns it: `bigint` is an `int`, `number` a `float` (`NaN`,
 * `Infinity` and `1e400` included), a `Map` a `dict` in insertion order.
 */
export type PythonJsonValue =
  | null
  | boolean
  | string
  | bigint
  | number
  | readonly PythonJsonValue[]
  | PythonJsonDict;

/** A JSON object as a Python `dict`: string keys in first-insertion order, a repeated key's last value. */
export type PythonJsonDict = ReadonlyMap<string, PythonJsonValue>;

/**
 * Containers nested deeper than this are not read. Python's reader raises `RecursionError` near its
 * recursion limit (1000 frames, less the depth it is called at); no gateway input comes close.
 */
export const MAX_PYTHON_JSON_NESTING = 900;

/** Python refuses to convert an integer of more digits than this (`sys.get_int_max_str_digits()`). */
const MAX_PYTHON_INT_DIGITS = 4300;

const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
const WORDS: readonly (readonly [string, PythonJsonValue])[] = [
  ['null', null],
  ['true', true],
  ['false', false],
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['-Infinity', Number.NEGATIVE_INFINITY],
];

/**
 * Reads JSON text exactly as Python's `json.loads` does: standard JSON plus the bare tokens `NaN`,
 * `Infinity` and `-Infinity`; integers exact, duplicate keys keeping their first place and last value.
 *
 * @throws {RelayError} `malformed_json` (`details.offset`: where) for anything `json.loads` raises on: syntax
 * (a leading BOM included), an integer of more than {@link MAX_PYTHON_INT_DIGITS} digits, nesting beyond
 * {@link MAX_PYTHON_JSON_NESTING}.
 */
export function parsePythonJsonExact(text: string): PythonJsonValue {
  return new PythonJsonReader(text).readDocument();
}

class PythonJsonReader {
  private pos = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  readDocument(): PythonJsonValue {
    this.skipWhitespace();
    const value = this.readValue();
    this.skipWhitespace();
    if (this.pos !== this.text.length) throw this.fail('extra data');
    return value;
  }

  private readValue(): PythonJsonValue {
    const ch = this.text[this.pos];
    if (ch === '{' || ch === '[') {
      if (++this.depth > MAX_PYTHON_JSON_NESTING) throw this.fail('nesting too deep');
      const value = ch === '{' ? this.readObject() : this.readArray();
      this.depth--;
      return value;
    }
    if (ch === '"') return this.readString();
    for (const [word, value] of WORDS) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    return this.readNumber();
  }

  private readNumber(): PythonJsonValue {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (match === null) throw this.fail('expecting value');
    const lexeme = match[0];
    if (match[1] !== undefined || match[2] !== undefined) {
      this.pos += lexeme.length;
      return Number(lexeme);
    }
    if (lexeme.replace('-', '').length > MAX_PYTHON_INT_DIGITS) {
      throw this.fail(`integer of more than ${MAX_PYTHON_INT_DIGITS} digits`);
    }
    this.pos += lexeme.length;
    return BigInt(lexeme);
  }

  private readObject(): PythonJsonDict {
    const result = new Map<string, PythonJsonValue>();
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return result;
    }
    for (;;) {
      if (this.text[this.pos] !== '"') throw this.fail('expecting property name');
      const key = this.readString();
      this.skipWhitespace();
      if (this.text[this.pos] !== ':') throw this.fail("expecting ':'");
      this.pos++;
      this.skipWhitespace();
      result.set(key, this.readValue());
      this.skipWhitespace();
      const next = this.text[this.pos++];
      if (next === '}') return result;
      if (next !== ',') throw this.fail("expecting ',' or '}'");
      this.skipWhitespace();
    }
  }

  private readArray(): PythonJsonValue[] {
    const result: PythonJsonValue[] = [];
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return result;
    }
    for (;;) {
      result.push(this.readValue());
      this.skipWhitespace();
      const next = this.text[this.pos++];
      if (next === ']') return result;
      if (next !== ',') throw this.fail("expecting ',' or ']'");
      this.skipWhitespace();
    }
  }

  private readString(): string {
    const chunks: string[] = [];
    let start = ++this.pos;
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === undefined) throw this.fail('unterminated string');
      if (ch === '"') {
        chunks.push(this.text.slice(start, this.pos++));
        return chunks.join('');
      }
      if (ch < ' ') {
        this.pos++;
        throw this.fail('invalid control character');
      }
      if (ch !== '\\') {
        this.pos++;
        continue;
      }
      chunks.push(this.text.slice(start, this.pos));
      const escapeChar = this.text[this.pos + 1];
      this.pos += 2;
      if (escapeChar === 'u') {
        const hex = this.text.slice(this.pos, this.pos + 4);
        if (!HEX4.test(hex)) throw this.fail('invalid \\uXXXX escape');
        chunks.push(String.fromCharCode(Number.parseInt(hex, 16)));
        this.pos += 4;
      } else {
        const decoded = escapeChar === undefined ? undefined : ESCAPES[escapeChar];
        if (decoded === undefined) throw this.fail('invalid escape');
        chunks.push(decoded);
      }
      start = this.pos;
    }
  }

  private skipWhitespace(): void {
    WHITESPACE.lastIndex = this.pos;
    this.pos += WHITESPACE.exec(this.text)?.[0].length ?? 0;
  }

  /** `malformed_json`: text `json.loads` refuses, at UTF-16 offset `details.offset`. */
  private fail(message: string): RelayError {
    return new RelayError('malformed_json', `${message} at offset ${this.pos}`, {
      details: { offset: this.pos },
    });
  }
}
