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
 * Containers nested deeper than this are not read. The gateway's reader raises `RecursionError` near
 * Python's recursion limit (1000 frames, less the depth it is called at) and drops the forward; no
 * Discord interaction comes close.
 */
export const MAX_PYTHON_JSON_NESTING = 900;

/** Python refuses to convert an integer of more digits than this (`sys.get_int_max_str_digits()`). */
const MAX_INT_DIGITS = 4300;

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

/** Thrown inside the reader for text `json.loads` refuses; never leaves this module. */
class Refused extends Error {}

/**
 * `json.loads(text)` as the gateway runs it, or `undefined` where it raises (syntax, a leading BOM,
 * an integer of more than 4300 digits, nesting beyond {@link MAX_PYTHON_JSON_NESTING}).
 */
export function readPythonJson(text: string): PythonJsonValue | undefined {
  try {
    return new Reader(text).readDocument();
  } catch (error) {
    if (error instanceof Refused) return undefined;
    throw error;
  }
}

class Reader {
  private pos = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  readDocument(): PythonJsonValue {
    this.skipWhitespace();
    const value = this.readValue();
    this.skipWhitespace();
    if (this.pos !== this.text.length) throw new Refused();
    return value;
  }

  private readValue(): PythonJsonValue {
    const ch = this.text[this.pos];
    if (ch === '{' || ch === '[') {
      if (++this.depth > MAX_PYTHON_JSON_NESTING) throw new Refused();
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
    if (match === null) throw new Refused();
    const lexeme = match[0];
    this.pos += lexeme.length;
    if (match[1] !== undefined || match[2] !== undefined) return Number(lexeme);
    if (lexeme.replace('-', '').length > MAX_INT_DIGITS) throw new Refused();
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
      if (this.text[this.pos] !== '"') throw new Refused();
      const key = this.readString();
      this.skipWhitespace();
      if (this.text[this.pos++] !== ':') throw new Refused();
      this.skipWhitespace();
      result.set(key, this.readValue());
      this.skipWhitespace();
      const next = this.text[this.pos++];
      if (next === '}') return result;
      if (next !== ',') throw new Refused();
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
      if (next !== ',') throw new Refused();
      this.skipWhitespace();
    }
  }

  private readString(): string {
    const chunks: string[] = [];
    let start = ++this.pos;
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === undefined || ch < ' ') throw new Refused();
      if (ch === '"') {
        chunks.push(this.text.slice(start, this.pos++));
        return chunks.join('');
      }
      if (ch !== '\\') {
        this.pos++;
        continue;
      }
      chunks.push(this.text.slice(start, this.pos));
      const escapeChar = this.text[this.pos + 1];
      if (escapeChar === 'u') {
        const hex = this.text.slice(this.pos + 2, this.pos + 6);
        if (!HEX4.test(hex)) throw new Refused();
        chunks.push(String.fromCharCode(Number.parseInt(hex, 16)));
        this.pos += 6;
      } else {
        const decoded = escapeChar === undefined ? undefined : ESCAPES[escapeChar];
        if (decoded === undefined) throw new Refused();
        chunks.push(decoded);
        this.pos += 2;
      }
      start = this.pos;
    }
  }

  private skipWhitespace(): void {
    WHITESPACE.lastIndex = this.pos;
    this.pos += WHITESPACE.exec(this.text)?.[0].length ?? 0;
  }
}
