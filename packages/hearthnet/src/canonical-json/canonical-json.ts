import { formatGeneral } from './format-number.js';
import { sortKeysByCodePoint } from './key-order.js';
import { containerKind, Traversal, unsupportedValue } from './traversal.js';
import { Utf8Writer } from './utf8-writer.js';

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
 * integers and other numbers as C `%g` with 6 significant digits (see {@link formatCanonicalNumber});
 * bigints print as digits.
 *
 * Unlike `JSON.stringify`, nothing is dropped or converted silently: `undefined`, functions, symbols,
 * sparse array holes, non-plain objects (Date, Map, class instances, …), NaN/±Infinity, lone
 * surrogates, cycles and nesting deeper than {@link MAX_CANONICAL_DEPTH} throw a
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

/** The state of one walk: containers and path (for errors), and where lossy numbers are collected. */
class Serialization extends Traversal {
  constructor(readonly lossyNumbers: string[] | undefined) {
    super();
  }
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
