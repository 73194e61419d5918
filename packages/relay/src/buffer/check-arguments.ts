import { RelayError } from '../errors.js';
import { isJsonValue } from '../json/json-value.js';
import type { BufferedFrame } from './inbound-buffer.js';
import { describeKeyString, isKeyString } from './key-string.js';

/**
 * Checks a tenant given to an inbound buffer: a non-empty string of well-formed Unicode.
 *
 * @throws {RelayError} `invalid_buffer_argument`, path `tenant`.
 */
export function checkBufferTenant(tenant: unknown): string {
  if (isKeyString(tenant)) return tenant;
  throw new RelayError(
    'invalid_buffer_argument',
    `tenant must be a non-empty, well-formed string, got ${describeKeyString(tenant)}`,
    { path: 'tenant' },
  );
}

/**
 * Checks the `limit` of a buffer read: a positive safe integer.
 *
 * @throws {RelayError} `invalid_buffer_argument`, path `limit`.
 */
export function checkReadLimit(limit: unknown): number {
  if (typeof limit === 'number' && Number.isSafeInteger(limit) && limit > 0) return limit;
  throw new RelayError(
    'invalid_buffer_argument',
    `limit must be a positive integer, got ${typeof limit === 'number' ? String(limit) : typeof limit}`,
    { path: 'limit' },
  );
}

/**
 * Checks a frame given to `append`: `{ type: 'inbound', event }` or `{ type: 'passthrough_forward',
 * forward }` with an object payload, no other keys, and nothing but plain JSON data (finite numbers,
 * plain objects and arrays, no cycles), so that every backend replays it as it was appended.
 *
 * @throws {RelayError} `invalid_buffer_argument`, path `frame` or `frame.<key>`.
 */
export function checkBufferedFrame(frame: unknown): BufferedFrame {
  const problem = bufferedFrameProblem(frame);
  if (problem === undefined) return frame as BufferedFrame;
  throw new RelayError('invalid_buffer_argument', problem.message, { path: problem.path });
}

/** Why `value` is not a `BufferedFrame` of plain JSON data, or `undefined` when it is one. */
export function bufferedFrameProblem(value: unknown): { message: string; path: string } | undefined {
  if (!isPlainObject(value)) return { message: 'frame must be an object', path: 'frame' };
  const payloadKey =
    value['type'] === 'inbound' ? 'event' : value['type'] === 'passthrough_forward' ? 'forward' : '';
  if (payloadKey === '') {
    return { message: 'frame.type must be "inbound" or "passthrough_forward"', path: 'frame.type' };
  }
  if (!isPlainObject(value[payloadKey])) {
    return { message: `frame.${payloadKey} must be an object`, path: `frame.${payloadKey}` };
  }
  const extra = Object.keys(value).find((key) => key !== 'type' && key !== payloadKey);
  if (extra !== undefined) {
    return {
      message: `a ${String(value['type'])} frame has no key ${JSON.stringify(extra)}`,
      path: `frame.${extra}`,
    };
  }
  if (!isJsonValue(value)) {
    return {
      message: 'frame must hold only plain JSON data (finite numbers, plain objects and arrays, no cycles)',
      path: `frame.${payloadKey}`,
    };
  }
  return undefined;
}

function isPlainObject(value: unknown): value is { readonly [key: string]: unknown } {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
