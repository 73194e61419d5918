import { formatGeneral } from './format-number.js';
import { compareByCodePoint, sortKeysByCodePoint, sortSurrogateFreeKeys } from './key-order.js';
import { containerKind, Traversal, unsupportedValue } from './traversal.js';

const utf8 = new TextEncoder();

/** A string without these needs no escape and is well-formed: it is written as `"` + text + `"`. */
const NEEDS_ESCAPE_OR_CHECK = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * After this many objects a call starts remembering each plain key's `"key":` prefix: big payloads
 * repeat their keys (arrays of records), small ones would only pay for the map.
 */
const KEY_PREFIX_MEMO_AFTER_OBJECTS = 8;

/** One serialisation: the walk state plus the per-call memo of key prefixes. */
class Serialization extends Traversal {
  private objectsSeen = 0;
  private memo: Map<string, string> | undefined;

  /** The memo of `"key":` prefixes for keys that need no escape, once the call is big enough. */
  keyPrefixes(): Map<string, string> | undefined {
    if (this.memo === undefined && ++this.objectsSeen > KEY_PREFIX_MEMO_AFTER_OBJECTS) this.memo = new Map();
    return this.memo;
  }
}

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
 * {@link CanonicalJsonError}. `toJSON` methods are not called. Symbol-keyed and non-enumerable
 * properties are not data and are ignored, as `JSON.stringify` does.
 *
 * @throws {CanonicalJsonError}
 * @example
 * new TextDecoder().decode(canonicalJson({ b: [1.0, 0.1 + 0.2], a: 'é' })); // '{"a":"é","b":[1,0.3]}'
 */
export function canonicalJson(value: unknown): Uint8Array {
  return utf8.encode(canonicalJsonString(value));
}

/**
 * {@link canonicalJson} as a string (before UTF-8 encoding).
 *
 * @throws {CanonicalJsonError}
 * @example
 * canonicalJsonString({ z: 1, '😀': 2, '～': 3 }); // '{"z":1,"～":3,"😀":2}'
 */
export function canonicalJsonString(value: unknown): string {
  return writeValue(value, new Serialization());
}

function writeValue(value: unknown, traversal: Serialization): string {
  switch (typeof value) {
    case 'string':
      return quoteString(value, 'string', traversal);
    case 'number':
      if (Number.isInteger(value) && value < 1e16 && value > -1e16) return `${value}`;
      if (!Number.isFinite(value)) throw traversal.error('non_finite_number', `${value} has no JSON form`);
      return formatGeneral(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'object':
      if (value === null) return 'null';
      return containerKind(value, traversal) === 'array'
        ? writeArray(value as readonly unknown[], traversal)
        : writeObject(value as Readonly<Record<string, unknown>>, traversal);
    default:
      throw unsupportedValue(value, traversal);
  }
}

function writeArray(array: readonly unknown[], traversal: Serialization): string {
  const level = traversal.enter(array);
  const segments = traversal.segments;
  const length = array.length;
  let out = '[';
  for (let i = 0; i < length; i++) {
    segments[level] = i;
    const item = array[i];
    if (item === undefined && !(i in array)) throw unsupportedValue(item, traversal, true);
    out += i === 0 ? writeValue(item, traversal) : `,${writeValue(item, traversal)}`;
  }
  traversal.leave();
  return `${out}]`;
}

function writeObject(object: Readonly<Record<string, unknown>>, traversal: Serialization): string {
  const level = traversal.enter(object);
  const segments = traversal.segments;
  const keys = Object.keys(object);
  const prefixes = traversal.keyPrefixes();
  if (prefixes === undefined) sortKeysByCodePoint(keys);
  else sortWithPrefixes(keys, prefixes);
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    segments[level] = key;
    const prefix = prefixes?.get(key) ?? `${quoteString(key, 'key', traversal)}:`;
    out += `${i === 0 ? '' : ','}${prefix}${writeValue(object[key], traversal)}`;
  }
  traversal.leave();
  return `${out}}`;
}

/**
 * Sorts keys by code point, remembering the prefix of each key that needs no escape (such a key also
 * holds no surrogate, so code unit order is right unless some other key has one).
 */
function sortWithPrefixes(keys: string[], prefixes: Map<string, string>): void {
  let onlyPlainKeys = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (prefixes.has(key)) continue;
    if (NEEDS_ESCAPE_OR_CHECK.test(key)) onlyPlainKeys = false;
    else prefixes.set(key, `"${key}":`);
  }
  if (onlyPlainKeys) sortSurrogateFreeKeys(keys);
  else keys.sort(compareByCodePoint);
}

/**
 * Writes a string as a JSON string literal. For a well-formed string `JSON.stringify` escapes exactly
 * what the reference escapes: `"`, `\`, and U+0000–U+001F (`\b \f \n \r \t`, else `\u00xx`).
 */
function quoteString(text: string, what: 'string' | 'key', traversal: Serialization): string {
  if (!NEEDS_ESCAPE_OR_CHECK.test(text)) return `"${text}"`;
  traversal.checkString(text, what);
  return JSON.stringify(text);
}
