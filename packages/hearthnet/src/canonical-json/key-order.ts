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

/**
 * Compares two strings by Unicode code point, as Python orders `str`. A surrogate pair counts as the
 * one astral code point it encodes; a lone surrogate (which Python strings may hold, e.g. from a
 * `\udc00` escape) counts as its own code point U+D800–U+DFFF, below U+E000 and every astral one.
 */
export function compareByCodePoint(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // Below U+D800 neither unit can be part of a surrogate pair that decides the order.
      return x < 0xd800 || y < 0xd800 ? x - y : compareCodePointsFrom(a, b, i);
    }
  }
  return a.length - b.length;
}

/**
 * Orders two strings that agree up to code unit `i` and differ there, by the code points that hold
 * unit `i`. A high surrogate just before `i` (shared by both) starts the code point in question: it
 * is an astral code point in a string whose unit `i` is a low surrogate and a lone surrogate in the
 * other.
 */
function compareCodePointsFrom(a: string, b: string, i: number): number {
  if (i > 0 && isHighSurrogate(a.charCodeAt(i - 1))) {
    const x = a.codePointAt(i - 1)!;
    const y = b.codePointAt(i - 1)!;
    if (x !== y) return x - y;
    // Both are the same lone high surrogate: the next code points start at `i`.
  }
  return a.codePointAt(i)! - b.codePointAt(i)!;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
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
    if (hasSurrogate(keys[i]!)) return keys.sort(compareByCodePoint);
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
