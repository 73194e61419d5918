const MEDIA_ID = /^[0-9a-f]{32}$/;

/**
 * A new media id: 128 random bits as 32 lowercase hex digits. It is safe in a URL path segment and a
 * file name, and cannot name another path.
 */
export function newMediaId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let id = '';
  for (const byte of bytes) id += byte.toString(16).padStart(2, '0');
  return id;
}

/** Whether `value` has the form of a {@link newMediaId} id; stores answer any other id as unknown. */
export function isMediaId(value: unknown): value is string {
  return typeof value === 'string' && MEDIA_ID.test(value);
}
