/** Python's `text.rstrip(char)` for a single character: every trailing copy of `char` removed. */
export function rstripChar(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  return text.slice(0, end);
}
