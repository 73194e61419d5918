const MAX_CHARS = 200;

/**
 * A short, unambiguous rendering of a value for failure messages: strings JSON-quoted, bigints with
 * `n`, bytes as `bytes(<hex>)`, `-0` kept, long output cut.
 */
export function formatValue(value: unknown): string {
  const text = render(value, new Set());
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}… (${text.length} chars)` : text;
}

function render(value: unknown, seen: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'bigint':
      return `${value}n`;
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'undefined':
    case 'boolean':
    case 'symbol':
      return String(value);
    case 'function':
      return `[function ${value.name || 'anonymous'}]`;
  }
  if (value === null) return 'null';
  const object = value as object;
  if (object instanceof Uint8Array) return `bytes(${toHex(object)})`;
  if (seen.has(object)) return '[circular]';
  seen.add(object);
  try {
    if (Array.isArray(object)) return `[${object.map((item) => render(item, seen)).join(', ')}]`;
    if (object instanceof Error) return `${object.name}: ${object.message}`;
    const entries = Object.entries(object).map(
      ([key, item]) => `${JSON.stringify(key)}: ${render(item, seen)}`,
    );
    return `{${entries.join(', ')}}`;
  } finally {
    seen.delete(object);
  }
}

function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
