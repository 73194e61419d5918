/** Scratch buffers up to this size are kept between calls; larger ones are dropped after use. */
const RETAINED_CAPACITY = 1 << 20;
const INITIAL_CAPACITY = 1 << 12;
/** UTF-16 → UTF-8 takes at most 3 bytes per code unit (a surrogate pair: 4 bytes for 2 units). */
const MAX_BYTES_PER_UNIT = 3;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

let scratch: Uint8Array | undefined = new Uint8Array(INITIAL_CAPACITY);

/**
 * Appends text to a growing UTF-8 byte buffer, encoding in the same loop that scans the text: canonical
 * JSON is written piece by piece, and one `TextEncoder` call per piece (or one large string encoded at
 * the end) costs more than the walk itself. Reuses one module-level scratch buffer between calls.
 */
export class Utf8Writer {
  private buffer: Uint8Array;
  private length = 0;
  private readonly borrowed: boolean;

  constructor() {
    // A nested call (a getter that canonicalises while we are writing) gets its own buffer.
    if (scratch === undefined) {
      this.buffer = new Uint8Array(INITIAL_CAPACITY);
      this.borrowed = false;
    } else {
      this.buffer = scratch;
      scratch = undefined;
      this.borrowed = true;
    }
  }

  /** Appends one ASCII byte. */
  writeByte(byte: number): void {
    if (this.length === this.buffer.length) this.grow(1);
    this.buffer[this.length++] = byte;
  }

  /** Appends well-formed text (callers check for lone surrogates first). */
  write(text: string): void {
    const end = this.encode(text, this.length, false);
    // encode() only refuses text in quoting mode or with a lone surrogate, which callers exclude.
    if (end >= 0) this.length = end;
  }

  /**
   * Appends `"text"` when the text needs no JSON escape — no `"`, `\`, U+0000–U+001F — and holds no
   * lone surrogate; returns false and writes nothing otherwise, leaving escapes and checks to the caller.
   */
  writeQuotedPlain(text: string): boolean {
    if (this.length + text.length * MAX_BYTES_PER_UNIT + 2 > this.buffer.length) {
      this.grow(text.length * MAX_BYTES_PER_UNIT + 2);
    }
    this.buffer[this.length] = QUOTE;
    const end = this.encode(text, this.length + 1, true);
    if (end < 0) return false;
    this.buffer[end] = QUOTE;
    this.length = end + 1;
    return true;
  }

  /** The bytes written, as a new array; the writer must not be used afterwards. */
  finish(): Uint8Array {
    const bytes = this.buffer.slice(0, this.length);
    this.release();
    return bytes;
  }

  /** Gives the scratch buffer back without producing output (after an error). */
  release(): void {
    if (this.borrowed) scratch = this.buffer.length <= RETAINED_CAPACITY ? this.buffer : undefined;
    if (this.borrowed && scratch === undefined) scratch = new Uint8Array(INITIAL_CAPACITY);
    this.length = 0;
  }

  /**
   * Encodes `text` at byte offset `at` and returns the end offset, or -1 when `quoting` and the text
   * needs an escape, or when it holds a lone surrogate.
   */
  private encode(text: string, at: number, quoting: boolean): number {
    const count = text.length;
    if (at + count * MAX_BYTES_PER_UNIT > this.buffer.length)
      this.grow(at - this.length + count * MAX_BYTES_PER_UNIT);
    const buffer = this.buffer;
    for (let i = 0; i < count; i++) {
      const unit = text.charCodeAt(i);
      if (unit < 0x80) {
        if (quoting && (unit < 0x20 || unit === QUOTE || unit === BACKSLASH)) return -1;
        buffer[at++] = unit;
      } else if (unit < 0x800) {
        buffer[at++] = 0xc0 | (unit >> 6);
        buffer[at++] = 0x80 | (unit & 0x3f);
      } else if (unit < 0xd800 || unit > 0xdfff) {
        buffer[at++] = 0xe0 | (unit >> 12);
        buffer[at++] = 0x80 | ((unit >> 6) & 0x3f);
        buffer[at++] = 0x80 | (unit & 0x3f);
      } else {
        const low = unit < 0xdc00 && i + 1 < count ? text.charCodeAt(i + 1) : 0;
        if (low < 0xdc00 || low > 0xdfff) return -1;
        const codePoint = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
        buffer[at++] = 0xf0 | (codePoint >> 18);
        buffer[at++] = 0x80 | ((codePoint >> 12) & 0x3f);
        buffer[at++] = 0x80 | ((codePoint >> 6) & 0x3f);
        buffer[at++] = 0x80 | (codePoint & 0x3f);
        i++;
      }
    }
    return at;
  }

  private grow(extra: number): void {
    let capacity = this.buffer.length * 2;
    while (capacity < this.length + extra) capacity *= 2;
    const next = new Uint8Array(capacity);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }
}
