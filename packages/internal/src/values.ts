// The checks every package runs on values it did not make: is this a JSON object, a plain object, and
// how to name what was given in an error message.

/**
 * Whether `value` is an object that is neither `null` nor an array: the shape of a JSON object once
 * parsed. Class instances (a `Map`, a `Date`) pass; use {@link isPlainObject} where they must not. `T`
 * only narrows the type (to `JsonObject`, say) where the caller knows every such object has that shape,
 * as for a value `JSON.parse` returned.
 */
export function isJsonObject<T extends object = Record<string, unknown>>(value: unknown): value is T {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `value` is a plain object: made by `{}` or `Object.create(null)`, not an array or a class instance. */
export function isPlainObject<T extends object = Record<string, unknown>>(value: unknown): value is T {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Names the kind of what was given, for an error message, never its content (which may be a secret):
 * `null`, `undefined`, `an array`, `a Map` (a class instance by its class), `an object`, `a string`,
 * `a number`, `a boolean`, `a bigint`, `a function`, `a symbol`.
 */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'object':
      return describeObject(value);
    default:
      return `a ${typeof value}`;
  }
}

/**
 * Names what was given, with its content where that is short and safe to show (not for secrets), for an
 * error message: `null`, `an array`, `a Map`, `an object`, a quoted string
 * (clipped to 80 characters), a number or bigint as written, or the `typeof` of anything else.
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
    case 'number':
    case 'boolean':
      return String(value);
    case 'bigint':
      return `${value}n`;
    case 'object':
      return describeObject(value);
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default:
      return typeof value;
  }
}

/** `a Map` for an instance of a named class, else `an object`; never throws (a getter or a Proxy may). */
function describeObject(value: object): string {
  try {
    const maker: unknown = Object.getPrototypeOf(value)?.constructor;
    return typeof maker === 'function' && maker.name !== '' && maker !== Object
      ? `a ${maker.name}`
      : 'an object';
  } catch {
    return 'an object';
  }
}

/**
 * `messageOf(error)`, followed by its cause's message in parentheses when it has one: `fetch` rejects
 * with "fetch failed" and puts what failed (a refused connection, an unknown host) only in `cause`.
 */
export function messageWithCause(error: unknown): string {
  try {
    const cause = error instanceof Error ? error.cause : undefined;
    if (cause === undefined) return messageOf(error);
    // Node's AggregateError of a dual-stack connect has no message: its errors, or its code, say it.
    const errors = cause instanceof AggregateError ? cause.errors.map(messageOf).filter(Boolean) : [];
    const code = (cause as { readonly code?: unknown }).code;
    const what =
      messageOf(cause) || (errors.length > 0 ? errors.join('; ') : typeof code === 'string' ? code : '');
    return what === '' ? messageOf(error) : `${messageOf(error)} (${what})`;
  } catch {
    return messageOf(error);
  }
}

/** The message of a thrown value: `error.message` for an `Error`, its string form otherwise, never a throw. */
export function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return 'unprintable error';
  }
}
