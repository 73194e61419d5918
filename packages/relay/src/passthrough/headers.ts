import { RelayError } from '../errors.js';
import { pythonStr } from '../python/index.js';
import { describe } from './describe.js';

/** One forwarded HTTP header, `[name, value]`, as it travels in `forward.headers`. */
export type PassthroughHeader = readonly [name: string, value: string];

/**
 * Headers as `[name, value]` pairs from `[name, value]` entries, such as a WHATWG `Headers` object
 * (which lower-cases names and joins repeated headers) or `Object.entries` of a plain record. Order
 * is kept. Throws a `RelayError` `passthrough_invalid_argument` for an entry that is not a pair of strings.
 *
 * @example
 * passthroughHeadersFromEntries(request.headers); // [['content-type', 'application/json'], …]
 */
export function passthroughHeadersFromEntries(
  entries: Iterable<readonly [string, string]>,
): PassthroughHeader[] {
  if (typeof entries !== 'object' || entries === null || !(Symbol.iterator in entries)) {
    throw new RelayError(
      'passthrough_invalid_argument',
      `entries must be iterable, got ${describe(entries)}`,
      { path: 'entries' },
    );
  }
  const headers: PassthroughHeader[] = [];
  for (const entry of entries as Iterable<unknown>) {
    const path = `entries[${headers.length}]`;
    if (!Array.isArray(entry) || entry.length !== 2) {
      throw new RelayError('passthrough_invalid_argument', `${path} must be a [name, value] pair`, { path });
    }
    headers.push([requireString(entry[0], `${path}[0]`), requireString(entry[1], `${path}[1]`)]);
  }
  return headers;
}

/**
 * Headers as `[name, value]` pairs from Node's `IncomingMessage.rawHeaders` (a flat
 * `[name, value, name, value, …]` list), which keeps the received spelling, order and repeats —
 * the closest to the bytes the provider sent.
 *
 * @example
 * passthroughHeadersFromRawHeaders(req.rawHeaders);
 */
export function passthroughHeadersFromRawHeaders(rawHeaders: readonly string[]): PassthroughHeader[] {
  if (!Array.isArray(rawHeaders) || rawHeaders.length % 2 !== 0) {
    throw new RelayError('passthrough_invalid_argument', 'rawHeaders must be an array of even length', {
      path: 'rawHeaders',
    });
  }
  const headers: PassthroughHeader[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    headers.push([
      requireString(rawHeaders[i], `rawHeaders[${i}]`),
      requireString(rawHeaders[i + 1], `rawHeaders[${i + 1}]`),
    ]);
  }
  return headers;
}

/**
 * Reads a wire `forward.headers` value as the gateway does: a missing or falsy value, a string or an
 * object gives no headers; in an array, only 2-element arrays are kept (others are skipped), in
 * order, each part converted with Python's `str()` — `null` → `"None"`, `true` → `"True"`, `false` →
 * `"False"`, an integer → its decimal digits. Throws a `RelayError` `passthrough_headers_invalid` for a
 * truthy number or `true` (the gateway's reader crashes iterating it) and for a part whose `str()`
 * cannot be reproduced here (a non-integer number, an integer beyond 2^53, an array or object).
 * JavaScript has one number type, so an integral float on the wire (`1.0`) reaches this function as
 * `1` and is rendered `"1"`, where the gateway writes `"1.0"` (the frame decoders refuse any
 * non-string header part, so this only concerns values read by other means).
 */
export function passthroughHeadersFromWire(value: unknown): PassthroughHeader[] {
  if (!value || typeof value === 'string' || (typeof value === 'object' && !Array.isArray(value))) return [];
  if (!Array.isArray(value)) {
    throw new RelayError(
      'passthrough_headers_invalid',
      `headers is ${describe(value)} ${String(value)}, which the gateway cannot iterate`,
      { path: 'headers' },
    );
  }
  const headers: PassthroughHeader[] = [];
  value.forEach((pair: unknown, i) => {
    if (!Array.isArray(pair) || pair.length !== 2) return;
    headers.push([headerPartStr(pair[0], `headers[${i}][0]`), headerPartStr(pair[1], `headers[${i}][1]`)]);
  });
  return headers;
}

function requireString(value: unknown, path: string): string {
  if (typeof value !== 'string')
    throw new RelayError('passthrough_invalid_argument', `${path} must be a string, got ${describe(value)}`, {
      path,
    });
  return value;
}

/**
 * Python's `str()` of a header part. Only strings, `null`, booleans and safe integers other than `-0`
 * are rendered: an integral number may have been spelled as a float on the wire (`1e16`, `-0.0`),
 * and the other values are refused as {@link passthroughHeadersFromWire} documents.
 */
function headerPartStr(value: unknown, path: string): string {
  if (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    value === null ||
    (typeof value === 'number' && Number.isSafeInteger(value) && !Object.is(value, -0))
  ) {
    return pythonStr(value);
  }
  throw new RelayError(
    'passthrough_headers_invalid',
    `${path} is ${describe(value)}; its Python str() form depends on how the JSON spelled it`,
    { path },
  );
}
