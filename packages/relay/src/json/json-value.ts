import * as z from 'zod/mini';

/**
 * A value that JSON can carry. Non-finite numbers are allowed because the gateway's Python JSON reader
 * accepts `NaN`, `Infinity` and `1e400`, and keeps them.
 */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** Containers nested deeper than this are refused (no JSON the gateway sends comes close). */
const MAX_JSON_DEPTH = 512;

/**
 * Whether `value` is plain JSON data: null, booleans, finite numbers, strings, and arrays and plain
 * objects of those, without cycles. A hand-written walk: frames are validated on every message, and a
 * recursive zod union costs several times the `JSON.parse` that produced the value.
 */
export function isJsonValue(value: unknown): value is JsonValue {
  return isJsonAt(value, 0, []);
}

function isJsonAt(value: unknown, depth: number, ancestors: object[]): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (depth >= MAX_JSON_DEPTH || ancestors.includes(value)) return false;
      ancestors.push(value);
      let ok = true;
      if (Array.isArray(value)) {
        for (let i = 0; ok && i < value.length; i++) ok = isJsonAt(value[i], depth + 1, ancestors);
      } else {
        const prototype = Object.getPrototypeOf(value);
        ok = prototype === Object.prototype || prototype === null;
        const record = value as Record<string, unknown>;
        for (const key in record) {
          if (!ok) break;
          if (Object.hasOwn(record, key)) ok = isJsonAt(record[key], depth + 1, ancestors);
        }
      }
      ancestors.pop();
      return ok;
    }
    default:
      return false;
  }
}

/** Zod schema of {@link JsonValue}: plain JSON data, no `undefined`, functions, bigints or class instances. */
export const jsonValueSchema: z.ZodMiniType<JsonValue> = /* @__PURE__ */ z.custom<JsonValue>(isJsonValue, {
  error: 'expected plain JSON data (null, boolean, finite number, string, array or plain object)',
});
