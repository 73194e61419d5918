import * as z from 'zod/mini';
import { isJsonValue, type JsonValue } from '../json/index.js';
import { isPythonTruthy, pythonStr } from '../python/index.js';

/**
 * Why Python's `str()` of a non-string `bufferId` cannot be known here, or `undefined` when it can.
 * JavaScript has one number type: an integral number beyond ±(2^53 − 1) may have been an `int` or a
 * float (`1e+16`) on the wire, and a `-0` inside a list or object an `int` `0` or the float `-0.0`.
 */
function unknowableReason(value: unknown): string | undefined {
  if (typeof value === 'number') {
    return Number.isInteger(value) && !Number.isSafeInteger(value)
      ? 'an integral number beyond ±(2^53 − 1) has no known Python str()'
      : undefined;
  }
  if (!isJsonValue(value)) return 'expected plain JSON data';
  return hasAmbiguousNumber(value) ? 'holds a number whose Python str() cannot be known' : undefined;
}

function hasAmbiguousNumber(value: JsonValue): boolean {
  if (typeof value === 'number') {
    return Number.isInteger(value) && (!Number.isSafeInteger(value) || Object.is(value, -0));
  }
  if (value === null || typeof value !== 'object') return false;
  return Object.values(value).some(hasAmbiguousNumber);
}

/** A `bufferId` that is not a string (and not `null`): read as the gateway's `str()` of it, `null` when falsy. */
const nonStringBufferIdSchema = z.pipe(
  z.unknown(),
  z.transform((value: unknown, ctx): string | null => {
    const reason = unknowableReason(value);
    if (reason !== undefined) {
      ctx.issues.push({ code: 'custom', message: reason, input: value });
      return z.NEVER;
    }
    return isPythonTruthy(value as JsonValue) ? pythonStr(value as JsonValue) : null;
  }),
);

/**
 * `bufferId` of an `inbound` or `passthrough_forward` frame as the gateway reads it: it handles the
 * frame whatever the id is, acks a truthy id as Python's `str(bufferId)`, and never acks a falsy one.
 * So a string is kept as it is; any other falsy value (`0`, `false`, `[]`, `{}`) reads as `null`;
 * any other value reads as its `str()`: `7` → `"7"`, `1e-05` → `"1e-05"`, `true` → `"True"`,
 * `[1, "a"]` → `"[1, 'a']"`. JavaScript cannot tell `1.0` from `1`, so an integral float reads as the
 * integer's text (`"1"`, where the gateway acks `"1.0"`); an integral number beyond ±(2^53 − 1), or a
 * `-0` inside a list or object, is refused. Connectors send string ids.
 */
export const bufferIdSchema = z.optional(z.nullable(z.union([z.string(), nonStringBufferIdSchema])));
