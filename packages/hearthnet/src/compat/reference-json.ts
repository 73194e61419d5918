import {
  compareCodePoints,
  describeType,
  isPlainObject,
  pythonFloatRepr,
  pythonJsonString,
} from '@agentwire/internal';
import { formatJsonPath } from '../canonical-json/strict-json.js';
import { HearthNetLocalError } from '../errors.js';

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
 * exponent is a float — a plain `number`, or a `PythonFloat` when its value is integral
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

const LINE_BREAK = /[\r\n]/;

/**
 * One SSE frame exactly as the reference's `encode_sse_frame(data, event)` writes it: an
 * `event: <name>` line when `event` is a non-empty string (Python's `if event:`), then
 * `data: <json>` and an empty line, separated by `\n`. The JSON is Python
 * `json.dumps(data, separators=(",", ":"))`: `ensure_ascii`, keys in insertion order (not sorted),
 * float `repr` (`PythonFloat` for integral floats). It never holds a raw line break.
 *
 * @throws {HearthNetLocalError} `invalid_reference_sse_frame` when `event` is not a string or holds a line
 *   break (the reference would write a frame no reader can split).
 * @throws {HearthNetLocalError} `python_json_unencodable` for data JSON cannot carry (a non-finite number, a
 *   cycle).
 * @example
 * encodeReferenceSseFrame({ text: 'Grüße', n: new PythonFloat(1) }); // 'data: {"text":"Gr\\u00fc\\u00dfe","n":1.0}\n\n'
 * encodeReferenceSseFrame({ done: true }, 'done'); // 'event: done\ndata: {"done":true}\n\n'
 */
export function encodeReferenceSseFrame(data: unknown, event?: string): string {
  if (event !== undefined && (typeof event !== 'string' || LINE_BREAK.test(event))) {
    throw new HearthNetLocalError(
      'invalid_reference_sse_frame',
      `an SSE event name must be a single line of text, got ${JSON.stringify(event)}`,
    );
  }
  const json = pythonAsciiJson(data, { sortKeys: false });
  return event ? `event: ${event}\ndata: ${json}\n\n` : `data: ${json}\n\n`;
}

/** Options of {@link pythonAsciiJson}. */
export interface PythonAsciiJsonOptions {
  /** Sort object keys by code point at every level (`sort_keys=True`); otherwise keep insertion order. */
  readonly sortKeys: boolean;
}

/**
 * Python's `json.dumps(value, ensure_ascii=True, separators=(",", ":"))`, with `sort_keys` as asked:
 * every character outside U+0020–U+007E is a lower-case `\uXXXX` escape (astral characters as
 * surrogate pairs), floats use Python's `repr` (`pythonFloatRepr`). This is the reference's
 * event and snapshot signing form ("B-form", with sorted keys) and its invite blob form (insertion
 * order).
 *
 * Numbers: an integral `number` or a `bigint` is a Python `int` (plain digits), any other `number`
 * and a `PythonFloat` a Python `float`. Python would write non-finite floats as `NaN` or
 * `Infinity`, which is not JSON; they are refused here.
 *
 * @throws {HearthNetLocalError} `python_json_unencodable` for non-finite numbers, cycles and values JSON
 *   cannot carry.
 * @example
 * pythonAsciiJson({ b: 'é', a: 0.5 }, { sortKeys: true }); // '{"a":0.5,"b":"\\u00e9"}'
 */
export function pythonAsciiJson(value: unknown, options: PythonAsciiJsonOptions): string {
  const parts: string[] = [];
  write(value, options.sortKeys, [], new Set(), parts);
  return parts.join('');
}

function write(
  value: unknown,
  sortKeys: boolean,
  path: (string | number)[],
  ancestors: Set<object>,
  parts: string[],
): void {
  if (value === null) parts.push('null');
  else if (value === true) parts.push('true');
  else if (value === false) parts.push('false');
  else if (typeof value === 'string') parts.push(pythonJsonString(value));
  else if (typeof value === 'bigint') parts.push(value.toString());
  else if (typeof value === 'number') parts.push(numberText(value, false, path));
  else if (value instanceof PythonFloat) parts.push(numberText(value.value, true, path));
  else if (Array.isArray(value)) {
    enter(value, path, ancestors);
    parts.push('[');
    // Plain loops, not callbacks: one stack frame per nesting level (reference JSON nests up to 1000 deep).
    for (let index = 0; index < value.length; index++) {
      if (index > 0) parts.push(',');
      path.push(index);
      write(value[index], sortKeys, path, ancestors, parts);
      path.pop();
    }
    parts.push(']');
    ancestors.delete(value);
  } else if (isPlainObject(value)) {
    enter(value, path, ancestors);
    const keys = Object.keys(value);
    if (sortKeys) keys.sort(compareCodePoints);
    parts.push('{');
    for (const [index, key] of keys.entries()) {
      if (index > 0) parts.push(',');
      parts.push(pythonJsonString(key), ':');
      path.push(key);
      write(value[key], sortKeys, path, ancestors, parts);
      path.pop();
    }
    parts.push('}');
    ancestors.delete(value);
  } else {
    throw unencodable(path, `${describeType(value)} has no JSON form`);
  }
}

function numberText(value: number, float: boolean, path: (string | number)[]): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw unencodable(path, `${String(value)} is not a finite number`);
  }
  if (!float && Number.isInteger(value)) return BigInt(value).toString();
  return pythonFloatRepr(value);
}

function enter(value: object, path: (string | number)[], ancestors: Set<object>): void {
  if (ancestors.has(value)) throw unencodable(path, 'the value contains itself');
  ancestors.add(value);
}

/** The `python_json_unencodable` error at `path`: its message starts with the JSON path. */
function unencodable(path: readonly (string | number)[], message: string): HearthNetLocalError {
  const at = formatJsonPath(path);
  return new HearthNetLocalError('python_json_unencodable', `${at}: ${message}`, { path: at });
}

/**
 * A Python `float` whose value is integral (`1.0`, `-0.0`, `1e+16`): JavaScript numbers cannot tell
 * `1.0` from `1`, and the reference's event bytes write them differently. `parseReferenceJson` wraps
 * such tokens; non-integral numbers stay plain `number`s (always floats in Python).
 *
 * @example
 * pythonAsciiJson({ a: new PythonFloat(1), b: 1 }, { sortKeys: true }); // '{"a":1.0,"b":1}'
 */
export class PythonFloat {
  readonly value: number;

  constructor(value: number) {
    this.value = value;
  }
}
