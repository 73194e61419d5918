/** The type media is served with when the upload named none, or none that is a valid media type. */
export const DEFAULT_MEDIA_CONTENT_TYPE = 'application/octet-stream';

const MAX_CONTENT_TYPE_LENGTH = 255;
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[\\x20-\\x7e\\t]*)?$`);

/**
 * The `Content-Type` to keep for an upload: the header as sent when it is a `type/subtype` media type
 * (parameters allowed) of printable ASCII up to 255 characters, otherwise
 * {@link DEFAULT_MEDIA_CONTENT_TYPE}.
 */
export function mediaContentType(header: string | null): string {
  if (header === null) return DEFAULT_MEDIA_CONTENT_TYPE;
  const value = header.trim();
  return value.length <= MAX_CONTENT_TYPE_LENGTH && MEDIA_TYPE.test(value)
    ? value
    : DEFAULT_MEDIA_CONTENT_TYPE;
}
