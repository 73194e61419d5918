const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Formats a path of keys and indexes as a JSON path: `["action", "options", 0]` → `$.action.options[0]`. */
export function jsonPath(segments: readonly PropertyKey[]): string {
  let path = '$';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (typeof segment === 'string' && IDENTIFIER.test(segment)) path += `.${segment}`;
    else path += `[${JSON.stringify(String(segment))}]`;
  }
  return path;
}
