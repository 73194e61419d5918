import { storageValidationError } from './errors.js';

/** The longest `summary` kept whole, in UTF-16 code units. */
export const SUMMARY_MAX_LENGTH = 200;
const ELLIPSIS = '...';

/**
 * The `summary` a data store derives from written content, as the reference `SqliteDataStore` does:
 * the text before the first `\n`, and when that is longer than {@link SUMMARY_MAX_LENGTH} UTF-16 code
 * units, its first 197 followed by `...` (200 in all). A `\r` before the `\n` stays, as in the reference.
 *
 * One deliberate difference: a cut that would split a surrogate pair (an emoji at position 197) keeps
 * 196 units instead, so the summary never holds a lone surrogate that storage would turn into U+FFFD.
 *
 * @throws {AgentConnectorError} `storage_validation`: when `content` is not a string.
 * @example
 * summarizeContent('Deploy window moved\nDetails follow'); // 'Deploy window moved'
 */
export function summarizeContent(content: string): string {
  if (typeof content !== 'string') throw storageValidationError('must be a string', 'content');
  const newline = content.indexOf('\n');
  const firstLine = newline === -1 ? content : content.slice(0, newline);
  if (firstLine.length <= SUMMARY_MAX_LENGTH) return firstLine;
  let cut = SUMMARY_MAX_LENGTH - ELLIPSIS.length;
  const last = firstLine.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return `${firstLine.slice(0, cut)}${ELLIPSIS}`;
}
