import { messageOf } from '@agentwire/internal';

// Signatures are checked against the value `JSON.parse` gives, and `JSON.parse` reads some texts as
// another value than they spell, silently: of a repeated key it keeps the last member, and an integer a
// double cannot hold becomes a neighbouring one (or Infinity). Such a text verifies while a second reader
// of the same bytes — a proxy or a log that keeps the first key, the Python reference, which reads
// integers exactly — sees another request. The strict reader refuses them. Left alone, because every
// reader reads them alike or they can never verify:
// - an own `__proto__` key: `JSON.parse` makes it an own data property and canonical JSON signs it as data;
// - a lone surrogate escape (`"\ud800"`): read as it is; canonical JSON refuses to encode it, so a
//   signature over it never verifies;
// - a float token with more digits than a double holds (`0.1000000000000000000001`): Python rounds it to
//   the same double, and the signature covers its canonical `%g` value anyway (decision 2: lossy numbers
//   verify and are reported);
// - an integer token that is JavaScript's own shortest form of a double (`JSON.stringify` writes
//   1.2345678901234567e19 as `12345678901234567000`): what JS peers and our sync send; from 1e16 up
//   the signature covers the `%g` value (decision 2 again). Below 1e16 every such token is exact.

/** Containers the quick walk follows before it leaves the rest to the exact pass (no deep recursion). */
const QUICK_WALK_DEPTH = 1000;
/** The largest magnitude below which every number `JSON.parse` gives is the token's exact value. */
const EXACT_LIMIT = Number.MAX_SAFE_INTEGER;
const NUMBER_TOKEN = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/** A text `JSON.parse` reads but that {@link parseStrictJson} refuses, and where. */
type StrictJsonProblem =
  | {
      /** `JSON.parse` refuses the text. */
      readonly problem: 'syntax';
      readonly message: string;
      /** The `SyntaxError` of `JSON.parse`. */
      readonly cause: unknown;
    }
  | {
      /** An object holds two members with this key (after escapes are decoded). */
      readonly problem: 'duplicate_key';
      readonly key: string;
      /** The JSON path of the repeated member, e.g. `$.input.title`. */
      readonly path: string;
      /** `duplicate key "title" at $.input.title`. */
      readonly message: string;
      /** What `JSON.parse` made of the text (the last of the repeated members wins). */
      readonly value: unknown;
    }
  | {
      /**
       * A number token `JSON.parse` cannot read as written: an integer beyond ±(2⁵³ − 1) that no double
       * holds exactly (unless it is JavaScript's own digits of the double read), or any number beyond the
       * double range (read as ±Infinity).
       */
      readonly problem: 'inexact_number';
      /** The number as written. */
      readonly token: string;
      readonly path: string;
      /** `number 9007199254740993 at $.input.n that a double cannot hold exactly`. */
      readonly message: string;
      /** What `JSON.parse` made of the text. */
      readonly value: unknown;
    };

/** What {@link parseStrictJson} read: the value, or the first problem in document order. */
type StrictJson =
  | { readonly ok: true; readonly value: unknown }
  | ({ readonly ok: false } & StrictJsonProblem);

/**
 * `JSON.parse` for texts whose meaning must not depend on the reader — every signed body this package
 * reads: refuses a repeated key in any object, at any depth, and a number token that `JSON.parse` would
 * change. Never throws; `JSON.parse`'s own refusal comes back as the `syntax` problem.
 *
 * Fast: the text is parsed once by `JSON.parse`, then one `indexOf` pass counts the keys it holds and one
 * walk counts the keys the parsed objects hold (a repeated key leaves one fewer) and spots numbers beyond
 * ±(2⁵³ − 1). Only when the counts differ, or such a number or very deep nesting is seen, does an exact
 * token-by-token pass find the offending member and its path.
 *
 * @example
 * parseStrictJson('{"title":"FREE MONEY","title":"Wasser"}');
 * // { ok: false, problem: 'duplicate_key', key: 'title', path: '$.title',
 * //   message: 'duplicate key "title" at $.title', value: { title: 'Wasser' } }
 */
export function parseStrictJson(text: string): StrictJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: 'syntax', message: messageOf(error), cause: error };
  }
  quickWalkUnsure = false;
  useForIn = !inheritsEnumerableKeys();
  const treeKeys = typeof value === 'object' && value !== null ? countTreeKeys(value, 1) : checkScalar(value);
  if (!quickWalkUnsure && treeKeys === countTextKeys(text)) return { ok: true, value };
  return exactPass(text, value) ?? { ok: true, value };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * {@link parseStrictJson} of UTF-8 bytes (a leading byte order mark is skipped). Bytes that are not UTF-8
 * are the `syntax` problem: decoding them would put U+FFFD in their place, so different bytes would read
 * — and verify — alike.
 */
export function parseStrictJsonBytes(bytes: Uint8Array): StrictJson {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch (error) {
    return { ok: false, problem: 'syntax', message: 'the bytes are not UTF-8', cause: error };
  }
  return parseStrictJson(text);
}

/**
 * {@link parseStrictJson} (of bytes: {@link parseStrictJsonBytes}) for a reader that refuses with an
 * error of its own: the value, or throws `refuse(message, options)` with `<what> is not UTF-8 JSON`
 * (`cause`: the parse error) or `<what> holds a duplicate key "title" at $.input.title`.
 */
export function readStrictJson(
  input: string | Uint8Array,
  what: string,
  refuse: (message: string, options?: ErrorOptions) => Error,
): unknown {
  const read = typeof input === 'string' ? parseStrictJson(input) : parseStrictJsonBytes(input);
  if (read.ok) return read.value;
  throw read.problem === 'syntax'
    ? refuse(`${what} is not UTF-8 JSON`, { cause: read.cause })
    : refuse(`${what} holds a ${read.message}`);
}

/** Set by the quick walk when it cannot vouch for the text: a number beyond ±(2⁵³ − 1), or deep nesting. */
let quickWalkUnsure = false;
/** Whether the quick walk may list keys with `for…in` (see {@link countTreeKeys}). */
let useForIn = true;

function checkScalar(value: unknown): number {
  if (typeof value === 'number' && !(value >= -EXACT_LIMIT && value <= EXACT_LIMIT)) quickWalkUnsure = true;
  return 0;
}

/**
 * The number of own keys of every object in a value `JSON.parse` made. `for…in` is the fastest way to
 * visit them; it also visits inherited enumerable keys, so it is used only while `Object.prototype` (the
 * prototype of every object `JSON.parse` makes) has none — someone may have added one.
 */
function countTreeKeys(container: object, depth: number): number {
  if (depth > QUICK_WALK_DEPTH) {
    quickWalkUnsure = true;
    return 0;
  }
  let count = 0;
  if (Array.isArray(container)) {
    for (let i = 0; i < container.length; i++) {
      const item: unknown = container[i];
      if (typeof item === 'object') {
        if (item !== null) count += countTreeKeys(item, depth + 1);
      } else if (typeof item === 'number' && !(item >= -EXACT_LIMIT && item <= EXACT_LIMIT)) {
        quickWalkUnsure = true;
      }
    }
    return count;
  }
  const record = container as Record<string, unknown>;
  if (!useForIn) return countOwnKeys(record, depth);
  for (const key in record) {
    count += 1;
    const item = record[key];
    if (typeof item === 'object') {
      if (item !== null) count += countTreeKeys(item, depth + 1);
    } else if (typeof item === 'number' && !(item >= -EXACT_LIMIT && item <= EXACT_LIMIT)) {
      quickWalkUnsure = true;
    }
  }
  return count;
}

/** {@link countTreeKeys} for one object, by `Object.keys`. */
function countOwnKeys(record: Record<string, unknown>, depth: number): number {
  const keys = Object.keys(record);
  let count = keys.length;
  for (let i = 0; i < keys.length; i++) {
    const item = record[keys[i] as string];
    if (typeof item === 'object') {
      if (item !== null) count += countTreeKeys(item, depth + 1);
    } else if (typeof item === 'number' && !(item >= -EXACT_LIMIT && item <= EXACT_LIMIT)) {
      quickWalkUnsure = true;
    }
  }
  return count;
}

/** Whether `for…in` over a plain object would also list inherited keys. */
function inheritsEnumerableKeys(): boolean {
  for (const _ in EMPTY) return true;
  return false;
}
const EMPTY = {};

/**
 * The number of object keys in a JSON text `JSON.parse` accepted: strings followed by `:`. Jumps from
 * quote to quote with `indexOf`; a quote is escaped when an odd run of backslashes precedes it.
 */
function countTextKeys(text: string): number {
  let keys = 0;
  let start = text.indexOf('"');
  while (start !== -1) {
    const end = closingQuote(text, start);
    if (end === -1) return -1;
    let next = end + 1;
    let code = text.charCodeAt(next);
    while (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) code = text.charCodeAt(++next);
    if (code === COLON) keys += 1;
    start = text.indexOf('"', next);
  }
  return keys;
}

/** The index of the quote that closes the string opening at `start`, or -1. */
function closingQuote(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  while (end !== -1 && text.charCodeAt(end - 1) === BACKSLASH) {
    let backslashes = 1;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) break;
    end = text.indexOf('"', end + 1);
  }
  return end;
}

interface Container {
  /** The keys seen so far, for an object; `undefined` for an array. */
  readonly keys: Set<string> | undefined;
  /** The current member's key or element's index. */
  segment: JsonPathSegment;
}

/**
 * One token-by-token pass over a text `JSON.parse` accepted (so every token is well formed), without
 * recursion: the first repeated key or inexact number, in document order, or `undefined`.
 */
function exactPass(text: string, value: unknown): StrictJson | undefined {
  const stack: Container[] = [];
  const pathWith = (last?: JsonPathSegment) => {
    const segments = stack.map((container) => container.segment);
    if (last !== undefined) segments[segments.length - 1] = last;
    return formatJsonPath(segments);
  };
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x7b /* { */) {
      stack.push({ keys: new Set(), segment: '' });
      i += 1;
    } else if (code === 0x5b /* [ */) {
      stack.push({ keys: undefined, segment: 0 });
      i += 1;
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
      stack.pop();
      i += 1;
    } else if (code === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top !== undefined && top.keys === undefined) top.segment = (top.segment as number) + 1;
      i += 1;
    } else if (code === QUOTE) {
      const end = closingQuote(text, i);
      if (end === -1) return undefined; // Not JSON: JSON.parse accepted the text, so this cannot happen.
      let next = end + 1;
      let after = text.charCodeAt(next);
      while (after === 0x20 || after === 0x0a || after === 0x0d || after === 0x09)
        after = text.charCodeAt(++next);
      const top = stack[stack.length - 1];
      if (after === COLON && top?.keys !== undefined) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (top.keys.has(key)) {
          const path = pathWith(key);
          return {
            ok: false,
            problem: 'duplicate_key',
            key,
            path,
            message: `duplicate key ${JSON.stringify(key)} at ${path}`,
            value,
          };
        }
        top.keys.add(key);
        top.segment = key;
      }
      i = next;
    } else if (code === 0x2d /* - */ || (code >= 0x30 && code <= 0x39)) {
      NUMBER_TOKEN.lastIndex = i;
      const token = (NUMBER_TOKEN.exec(text) as RegExpExecArray)[0];
      if (!readsExactly(token)) {
        const path = pathWith();
        return {
          ok: false,
          problem: 'inexact_number',
          token,
          path,
          message: `number ${token} at ${path} that a double cannot hold exactly`,
          value,
        };
      }
      i += token.length;
    } else {
      // Whitespace, ':' and the letters of true, false and null.
      i += 1;
    }
  }
  return undefined;
}

/**
 * Whether `JSON.parse` reads a number token as written: finite, and an integer token either exactly or as
 * the digits JavaScript itself writes for the double read (`JSON.stringify(1.2345678901234567e19)` is
 * `12345678901234567000`, which reads back as that double, not as the integer it spells).
 */
function readsExactly(token: string): boolean {
  const value = Number(token);
  if (!Number.isFinite(value)) return false;
  if (value >= -EXACT_LIMIT && value <= EXACT_LIMIT) return true;
  if (/[.eE]/.test(token)) return true;
  return token === String(value) || BigInt(token) === BigInt(value);
}

/** One step into a JSON value: an object key or an array index. */
export type JsonPathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Writes the first `count` segments as a JSON path: `$` for the root, `.key` for identifier-like keys,
 * `["key"]` (the key as a JSON string) for any other key, `[i]` for array indexes.
 *
 * @example
 * formatJsonPath(['items', 3, 'content-type']); // '$.items[3]["content-type"]'
 */
export function formatJsonPath(segments: readonly JsonPathSegment[], count = segments.length): string {
  let path = '$';
  for (let i = 0; i < count; i++) {
    const segment = segments[i];
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (segment !== undefined)
      path += IDENTIFIER.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
  }
  return path;
}
