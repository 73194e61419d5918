// A UTF-16 code unit from the surrogate range that is not part of a high-low pair.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether `value` can name a tenant, session key, kind or credential in every relay runtime backend:
 * a non-empty string of well-formed Unicode. A lone surrogate is refused because it has no UTF-8
 * form: a backend that stores UTF-8 (Redis) would merge two different names into one.
 */
export function isKeyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && !LONE_SURROGATE.test(value);
}

/** How {@link isKeyString} refusals describe `value`. */
export function describeKeyString(value: unknown): string {
  if (typeof value !== 'string') return value === null ? 'null' : typeof value;
  return value === '' ? 'an empty string' : 'a string with a lone surrogate';
}
