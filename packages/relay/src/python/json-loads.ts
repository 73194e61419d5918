import type { JsonValue } from '../json/json-value.js';

/** Raised by {@link parsePythonJson} for text that Python's `json.loads` refuses. */
export class PythonJsonSyntaxError extends Error {
  override readonly name = 'PythonJsonSyntaxError';
  /** UTF-16 offset of the failure in the text. */
  readonly offset: number;

  constructor(message: string, offset: number) {
    super(`${message} at offset ${offset}`);
    this.offset = offset;
  }
}

/**
 * Reads JSON text the way Python's `json.loads` does: standard JSON plus the bare tokens `NaN`,
 * `Infinity` and `-Infinity`; duplicate keys keep the last value. Integers beyond the double range
 * read as ±Infinity (Python keeps them exact).
 *
 * @throws {PythonJsonSyntaxError} for anything `json.loads` refuses.
 */
export function parsePythonJson(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return new PythonJsonReader(text).readDocument();
  }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;
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

class PythonJsonReader {
  private pos = 0;

  constructor(private readonly text: string) {}

  readDocument(): JsonValue {
    this.skipWhitespace();
    const value = this.readValue();
    this.skipWhitespace();
    if (this.pos !== this.text.length) throw this.fail('extra data');
    return value;
  }

  private readValue(): JsonValue {
    const ch = this.text[this.pos];
    if (ch === '{') return this.readObject();
    if (ch === '[') return this.readArray();
    if (ch === '"') return this.readString();
    for (const [word, value] of [
      ['null', null],
      ['true', true],
      ['false', false],
      ['NaN', Number.NaN],
      ['Infinity', Number.POSITIVE_INFINITY],
      ['-Infinity', Number.NEGATIVE_INFINITY],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.pos;
    const number = NUMBER.exec(this.text);
    if (number === null) throw this.fail('expecting value');
    this.pos += number[0].length;
    return Number(number[0]);
  }

  private readObject(): JsonValue {
    const result: Record<string, JsonValue> = {};
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
      Object.defineProperty(result, key, {
        value: this.readValue(),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipWhitespace();
      const next = this.text[this.pos++];
      if (next === '}') return result;
      if (next !== ',') throw this.fail("expecting ',' or '}'");
      this.skipWhitespace();
    }
  }

  private readArray(): JsonValue {
    const result: JsonValue[] = [];
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
    let result = '';
    this.pos++;
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === undefined) throw this.fail('unterminated string');
      this.pos++;
      if (ch === '"') return result;
      if (ch < ' ') throw this.fail('invalid control character');
      if (ch !== '\\') {
        result += ch;
        continue;
      }
      const escapeChar = this.text[this.pos++];
      if (escapeChar === 'u') {
        const hex = this.text.slice(this.pos, this.pos + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw this.fail('invalid \\uXXXX escape');
        result += String.fromCharCode(Number.parseInt(hex, 16));
        this.pos += 4;
        continue;
      }
      const decoded = escapeChar === undefined ? undefined : ESCAPES[escapeChar];
      if (decoded === undefined) throw this.fail('invalid escape');
      result += decoded;
    }
  }

  private skipWhitespace(): void {
    WHITESPACE.lastIndex = this.pos;
    this.pos += WHITESPACE.exec(this.text)?.[0].length ?? 0;
  }

  private fail(message: string): PythonJsonSyntaxError {
    return new PythonJsonSyntaxError(message, this.pos);
  }
}
