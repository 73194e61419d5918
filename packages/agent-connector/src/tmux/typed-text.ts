/** The text a delivery types into a pane, and how many characters were left out to get it. */
export interface TypedText {
  /** What `send-keys -l` types: line breaks as LF, no other control characters, no trailing LF. */
  readonly text: string;
  /** How many control characters were removed (line breaks and tabs are not counted). */
  readonly removed: number;
}

/** C0 controls other than TAB and LF, DEL, and the C1 controls. */
const KEYSTROKE_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Turns a payload's text into what may be typed into a pane, where every character is a keystroke:
 * - line breaks (`\r\n`, `\r`, `\n`) become LF (`C-j`); a trailing run of them is dropped, since the
 *   submit key ends the text;
 * - other control characters (C0 but TAB, DEL, C1) are removed — typed, they would act as keys
 *   (`C-c` interrupts, `C-d` ends input, `ESC` starts a terminal sequence), not as text;
 * - everything else, Unicode included, is kept as written.
 *
 * @example
 * typedText('deploy\r\nnow\u0003\n'); // { text: 'deploy\nnow', removed: 1 }
 */
export function typedText(raw: string): TypedText {
  const lines = raw.replace(/\r\n?/g, '\n');
  let removed = 0;
  const text = lines
    .replace(KEYSTROKE_CONTROLS, () => {
      removed += 1;
      return '';
    })
    .replace(/\n+$/, '');
  return { text, removed };
}

/**
 * Splits `text` into consecutive pieces of at most `maxBytes` UTF-8 bytes each, never inside a code
 * point; joined, the pieces are `text`. `''` gives `[]`. (A lone surrogate counts as the 3 bytes of the
 * U+FFFD it is encoded as.)
 *
 * @example
 * chunkUtf8('héllo', 3); // ['hé', 'llo']
 */
export function chunkUtf8(text: string, maxBytes: number): readonly string[] {
  const chunks: string[] = [];
  let chunk = '';
  let bytes = 0;
  for (const codePoint of text) {
    const size = utf8Length(codePoint.codePointAt(0) ?? 0);
    if (bytes + size > maxBytes && chunk !== '') {
      chunks.push(chunk);
      chunk = '';
      bytes = 0;
    }
    chunk += codePoint;
    bytes += size;
  }
  if (chunk !== '') chunks.push(chunk);
  return chunks;
}

function utf8Length(codePoint: number): number {
  if (codePoint <= 0x7f) return 1;
  if (codePoint <= 0x7ff) return 2;
  return codePoint <= 0xffff ? 3 : 4;
}
