import { compareCodePoints } from '@agentwire/internal';
import { HearthNetLocalError, type HearthNetLocalErrorCode } from '../errors.js';
import { formatJsonPath, type JsonPathSegment } from './strict-json.js';

const utf8 = new TextDecoder();

const OPEN_BRACKET = 0x5b; // [
const CLOSE_BRACKET = 0x5d; // ]
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACE = 0x7d; // }
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * Serialises a JSON value as HearthNet canonical JSON, byte for byte what the reference
 * `canonical_json` produces, and returns its UTF-8 bytes (the bytes that get signed).
 *
 * Object keys are sorted by Unicode code point at every level; arrays keep their order; output is
 * compact; strings escape only `"`, `\` and U+0000–U+001F; integral numbers below 1e16 print as
 * integers and other numbers as C `%g` with 6 significant digits (see `formatCanonicalNumber`);
 * bigints print as digits.
 *
 * Unlike `JSON.stringify`, nothing is dropped or converted silently: `undefined`, functions, symbols,
 * sparse array holes, non-plain objects (Date, Map, class instances, …), NaN/±Infinity, lone
 * surrogates, cycles and nesting deeper than `MAX_CANONICAL_DEPTH` (1000) throw a
 * {@link HearthNetLocalError}. `toJSON` methods are not called. Symbol-keyed and non-enumerable
 * properties are not data and are ignored, as `JSON.stringify` does.
 *
 * @throws {HearthNetLocalError}
 * @example
 * new TextDecoder().decode(canonicalJson({ b: [1.0, 0.1 + 0.2], a: 'é' })); // '{"a":"é","b":[1,0.3]}'
 */
export function canonicalJson(value: unknown): Uint8Array {
  return serialize(value, new Serialization(undefined));
}

/**
 * {@link canonicalJson} together with the JSON paths of the numbers whose canonical form changes
 * their value (what {@link findLossyNumbers} reports), found in the same walk: signature
 * verification needs both.
 *
 * @throws {HearthNetLocalError}
 */
export function canonicalJsonWithLossyNumbers(value: unknown): { bytes: Uint8Array; lossyNumbers: string[] } {
  const lossyNumbers: string[] = [];
  return { bytes: serialize(value, new Serialization(lossyNumbers)), lossyNumbers };
}

/**
 * Lists the JSON paths of the numbers that canonical JSON does not keep as they are (see
 * `isCanonicalNumber`): floats with more than 6 significant digits, `-0`. A payload whose list is
 * empty reads back from its canonical bytes unchanged; a signature verified over a payload with
 * lossy numbers also covers every other payload that rounds to the same bytes.
 *
 * Paths are in canonical order: `$` is the root, `.key` or `["key"]` an object key, `[i]` an index.
 *
 * @throws {HearthNetLocalError} whatever {@link canonicalJson} throws for the same value.
 * @example
 * findLossyNumbers({ a: [1, 0.1 + 0.2], 'b-c': 2.5 }); // ['$.a[1]']
 */
export function findLossyNumbers(value: unknown): string[] {
  return canonicalJsonWithLossyNumbers(value).lossyNumbers;
}

function serialize(value: unknown, serialization: Serialization): Uint8Array {
  const out = new Utf8Writer();
  try {
    writeValue(value, serialization, out);
  } catch (error) {
    out.release();
    throw error;
  }
  return out.finish();
}

/**
 * {@link canonicalJson} as a string (before UTF-8 encoding).
 *
 * @throws {HearthNetLocalError}
 * @example
 * canonicalJsonString({ z: 1, '😀': 2, '～': 3 }); // '{"z":1,"～":3,"😀":2}'
 */
export function canonicalJsonString(value: unknown): string {
  return utf8.decode(canonicalJson(value));
}

function writeValue(value: unknown, traversal: Serialization, out: Utf8Writer): void {
  switch (typeof value) {
    case 'string':
      writeString(value, 'string', traversal, out);
      return;
    case 'number':
      if (Number.isInteger(value) && value < 1e16 && value > -1e16) {
        // `-0` is the one integral number whose canonical form (`0`) is another value.
        if (traversal.lossyNumbers !== undefined && Object.is(value, -0)) {
          traversal.lossyNumbers.push(traversal.path());
        }
        out.write(`${value}`);
      } else if (!Number.isFinite(value)) {
        throw traversal.error('non_finite_number', `${value} has no JSON form`);
      } else {
        const text = formatGeneral(value);
        if (traversal.lossyNumbers !== undefined && Number(text) !== value) {
          traversal.lossyNumbers.push(traversal.path());
        }
        out.write(text);
      }
      return;
    case 'boolean':
      out.write(value ? 'true' : 'false');
      return;
    case 'bigint':
      out.write(value.toString());
      return;
    case 'object':
      if (value === null) out.write('null');
      else if (containerKind(value, traversal) === 'array')
        writeArray(value as readonly unknown[], traversal, out);
      else writeObject(value as Readonly<Record<string, unknown>>, traversal, out);
      return;
    default:
      throw unsupportedValue(value, traversal);
  }
}

function writeArray(array: readonly unknown[], traversal: Serialization, out: Utf8Writer): void {
  const level = traversal.enter(array);
  const segments = traversal.segments;
  const length = array.length;
  out.writeByte(OPEN_BRACKET);
  for (let i = 0; i < length; i++) {
    segments[level] = i;
    const item = array[i];
    if (item === undefined && !(i in array)) throw unsupportedValue(item, traversal, true);
    if (i !== 0) out.writeByte(COMMA);
    writeValue(item, traversal, out);
  }
  traversal.leave();
  out.writeByte(CLOSE_BRACKET);
}

function writeObject(
  object: Readonly<Record<string, unknown>>,
  traversal: Serialization,
  out: Utf8Writer,
): void {
  const level = traversal.enter(object);
  const segments = traversal.segments;
  const keys = sortKeysByCodePoint(Object.keys(object));
  out.writeByte(OPEN_BRACE);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    segments[level] = key;
    if (i !== 0) out.writeByte(COMMA);
    writeString(key, 'key', traversal, out);
    out.writeByte(COLON);
    writeValue(object[key], traversal, out);
  }
  traversal.leave();
  out.writeByte(CLOSE_BRACE);
}

/**
 * Writes a string as a JSON string literal. For a well-formed string `JSON.stringify` escapes exactly
 * what the reference escapes: `"`, `\`, and U+0000–U+001F (`\b \f \n \r \t`, else `\u00xx`).
 */
function writeString(text: string, what: 'string' | 'key', traversal: Serialization, out: Utf8Writer): void {
  if (out.writeQuotedPlain(text)) return;
  traversal.checkString(text, what);
  out.write(JSON.stringify(text));
}

/**
 * {@link normalizeNumbers} and {@link canonicalJson} of the copy, in one walk: the normalised copy, and
 * the canonical JSON bytes of that copy (keys in canonical order, the same checks as canonicalJson).
 * Internal: `signPayload` signs these bytes and returns the copy; `normalizeNumbers` keeps the copy.
 *
 * @throws {HearthNetLocalError} what {@link canonicalJson} throws.
 */
export function normalizedCanonicalJson(value: unknown): {
  readonly copy: unknown;
  readonly bytes: Uint8Array;
} {
  const out = new Utf8Writer();
  let copy: unknown;
  try {
    copy = writeNormalized(value, new Traversal(), out);
  } catch (error) {
    out.release();
    throw error;
  }
  return { copy, bytes: out.finish() };
}

function writeNormalized(value: unknown, traversal: Traversal, out: Utf8Writer): unknown {
  switch (typeof value) {
    case 'string':
      if (!out.writeQuotedPlain(value)) {
        traversal.checkString(value, 'string');
        out.write(JSON.stringify(value));
      }
      return value;
    case 'number': {
      if (Number.isInteger(value) && value < 1e16 && value > -1e16) {
        const integral = value === 0 ? 0 : value;
        out.write(`${integral}`);
        return integral;
      }
      if (!Number.isFinite(value)) throw traversal.error('non_finite_number', `${value} has no JSON form`);
      // The normalised number, written as canonical JSON writes that number (which may read differently).
      const normalized = Number(formatGeneral(value));
      out.write(
        Number.isInteger(normalized) && normalized < 1e16 && normalized > -1e16
          ? `${normalized}`
          : formatGeneral(normalized),
      );
      return normalized;
    }
    case 'boolean':
      out.write(value ? 'true' : 'false');
      return value;
    case 'bigint':
      out.write(value.toString());
      return value;
    case 'object':
      if (value === null) {
        out.write('null');
        return null;
      }
      return containerKind(value, traversal) === 'array'
        ? writeNormalizedArray(value as readonly unknown[], traversal, out)
        : writeNormalizedObject(value as Readonly<Record<string, unknown>>, traversal, out);
    default:
      throw unsupportedValue(value, traversal);
  }
}

function writeNormalizedArray(array: readonly unknown[], traversal: Traversal, out: Utf8Writer): unknown[] {
  const level = traversal.enter(array);
  const segments = traversal.segments;
  const copy = new Array<unknown>(array.length);
  out.writeByte(OPEN_BRACKET);
  for (let i = 0; i < array.length; i++) {
    segments[level] = i;
    const item = array[i];
    if (item === undefined && !(i in array)) throw unsupportedValue(item, traversal, true);
    if (i !== 0) out.writeByte(COMMA);
    copy[i] = writeNormalized(item, traversal, out);
  }
  traversal.leave();
  out.writeByte(CLOSE_BRACKET);
  return copy;
}

function writeNormalizedObject(
  object: Readonly<Record<string, unknown>>,
  traversal: Traversal,
  out: Utf8Writer,
): object {
  const level = traversal.enter(object);
  const segments = traversal.segments;
  const copy: Record<string, unknown> = Object.getPrototypeOf(object) === null ? Object.create(null) : {};
  const keys = sortKeysByCodePoint(Object.keys(object));
  out.writeByte(OPEN_BRACE);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    segments[level] = key;
    if (i !== 0) out.writeByte(COMMA);
    if (!out.writeQuotedPlain(key)) {
      traversal.checkString(key, 'key');
      out.write(JSON.stringify(key));
    }
    out.writeByte(COLON);
    const item = writeNormalized(object[key], traversal, out);
    // An own "__proto__" key (JSON.parse makes one) must stay data, not become the prototype.
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  traversal.leave();
  out.writeByte(CLOSE_BRACE);
  return copy;
}

/**
 * Returns a deep copy of a JSON value in which every number is replaced by the number its canonical
 * form reads back as, `Number(formatCanonicalNumber(n))` (`-0` → `0`, `3.141592653589793` →
 * `3.14159`); bigints are kept. Sign the copy and send the copy: what the receiver parses is then
 * exactly what was signed.
 *
 * The copy's objects keep their prototype (`Object.prototype` or `null`) and list keys in canonical
 * order. Normalising does not always keep the canonical bytes: `1234567.5` is written `1.23457e+06`,
 * but reads back as the integer `1234570`, written `1234570` — the same thing happens to the number
 * when the reference parses the payload.
 *
 * @throws {HearthNetLocalError} whatever {@link canonicalJson} throws for the same value.
 * @example
 * normalizeNumbers({ price: 0.1 + 0.2, qty: -0 }); // { price: 0.3, qty: 0 }
 */
export function normalizeNumbers<T>(value: T): T {
  return normalizedCanonicalJson(value).copy as T;
}

// The number rule of the reference `canonical_json`: Python writes a float with `repr`, and the
// reference re-emits every float token as an integer when it is integral and `repr` used no exponent
// (|v| < 1e16), and as C `%g` (6 significant digits) otherwise. A JavaScript number cannot tell
// `1` from `1.0`, and both print as `1`, so the rule depends only on the value.

/** Integral numbers below this magnitude print as plain integer digits. */
const INTEGER_DIGITS_LIMIT = 1e16;

/**
 * An exact decimal tie at the 7th significant digit is D·10^k with D a 7-digit integer ending in 5.
 * For k < 0 it is a binary fraction only if 5^-k divides D, so -k ≤ 10 and the value times 2^10 is an
 * integer; for k ≥ 0 it is an integer below 10^7·10^14 (beyond that D·5^k exceeds 53 bits). Any other
 * number has no tie, and `toExponential` (exact rounding, ties away from zero) is already right.
 */
const TIE_SCALE = 1024;
const TIE_SCALE_POW5 = 9765625n; // 5^10: N/2^10 = N·5^10/10^10
const TIE_SCALE_DIGITS = 10;
const TIE_LIMIT = 1e21;
const SIGNIFICANT_DIGITS = 6;

/** 10^0 … 10^22, the powers of ten a double holds exactly. */
const POWERS_OF_TEN: readonly number[] = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));
/** Exponents for which 10^|5 − X| (and its neighbours) stays within {@link POWERS_OF_TEN}. */
const MIN_SCALED_EXPONENT = -16;
const MAX_SCALED_EXPONENT = 26;
/** Scaled values this close to a midpoint take the exact path; the scaling error is below 10^-10. */
const MIDPOINT_GUARD = 1e-6;

/**
 * Writes a number as HearthNet canonical JSON writes it: integral numbers below 1e16 as integer digits
 * (`-0` as `0`), every other finite number as C `%g` with 6 significant digits, rounded half-even on
 * the exact binary value; a bigint as its digits.
 *
 * @throws {HearthNetLocalError} `non_finite_number` for NaN and ±Infinity, `unsupported_type` when
 *   `n` is neither a number nor a bigint.
 * @example
 * formatCanonicalNumber(3.141592653589793); // '3.14159'
 * formatCanonicalNumber(123456.5); // '123456' (half-even)
 * formatCanonicalNumber(1e16); // '1e+16'
 * formatCanonicalNumber(2n ** 64n); // '18446744073709551616'
 */
export function formatCanonicalNumber(n: number | bigint): string {
  if (typeof n === 'bigint') return n.toString();
  if (typeof n !== 'number') {
    throw new HearthNetLocalError('unsupported_type', `expected a number or a bigint, got ${typeof n} at $`, {
      path: '$',
    });
  }
  if (Number.isInteger(n) && n < INTEGER_DIGITS_LIMIT && n > -INTEGER_DIGITS_LIMIT) return `${n}`;
  if (!Number.isFinite(n)) {
    throw new HearthNetLocalError('non_finite_number', `${n} has no JSON form at $`, { path: '$' });
  }
  return formatGeneral(n);
}

/**
 * Whether a number survives canonical JSON unchanged: `Number(formatCanonicalNumber(n))` is `n`.
 * True for every bigint and for integral numbers below 1e16; false for `-0` (written as `0`), for
 * floats with more than 6 significant digits, and for NaN, ±Infinity and non-numbers.
 */
export function isCanonicalNumber(n: number | bigint): boolean {
  if (typeof n === 'bigint') return true;
  if (typeof n !== 'number' || !Number.isFinite(n)) return false;
  if (Number.isInteger(n) && n < INTEGER_DIGITS_LIMIT && n > -INTEGER_DIGITS_LIMIT) return !Object.is(n, -0);
  return Number(formatGeneral(n)) === n;
}

/**
 * C `%g` with precision 6 for a finite, non-zero number: round the exact value half-even to 6
 * significant digits; with X the decimal exponent after rounding, write fixed notation when
 * −4 ≤ X < 6 and `d.ddddde±XX` otherwise, dropping trailing zeros and a trailing point.
 */
export function formatGeneral(x: number): string {
  const negative = x < 0;
  const magnitude = negative ? -x : x;
  const text = formatScaled(magnitude) ?? formatByExponential(magnitude);
  return negative ? `-${text}` : text;
}

/**
 * The fast path: scale to [10^5, 10^6) with one multiplication or division by an exact power of ten
 * (relative error ≤ 2^-53, under 10^-10 absolute) and round. Returns `undefined` when the scaled value
 * is too close to a rounding midpoint to decide, or the power of ten would not be exact.
 */
function formatScaled(magnitude: number): string | undefined {
  let exponent = Math.floor(Math.log10(magnitude)); // may be off by one near powers of ten
  if (exponent < MIN_SCALED_EXPONENT || exponent > MAX_SCALED_EXPONENT) return undefined;
  let scaled = scaleToSixDigits(magnitude, exponent);
  if (scaled < 1e5) scaled = scaleToSixDigits(magnitude, --exponent);
  else if (scaled >= 1e6) scaled = scaleToSixDigits(magnitude, ++exponent);
  const whole = Math.floor(scaled);
  const fraction = scaled - whole;
  if (fraction > 0.5 - MIDPOINT_GUARD && fraction < 0.5 + MIDPOINT_GUARD) return undefined;
  let digits = fraction > 0.5 ? whole + 1 : whole;
  if (digits === 1e6) {
    digits = 1e5;
    exponent++;
  }
  // digits/10^k has at most 6 significant digits, so its shortest round-trip form is exactly those
  // digits without trailing zeros; JavaScript writes it in fixed notation from 1e-7 up to 1e21.
  if (exponent >= -4 && exponent < SIGNIFICANT_DIGITS) return `${digits / POWERS_OF_TEN[5 - exponent]!}`;
  const absolute = exponent < 0 ? -exponent : exponent;
  return `${digits / 1e5}e${exponent < 0 ? '-' : '+'}${absolute < 10 ? '0' : ''}${absolute}`;
}

function scaleToSixDigits(magnitude: number, exponent: number): number {
  const shift = 5 - exponent;
  return shift >= 0 ? magnitude * POWERS_OF_TEN[shift]! : magnitude / POWERS_OF_TEN[-shift]!;
}

/** The exact path, for numbers outside the fast path's range and for near-midpoints. */
function formatByExponential(magnitude: number): string {
  if (magnitude < TIE_LIMIT && Number.isInteger(magnitude * TIE_SCALE) && isSeventhDigitFive(magnitude)) {
    return formatExactDyadic(magnitude);
  }
  // "d.ddddde±X": exactly rounded to 6 digits; differs from %g only on exact ties, excluded above.
  const exponential = magnitude.toExponential(SIGNIFICANT_DIGITS - 1);
  return layoutGeneral(exponential[0]! + exponential.slice(2, 7), Number(exponential.slice(8)));
}

function isSeventhDigitFive(magnitude: number): boolean {
  // "d.dddddde±X": index 7 is the 7th significant digit, rounded; an exact tie shows it as 5.
  return magnitude.toExponential(SIGNIFICANT_DIGITS).charCodeAt(7) === 0x35;
}

/** Rounds `magnitude` (an integer multiple of 2^-10) half-even with exact decimal digits. */
function formatExactDyadic(magnitude: number): string {
  const digits = (BigInt(magnitude * TIE_SCALE) * TIE_SCALE_POW5).toString();
  let exponent = digits.length - 1 - TIE_SCALE_DIGITS;
  let head = Number(digits.slice(0, SIGNIFICANT_DIGITS).padEnd(SIGNIFICANT_DIGITS, '0'));
  const rest = digits.slice(SIGNIFICANT_DIGITS);
  const first = rest.charCodeAt(0);
  const aboveHalf = first > 0x35 || (first === 0x35 && /[1-9]/.test(rest.slice(1)));
  const exactHalf = first === 0x35 && !aboveHalf;
  if (aboveHalf || (exactHalf && head % 2 === 1)) {
    head += 1;
    if (head === 10 ** SIGNIFICANT_DIGITS) {
      head /= 10;
      exponent += 1;
    }
  }
  return layoutGeneral(`${head}`, exponent);
}

/** Lays out 6 significant digits with decimal exponent `exponent` as `%g` does. */
function layoutGeneral(sixDigits: string, exponent: number): string {
  let end = sixDigits.length;
  while (end > 1 && sixDigits.charCodeAt(end - 1) === 0x30) end--;
  const digits = end === sixDigits.length ? sixDigits : sixDigits.slice(0, end);
  if (exponent < -4 || exponent >= SIGNIFICANT_DIGITS) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const absolute = exponent < 0 ? -exponent : exponent;
    return `${mantissa}e${exponent < 0 ? '-' : '+'}${absolute < 10 ? '0' : ''}${absolute}`;
  }
  if (exponent < 0) return `0.${'0'.repeat(-exponent - 1)}${digits}`;
  const integerLength = exponent + 1;
  if (digits.length <= integerLength) return digits + '0'.repeat(integerLength - digits.length);
  return `${digits.slice(0, integerLength)}.${digits.slice(integerLength)}`;
}

// Object keys are ordered by Unicode code point, as Python orders `str` (and as UTF-8 bytes order).
// JavaScript's default sort compares UTF-16 code units, which agrees with code point order except when
// a surrogate (U+D800–U+DFFF, half of an astral character) meets a unit in U+E000–U+FFFF: by code unit
// the surrogate sorts first, by code point the astral character sorts last.

/** Whether a key holds a UTF-16 surrogate; a plain loop is cheaper than a regex on short keys. */
function hasSurrogate(key: string): boolean {
  for (let i = 0; i < key.length; i++) {
    const unit = key.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdfff) return true;
  }
  return false;
}

/** Up to this many keys an insertion sort beats the engine's sort (objects are mostly small). */
const INSERTION_SORT_LIMIT = 16;

/**
 * Sorts keys in place by Unicode code point and returns them. Compares code units (`<`) unless a key
 * holds a surrogate, the only case where code unit order differs.
 */
export function sortKeysByCodePoint(keys: string[]): string[] {
  if (keys.length < 2) return keys;
  for (let i = 0; i < keys.length; i++) {
    if (hasSurrogate(keys[i]!)) return keys.sort(compareCodePoints);
  }
  return sortSurrogateFreeKeys(keys);
}

/** Sorts keys that hold no surrogate (so code unit order is code point order) in place. */
export function sortSurrogateFreeKeys(keys: string[]): string[] {
  const length = keys.length;
  if (length > INSERTION_SORT_LIMIT) return keys.sort();
  for (let i = 1; i < length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

/** How many containers (objects and arrays) may enclose one another, the outermost included. */
export const MAX_CANONICAL_DEPTH = 1000;

const LONE_SURROGATE = /\p{Cs}/u;

interface MaybeWellFormed {
  isWellFormed?: () => boolean;
}

/** Whether a string has a UTF-8 form, i.e. holds no lone surrogate. */
export const isWellFormed: (text: string) => boolean =
  typeof (String.prototype as MaybeWellFormed).isWellFormed === 'function'
    ? (text) => (text as MaybeWellFormed).isWellFormed!()
    : (text) => !LONE_SURROGATE.test(text);

/**
 * The state of one walk over a JSON value: the containers being visited (for cycle and depth checks)
 * and the key or index taken at each level, so an error can name its path without the walk building
 * paths as it goes.
 */
export class Traversal {
  private readonly ancestors: object[] = [];
  /** `segments[level]` is the key or index being visited inside the container entered at `level`. */
  readonly segments: JsonPathSegment[] = [];

  /**
   * Enters a container after checking depth and cycles; returns the level whose segment the caller
   * sets for each child.
   */
  enter(container: object): number {
    const level = this.ancestors.length;
    if (level >= MAX_CANONICAL_DEPTH) {
      throw this.error('max_depth', `nesting is deeper than ${MAX_CANONICAL_DEPTH} containers`);
    }
    if (this.ancestors.includes(container)) throw this.error('cycle', 'the value contains itself');
    this.ancestors.push(container);
    return level;
  }

  leave(): void {
    this.ancestors.pop();
  }

  /** The path of the value being visited. */
  path(): string {
    return formatJsonPath(this.segments, this.ancestors.length);
  }

  /** The error of `code` at the value being visited: its message ends with ` at <path>`. */
  error(code: HearthNetLocalErrorCode, message: string): HearthNetLocalError {
    const path = this.path();
    return new HearthNetLocalError(code, `${message} at ${path}`, { path });
  }

  /** Throws unless `text` is well-formed UTF-16. */
  checkString(text: string, what: 'string' | 'key'): void {
    if (!isWellFormed(text)) throw this.error('lone_surrogate', `${what} holds a lone UTF-16 surrogate`);
  }
}

/** What a non-primitive value is, for the walkers. */
export type ContainerKind = 'array' | 'object';

/**
 * Classifies a non-null object: a real array, or a plain object (prototype `Object.prototype` or
 * `null`); anything else (Date, Map, typed arrays, boxed primitives, class instances, array
 * subclasses) is an `unsupported_type` error.
 */
export function containerKind(value: object, traversal: Traversal): ContainerKind {
  const prototype = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (prototype === Array.prototype) return 'array';
  } else if (prototype === Object.prototype || prototype === null) {
    return 'object';
  }
  throw traversal.error('unsupported_type', `${describeObject(value)} is not a plain object or array`);
}

/** The `unsupported_type` error for a primitive JSON cannot carry, or a hole in a sparse array. */
export function unsupportedValue(value: unknown, traversal: Traversal, isHole = false): HearthNetLocalError {
  const description = isHole ? 'a sparse array hole' : typeof value === 'symbol' ? 'a symbol' : typeof value;
  return traversal.error('unsupported_type', `${description} has no JSON form`);
}

function describeObject(value: object): string {
  const maker = (value as { constructor?: unknown }).constructor;
  return typeof maker === 'function' && maker.name !== '' ? `a ${maker.name}` : 'an object';
}

/** Scratch buffers up to this size are kept between calls; larger ones are dropped after use. */
const RETAINED_CAPACITY = 1 << 20;
const INITIAL_CAPACITY = 1 << 12;
/** UTF-16 → UTF-8 takes at most 3 bytes per code unit (a surrogate pair: 4 bytes for 2 units). */
const MAX_BYTES_PER_UNIT = 3;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

let scratch: Uint8Array | undefined = new Uint8Array(INITIAL_CAPACITY);

/**
 * Appends text to a growing UTF-8 byte buffer, encoding in the same loop that scans the text: canonical
 * JSON is written piece by piece, and one `TextEncoder` call per piece (or one large string encoded at
 * the end) costs more than the walk itself. Reuses one module-level scratch buffer between calls.
 */
export class Utf8Writer {
  private buffer: Uint8Array;
  private length = 0;
  private readonly borrowed: boolean;

  constructor() {
    // A nested call (a getter that canonicalises while we are writing) gets its own buffer.
    if (scratch === undefined) {
      this.buffer = new Uint8Array(INITIAL_CAPACITY);
      this.borrowed = false;
    } else {
      this.buffer = scratch;
      scratch = undefined;
      this.borrowed = true;
    }
  }

  /** Appends one ASCII byte. */
  writeByte(byte: number): void {
    if (this.length === this.buffer.length) this.grow(1);
    this.buffer[this.length++] = byte;
  }

  /** Appends well-formed text (callers check for lone surrogates first). */
  write(text: string): void {
    const end = this.encode(text, this.length, false);
    // encode() only refuses text in quoting mode or with a lone surrogate, which callers exclude.
    if (end >= 0) this.length = end;
  }

  /**
   * Appends `"text"` when the text needs no JSON escape — no `"`, `\`, U+0000–U+001F — and holds no
   * lone surrogate; returns false and writes nothing otherwise, leaving escapes and checks to the caller.
   */
  writeQuotedPlain(text: string): boolean {
    if (this.length + text.length * MAX_BYTES_PER_UNIT + 2 > this.buffer.length) {
      this.grow(text.length * MAX_BYTES_PER_UNIT + 2);
    }
    this.buffer[this.length] = QUOTE;
    const end = this.encode(text, this.length + 1, true);
    if (end < 0) return false;
    this.buffer[end] = QUOTE;
    this.length = end + 1;
    return true;
  }

  /** The bytes written, as a new array; the writer must not be used afterwards. */
  finish(): Uint8Array {
    const bytes = this.buffer.slice(0, this.length);
    this.release();
    return bytes;
  }

  /** Gives the scratch buffer back without producing output (after an error). */
  release(): void {
    if (this.borrowed) scratch = this.buffer.length <= RETAINED_CAPACITY ? this.buffer : undefined;
    if (this.borrowed && scratch === undefined) scratch = new Uint8Array(INITIAL_CAPACITY);
    this.length = 0;
  }

  /**
   * Encodes `text` at byte offset `at` and returns the end offset, or -1 when `quoting` and the text
   * needs an escape, or when it holds a lone surrogate.
   */
  private encode(text: string, at: number, quoting: boolean): number {
    const count = text.length;
    if (at + count * MAX_BYTES_PER_UNIT > this.buffer.length)
      this.grow(at - this.length + count * MAX_BYTES_PER_UNIT);
    const buffer = this.buffer;
    for (let i = 0; i < count; i++) {
      const unit = text.charCodeAt(i);
      if (unit < 0x80) {
        if (quoting && (unit < 0x20 || unit === QUOTE || unit === BACKSLASH)) return -1;
        buffer[at++] = unit;
      } else if (unit < 0x800) {
        buffer[at++] = 0xc0 | (unit >> 6);
        buffer[at++] = 0x80 | (unit & 0x3f);
      } else if (unit < 0xd800 || unit > 0xdfff) {
        buffer[at++] = 0xe0 | (unit >> 12);
        buffer[at++] = 0x80 | ((unit >> 6) & 0x3f);
        buffer[at++] = 0x80 | (unit & 0x3f);
      } else {
        const low = unit < 0xdc00 && i + 1 < count ? text.charCodeAt(i + 1) : 0;
        if (low < 0xdc00 || low > 0xdfff) return -1;
        const codePoint = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
        buffer[at++] = 0xf0 | (codePoint >> 18);
        buffer[at++] = 0x80 | ((codePoint >> 12) & 0x3f);
        buffer[at++] = 0x80 | ((codePoint >> 6) & 0x3f);
        buffer[at++] = 0x80 | (codePoint & 0x3f);
        i++;
      }
    }
    return at;
  }

  private grow(extra: number): void {
    let capacity = this.buffer.length * 2;
    while (capacity < this.length + extra) capacity *= 2;
    const next = new Uint8Array(capacity);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }
}

/** The state of one walk: containers and path (for errors), and where lossy numbers are collected. */
class Serialization extends Traversal {
  constructor(readonly lossyNumbers: string[] | undefined) {
    super();
  }
}
