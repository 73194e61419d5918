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
