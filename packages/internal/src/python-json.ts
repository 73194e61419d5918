// Python's `json.loads` and `json.dumps`, one reader and one writer for every package that must read
// or write JSON exactly as a Python peer does. JavaScript's `JSON.parse` and `JSON.stringify` lose what
// Python keeps apart (an `int` from an integral `float`, a dict's key order, integers beyond 2^53) and
// write numbers and strings differently. The packages differ in what they keep, so each choice is an
// option; the errors are neutral classes here, which each package turns into its own error.

import { compareCodePoints, pythonFloatRepr, pythonJsonString } from './python.js';

/** What the reader refused, at {@link PythonJsonSyntaxError.offset}. */
export type PythonJsonSyntaxReason =
  /** No JSON value starts here (nor the end of the text where a value was due). */
  | 'expected_value'
  /** A `-` or a digit that does not start a JSON number (`-x`, `-Infinity` where non-finite is refused). */
  | 'invalid_number'
  /** Text after the one JSON value (offset: where it starts). */
  | 'extra_data'
  /** Something other than a string where an object key was due. */
  | 'expected_key'
  /** No `:` after an object key. */
  | 'expected_colon'
  /** Neither `,` nor `}` after an object member (offset: the character found). */
  | 'expected_object_delimiter'
  /** Neither `,` nor `]` after an array item (offset: the character found). */
  | 'expected_array_delimiter'
  /** The text ends inside a string. */
  | 'unterminated_string'
  /** A raw U+0000–U+001F inside a string (offset: just after it). */
  | 'control_character'
  /** A backslash followed by anything but `" \ / b f n r t u` (offset: just after the two characters). */
  | 'invalid_escape'
  /** `\u` not followed by four hex digits (offset: just after the `u`). */
  | 'invalid_unicode_escape'
  /** An integer of more digits than `maxIntegerDigits` (offset: where the integer starts). */
  | 'integer_too_long'
  /** A float beyond the double range, where non-finite numbers are refused (offset: just after it). */
  | 'float_out_of_range'
  /** An array or object nested deeper than `maxDepth` (offset: its opening bracket). */
  | 'nesting_too_deep';

/**
 * JSON text the reader refuses: a neutral error each package turns into its own (`reason` and
 * `offset` are what they use; `message` is only for a reader of logs).
 */
export class PythonJsonSyntaxError extends Error {
  override readonly name = 'PythonJsonSyntaxError';
  /** What was wrong. */
  readonly reason: PythonJsonSyntaxReason;
  /** Where, as a UTF-16 offset into the text (see each reason for the exact place). */
  readonly offset: number;

  constructor(reason: PythonJsonSyntaxReason, offset: number) {
    super(`${reason.replaceAll('_', ' ')} at offset ${offset}`);
    this.reason = reason;
    this.offset = offset;
  }
}

/** How {@link parsePythonJson} represents what it reads; every option has Python's behaviour or a documented default. */
export interface PythonJsonParseOptions {
  /**
   * A JSON object as a `Map` (`'map'`: keys in first-insertion order, as a Python `dict` keeps them)
   * or as a plain object with own enumerable properties (`'object'`, the default: `__proto__` is an
   * own key, integer-like keys come first as JavaScript orders them). A repeated key keeps its first
   * place and its last value either way, as Python's dict does.
   */
  readonly dicts?: 'map' | 'object';
  /**
   * `'accept'` (the default, as `json.loads` does): the bare tokens `NaN`, `Infinity`, `-Infinity`
   * and a float beyond the double range (`1e400`, read as ±Infinity). `'refuse'`: those tokens are
   * not JSON values (`expected_value` / `invalid_number`) and an out-of-range float is
   * `float_out_of_range`.
   */
  readonly nonFinite?: 'accept' | 'refuse';
  /**
   * How an integer token (a Python `int`) is read. `'bigint'` (the default): exactly, as a `bigint`.
   * `'number'`: as the nearest double (±Infinity beyond the double range; `-0` reads as `0`, since
   * an `int` has no sign of zero). `'safe-number'`: as `JSON.parse` reads it (`-0` included) when
   * that is a safe integer, otherwise exactly as a `bigint`.
   */
  readonly integers?: 'bigint' | 'number' | 'safe-number';
  /**
   * What a float token with an integral finite value (`1.0`, `-0.0`, `1e16`) becomes, so that it can
   * be told from an `int` read as a number: the callback's answer (a wrapper object, say). Absent
   * (the default): the plain `number`. Other floats are always plain numbers.
   */
  readonly integralFloat?: (value: number) => unknown;
  /**
   * Integers of more digits than this are refused (`integer_too_long`), as CPython refuses more
   * than `sys.get_int_max_str_digits()` (4300 by default). Default: no limit.
   */
  readonly maxIntegerDigits?: number;
  /**
   * Arrays and objects nested deeper than this are refused (`nesting_too_deep`). Default 1000,
   * Python's default recursion limit, near which `json.loads` raises `RecursionError`.
   */
  readonly maxDepth?: number;
}

/**
 * Reads JSON text as Python's `json.loads` does: standard JSON (whitespace only `space \t \n \r`,
 * so a leading BOM is refused) plus, unless refused, `NaN`, `Infinity` and `-Infinity`; duplicate keys
 * keep their first place and last value. `options` say how dicts, ints, integral floats and
 * non-finite numbers are represented and which limits apply.
 *
 * @throws {PythonJsonSyntaxError} for text the reader refuses, with a reason and an offset.
 * @example
 * parsePythonJson('{"a": 1, "b": 1.0}', { dicts: 'map' }); // Map { 'a' => 1n, 'b' => 1 }
 */
export function parsePythonJson(text: string, options: PythonJsonParseOptions = {}): unknown {
  return new PythonJsonReader(text, options).readDocument();
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
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
const WORDS: readonly (readonly [string, unknown])[] = [
  ['null', null],
  ['true', true],
  ['false', false],
];
const NON_FINITE_WORDS: readonly (readonly [string, number])[] = [
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
];
const DEFAULT_MAX_DEPTH = 1000;

class PythonJsonReader {
  private pos = 0;
  private depth = 0;
  private readonly words: readonly (readonly [string, unknown])[];
  private readonly acceptNonFinite: boolean;
  private readonly maxDepth: number;
  private readonly maxIntegerDigits: number;

  constructor(
    private readonly text: string,
    private readonly options: PythonJsonParseOptions,
  ) {
    this.acceptNonFinite = options.nonFinite !== 'refuse';
    this.words = this.acceptNonFinite ? [...WORDS, ...NON_FINITE_WORDS] : WORDS;
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.maxIntegerDigits = options.maxIntegerDigits ?? Number.POSITIVE_INFINITY;
  }

  readDocument(): unknown {
    this.skipWhitespace();
    const value = this.readValue();
    this.skipWhitespace();
    if (this.pos !== this.text.length) throw this.fail('extra_data');
    return value;
  }

  private readValue(): unknown {
    const ch = this.text[this.pos];
    if (ch === '{' || ch === '[') {
      if (++this.depth > this.maxDepth) throw this.fail('nesting_too_deep');
      const value = ch === '{' ? this.readObject() : this.readArray();
      this.depth--;
      return value;
    }
    if (ch === '"') return this.readString();
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) {
      if (this.acceptNonFinite && this.text.startsWith('-Infinity', this.pos)) {
        this.pos += '-Infinity'.length;
        return Number.NEGATIVE_INFINITY;
      }
      return this.readNumber();
    }
    for (const [word, value] of this.words) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    throw this.fail('expected_value');
  }

  private readNumber(): unknown {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (match === null) throw this.fail('invalid_number');
    const token = match[0];
    if (match[1] === undefined && match[2] === undefined) {
      if (token.length - (token.startsWith('-') ? 1 : 0) > this.maxIntegerDigits) {
        throw this.fail('integer_too_long');
      }
      this.pos += token.length;
      return this.integerOf(token);
    }
    this.pos += token.length;
    const value = Number(token);
    if (!Number.isFinite(value)) {
      if (!this.acceptNonFinite) throw this.fail('float_out_of_range');
      return value;
    }
    const { integralFloat } = this.options;
    return integralFloat !== undefined && Number.isInteger(value) ? integralFloat(value) : value;
  }

  private integerOf(token: string): unknown {
    switch (this.options.integers) {
      case 'number':
        // `+ 0` turns the `-0` of the token `-0` into `0`: a Python int has no sign of zero.
        return Number(token) + 0;
      case 'safe-number': {
        const value = Number(token);
        return Number.isSafeInteger(value) ? value : BigInt(token);
      }
      default:
        return BigInt(token);
    }
  }

  private readObject(): unknown {
    const asMap = this.options.dicts === 'map';
    const map = new Map<string, unknown>();
    const object: Record<string, unknown> = {};
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return asMap ? map : object;
    }
    for (;;) {
      if (this.text[this.pos] !== '"') throw this.fail('expected_key');
      const key = this.readString();
      this.skipWhitespace();
      if (this.text[this.pos] !== ':') throw this.fail('expected_colon');
      this.pos++;
      this.skipWhitespace();
      const value = this.readValue();
      if (asMap) map.set(key, value);
      // defineProperty, not assignment: `__proto__` is data here, never the prototype.
      else
        Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      this.skipWhitespace();
      const next = this.text[this.pos];
      if (next !== ',' && next !== '}') throw this.fail('expected_object_delimiter');
      this.pos++;
      if (next === '}') return asMap ? map : object;
      this.skipWhitespace();
    }
  }

  private readArray(): unknown[] {
    const result: unknown[] = [];
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return result;
    }
    for (;;) {
      result.push(this.readValue());
      this.skipWhitespace();
      const next = this.text[this.pos];
      if (next !== ',' && next !== ']') throw this.fail('expected_array_delimiter');
      this.pos++;
      if (next === ']') return result;
      this.skipWhitespace();
    }
  }

  private readString(): string {
    const chunks: string[] = [];
    let start = ++this.pos;
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === undefined) throw this.fail('unterminated_string');
      if (ch === '"') {
        chunks.push(this.text.slice(start, this.pos++));
        return chunks.join('');
      }
      if (ch < ' ') {
        this.pos++;
        throw this.fail('control_character');
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
        if (!HEX4.test(hex)) throw this.fail('invalid_unicode_escape');
        // A lone surrogate stays one, as in a Python str.
        chunks.push(String.fromCharCode(Number.parseInt(hex, 16)));
        this.pos += 4;
      } else {
        const decoded = escapeChar === undefined ? undefined : ESCAPES[escapeChar];
        if (decoded === undefined) throw this.fail('invalid_escape');
        chunks.push(decoded);
      }
      start = this.pos;
    }
  }

  private skipWhitespace(): void {
    const text = this.text;
    let pos = this.pos;
    for (;;) {
      const ch = text.charCodeAt(pos);
      if (ch !== 0x20 && ch !== 0x0a && ch !== 0x0d && ch !== 0x09) break;
      pos++;
    }
    this.pos = pos;
  }

  private fail(reason: PythonJsonSyntaxReason): PythonJsonSyntaxError {
    return new PythonJsonSyntaxError(reason, this.pos);
  }
}

/** Why the writer refused a value, at {@link PythonJsonUnencodableError.path}. */
export type PythonJsonUnencodableReason =
  /** A value JSON has no form for: `undefined` (unless skipped), a function, a symbol, a refused bigint. */
  | 'unsupported_type'
  /** An object that is neither an array, a plain object nor a float wrapper (a `Date`, a `Map`). */
  | 'non_plain_object'
  /** NaN or ±Infinity where `nonFinite` is `'refuse'` (`value` is the number). */
  | 'non_finite'
  /** An array or object that contains itself. */
  | 'cycle';

/**
 * A value the writer refuses: a neutral error each package turns into its own, from `reason`, `path`
 * and `value`.
 */
export class PythonJsonUnencodableError extends Error {
  override readonly name = 'PythonJsonUnencodableError';
  /** What was wrong. */
  readonly reason: PythonJsonUnencodableReason;
  /** The key path of the refused value (`[]` for the value as a whole), for the package to format. */
  readonly path: readonly (string | number)[];
  /** The refused value (for `non_finite`, the number, also when a float wrapper held it). */
  readonly value: unknown;

  constructor(reason: PythonJsonUnencodableReason, path: readonly (string | number)[], value: unknown) {
    super(`${reason.replaceAll('_', ' ')} at ${path.length === 0 ? 'the top' : path.join('.')}`);
    this.reason = reason;
    this.path = path;
    this.value = value;
  }
}

/** The `json.dumps` keyword arguments {@link dumpPythonJson} mirrors, and how JavaScript values map to Python's. */
export interface PythonJsonDumpOptions {
  /**
   * `separators`: between items and between a key and its value. Default `[', ', ': ']` (Python's
   * default); `[',', ':']` is the compact form.
   */
  readonly separators?: readonly [item: string, key: string];
  /** `ensure_ascii` (default `true`): `false` writes non-ASCII characters and U+007F as they are. */
  readonly ensureAscii?: boolean;
  /** `sort_keys` (default `false`): object keys in code-point order instead of insertion order. */
  readonly sortKeys?: boolean;
  /**
   * NaN and ±Infinity: `'literal'` (the default, as `json.dumps` writes them: `NaN`, `Infinity`,
   * `-Infinity`, which strict JSON readers refuse) or `'refuse'` (`non_finite`).
   */
  readonly nonFinite?: 'literal' | 'refuse';
  /** A `bigint`: `'int'` (the default, its digits, as a Python `int`) or `'refuse'` (`unsupported_type`). */
  readonly bigints?: 'int' | 'refuse';
  /**
   * `undefined`: `'refuse'` (the default, `unsupported_type`) or `'skip'` (as `JSON.stringify`: an
   * object member is left out, an array item or hole is `null`).
   */
  readonly undefinedValues?: 'refuse' | 'skip';
  /**
   * The float value of a wrapper object that stands for a Python `float` (one whose value is
   * integral, which a plain number would write as an `int`), or `undefined` for any other object.
   * A wrapped float is always written as Python's float `repr` (`1.0`, `-0.0`, `1e+16`).
   */
  readonly floatOf?: (value: object) => number | undefined;
}

/**
 * Writes a value as Python's `json.dumps` does with the given keyword arguments: strings as
 * `pythonJsonString` writes them, keys in insertion order unless sorted, an integral `number` as a
 * Python `int` (`3`, not `3.0`; `-0` as `0`) and any other as the float `repr` (`1e-05`), a `bigint`
 * as an `int`, a float wrapper (`options.floatOf`) as a float. Only arrays and plain objects are
 * containers; a shared value is written each time it appears, a value containing itself is refused.
 *
 * @throws {PythonJsonUnencodableError} for a value the options do not let it write.
 * @example
 * dumpPythonJson({ a: [1, 0.5, 'é'] }); // '{"a": [1, 0.5, "\\u00e9"]}'
 * dumpPythonJson({ a: 1 }, { separators: [',', ':'] }); // '{"a":1}'
 */
export function dumpPythonJson(value: unknown, options: PythonJsonDumpOptions = {}): string {
  return new PythonJsonWriter(options).write(value);
}

class PythonJsonWriter {
  private out = '';
  /** The key path of the value being written, pushed and popped in place (read only to name the place of an error). */
  private readonly path: (string | number)[] = [];
  private readonly ancestors = new Set<object>();
  private readonly itemSeparator: string;
  private readonly keySeparator: string;
  private readonly ensureAscii: boolean;
  private readonly sortKeys: boolean;
  private readonly literalNonFinite: boolean;
  private readonly writeBigints: boolean;
  private readonly skipUndefined: boolean;
  private readonly floatOf: ((value: object) => number | undefined) | undefined;

  constructor(options: PythonJsonDumpOptions) {
    [this.itemSeparator, this.keySeparator] = options.separators ?? [', ', ': '];
    this.ensureAscii = options.ensureAscii !== false;
    this.sortKeys = options.sortKeys === true;
    this.literalNonFinite = options.nonFinite !== 'refuse';
    this.writeBigints = options.bigints !== 'refuse';
    this.skipUndefined = options.undefinedValues === 'skip';
    this.floatOf = options.floatOf;
  }

  write(value: unknown): string {
    this.writeValue(value);
    return this.out;
  }

  private writeValue(value: unknown): void {
    switch (typeof value) {
      case 'string':
        this.out += pythonJsonString(value, this.ensureAscii);
        return;
      case 'number':
        this.out += this.numberText(value, false);
        return;
      case 'boolean':
        this.out += value ? 'true' : 'false';
        return;
      case 'bigint':
        if (!this.writeBigints) throw this.refuse('unsupported_type', value);
        this.out += value.toString();
        return;
      case 'object':
        if (value === null) this.out += 'null';
        else this.writeObject(value);
        return;
      default:
        throw this.refuse('unsupported_type', value);
    }
  }

  private writeObject(value: object): void {
    if (Array.isArray(value)) {
      this.enter(value);
      this.writeArray(value);
      this.ancestors.delete(value);
      return;
    }
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype === Object.prototype || prototype === null) {
      this.enter(value);
      this.writeDict(value as Record<string, unknown>);
      this.ancestors.delete(value);
      return;
    }
    const float = this.floatOf?.(value);
    if (float === undefined) throw this.refuse('non_plain_object', value);
    this.out += this.numberText(float, true);
  }

  // Plain loops, not callbacks: one stack frame per nesting level (readers accept 1000 levels).
  private writeArray(value: readonly unknown[]): void {
    this.out += '[';
    for (let index = 0; index < value.length; index++) {
      if (index > 0) this.out += this.itemSeparator;
      const item = value[index];
      if (item === undefined && this.skipUndefined) {
        this.out += 'null';
        continue;
      }
      this.path.push(index);
      this.writeValue(item);
      this.path.pop();
    }
    this.out += ']';
  }

  private writeDict(value: Record<string, unknown>): void {
    const keys = Object.keys(value);
    if (this.sortKeys) keys.sort(compareCodePoints);
    this.out += '{';
    let first = true;
    for (const key of keys) {
      const member = value[key];
      if (member === undefined && this.skipUndefined) continue;
      if (!first) this.out += this.itemSeparator;
      first = false;
      this.out += pythonJsonString(key, this.ensureAscii) + this.keySeparator;
      this.path.push(key);
      this.writeValue(member);
      this.path.pop();
    }
    this.out += '}';
  }

  /** A number as a Python `int` when integral and not a float, else as the float `repr`; non-finite as asked. */
  private numberText(value: number, float: boolean): string {
    if (!Number.isFinite(value)) {
      if (!this.literalNonFinite) throw this.refuse('non_finite', value);
      if (Number.isNaN(value)) return 'NaN';
      return value > 0 ? 'Infinity' : '-Infinity';
    }
    if (float || !Number.isInteger(value)) return pythonFloatRepr(value);
    return Number.isSafeInteger(value) ? String(value) : BigInt(value).toString();
  }

  private enter(value: object): void {
    if (this.ancestors.has(value)) throw this.refuse('cycle', value);
    this.ancestors.add(value);
  }

  private refuse(reason: PythonJsonUnencodableReason, value: unknown): PythonJsonUnencodableError {
    return new PythonJsonUnencodableError(reason, [...this.path], value);
  }
}
