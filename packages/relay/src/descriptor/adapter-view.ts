import type { CapabilityDescriptor } from './schema.js';

/**
 * The length of `text` as the gateway's adapter measures it against `max_message_length`: UTF-16 code
 * units when `len_unit` is exactly `"utf16"`, Unicode code points (Python's `len`) for anything else,
 * `"chars"` and unknown values included. (JavaScript's `string.length` is the `utf16` measure.)
 *
 * Two inputs the gateway cannot measure at all get a number here: under `"utf16"` a lone surrogate
 * counts as one code unit (the gateway's UTF-16 encoding raises on it), and a `len_unit` that is a
 * JSON array or object counts code points (the gateway's table lookup raises on an unhashable key,
 * for every message).
 *
 * @example
 * descriptorMessageLength({ ...descriptor, len_unit: 'chars' }, '👋 hi'); // 4
 * descriptorMessageLength({ ...descriptor, len_unit: 'utf16' }, '👋 hi'); // 5
 */
export function descriptorMessageLength(
  descriptor: Pick<CapabilityDescriptor, 'len_unit'>,
  text: string,
): number {
  if ((descriptor.len_unit as unknown) === 'utf16') return text.length;
  let codePoints = 0;
  for (const _ of text) codePoints += 1;
  return codePoints;
}

/**
 * Whether the gateway's adapter sends code blocks to this platform: `markdown_dialect not in ("",
 * "plain")` — so any other value, `null` or a non-string included, means yes.
 */
export function descriptorSupportsCodeBlocks(
  descriptor: Pick<CapabilityDescriptor, 'markdown_dialect'>,
): boolean {
  const dialect = descriptor.markdown_dialect as unknown;
  return dialect !== '' && dialect !== 'plain';
}
