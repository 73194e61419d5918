import { HearthNetLocalError } from '../errors.js';
import { PythonFloat } from './python-float.js';

/**
 * How deep arrays and objects may nest: Python's default recursion limit, so every nesting `json.loads`
 * reads (≈ 990 levels, a little less the deeper its caller's stack) is read here too.
 */
const MAX_DEPTH = 1000;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const ESCAPES: { readonly [char: string]: string } = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/**
 * Parses JSON the way Python's `json.loads` types its numbers, so the reference's event bytes can be
 * re-derived: an integer token is a `number` (a `bigint` beyond 2⁵³), a token with a fraction or an
 * exponent is a float — a plain `number`, or a {@link PythonFloat} when its value is integral
 * (`1.0`, `-0.0`, `1e16`). Duplicate keys keep the last value, as Python does. `NaN` and `Infinity`
 * (which Python also reads) are refused.
 *
 * @throws {HearthNetLocalError} `reference_json_syntax`
 * @example
 * const event = parseReferenceJson(body); // then verifyReferenceEvent(event)
 */
export function parseReferenceJson(text: string): unknown {
  if (typeof text !== 'string')
    throw new HearthNetLocalError('reference_json_syntax', 'expected JSON text at offset 0', {
      details: { offset: 0 },
    });
  const parser = new Parser(text);
  parser.skipWhitespace();
  const value = parser.value(0);
  parser.skipWhitespace();
  if (parser.offset !== text.length) parser.fail('unexpected data after the JSON value');
  return value;
}

class Parser {
  offset = 0;

  constructor(private readonly text: string) {}

  fail(message: string): never {
    throw new HearthNetLocalError('reference_json_syntax', `${message} at offset ${this.offset}`, {
      details: { offset: this.offset },
    });
  }

  skipWhitespace(): void {
    while (this.offset < this.text.length && ' \t\n\r'.includes(this.text.charAt(this.offset))) {
      this.offset++;
    }
  }

  value(depth: number): unknown {
    const char = this.text.charAt(this.offset);
    if (char === '{') return this.object(depth + 1);
    if (char === '[') return this.array(depth + 1);
    if (char === '"') return this.string();
    if (char === '-' || (char >= '0' && char <= '9')) return this.number();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.offset)) {
        this.offset += word.length;
        return value;
      }
    }
    return this.fail('expected a JSON value');
  }

  private object(depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) this.fail('nested too deeply');
    const result: Record<string, unknown> = {};
    this.offset++;
    this.skipWhitespace();
    if (this.text.charAt(this.offset) === '}') {
      this.offset++;
      return result;
    }
    for (;;) {
      if (this.text.charAt(this.offset) !== '"') this.fail('expected a string key');
      const key = this.string();
      this.skipWhitespace();
      if (this.text.charAt(this.offset) !== ':') this.fail("expected ':'");
      this.offset++;
      this.skipWhitespace();
      Object.defineProperty(result, key, {
        value: this.value(depth),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipWhitespace();
      const next = this.text.charAt(this.offset);
      if (next !== ',' && next !== '}') this.fail("expected ',' or '}'");
      this.offset++;
      if (next === '}') return result;
      this.skipWhitespace();
    }
  }

  private array(depth: number): unknown[] {
    if (depth > MAX_DEPTH) this.fail('nested too deeply');
    const result: unknown[] = [];
    this.offset++;
    this.skipWhitespace();
    if (this.text.charAt(this.offset) === ']') {
      this.offset++;
      return result;
    }
    for (;;) {
      result.push(this.value(depth));
      this.skipWhitespace();
      const next = this.text.charAt(this.offset);
      if (next !== ',' && next !== ']') this.fail("expected ',' or ']'");
      this.offset++;
      if (next === ']') return result;
      this.skipWhitespace();
    }
  }

  private string(): string {
    let out = '';
    this.offset++;
    for (;;) {
      if (this.offset >= this.text.length) this.fail('unterminated string');
      const char = this.text.charAt(this.offset++);
      if (char === '"') return out;
      if (char < ' ') this.fail('control character in a string');
      if (char !== '\\') {
        out += char;
        continue;
      }
      const escaped = this.text.charAt(this.offset++);
      const simple = ESCAPES[escaped];
      if (simple !== undefined) out += simple;
      else if (escaped === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.offset, this.offset + 4))) {
        out += String.fromCharCode(Number.parseInt(this.text.slice(this.offset, this.offset + 4), 16));
        this.offset += 4;
      } else this.fail('invalid escape');
    }
  }

  private number(): number | bigint | PythonFloat {
    NUMBER.lastIndex = this.offset;
    const match = NUMBER.exec(this.text);
    if (match === null) return this.fail('invalid number');
    this.offset += match[0].length;
    const token = match[0];
    const value = Number(token);
    if (match[1] === undefined && match[2] === undefined) {
      return Number.isSafeInteger(value) ? value : BigInt(token);
    }
    if (!Number.isFinite(value)) this.fail('a float beyond the double range');
    return Number.isInteger(value) ? new PythonFloat(value) : value;
  }
}
