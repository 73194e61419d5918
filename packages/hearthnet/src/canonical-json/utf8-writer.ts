const encoder = new TextEncoder();

/** Scratch buffers up to this size are kept between calls; larger ones are dropped after use. */
const RETAINED_CAPACITY = 1 << 20;
const INITIAL_CAPACITY = 1 << 12;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ESCAPE_OR_SURROGATE = /["\\\u0000-\u001f\ud800-\udfff]/;

let scratch: Uint8Array | undefined = new Uint8Array(INITIAL_CAPACITY);

/**
 * Appends text to a growing UTF-8 byte buffer. ASCII (nearly all canonical JSON: punctuation, keys,
 * numbers) is copied code unit by code unit, which beats a `TextEncoder` call per piece and avoids
 * building one large string first; the rest of a string that leaves ASCII goes through `encodeInto`.
 * Callers pass only well-formed text (the canonical writer rejects lone surrogates first).
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

  write(text: string): void {
    const count = text.length;
    if (this.length + count > this.buffer.length) this.grow(count);
    const buffer = this.buffer;
    let at = this.length;
    for (let i = 0; i < count; i++) {
      const unit = text.charCodeAt(i);
      if (unit >= 0x80) {
        this.length = at;
        this.writeBeyondAscii(i === 0 ? text : text.slice(i));
        return;
      }
      buffer[at++] = unit;
    }
    this.length = at;
  }

  /** Appends one ASCII byte. */
  writeByte(byte: number): void {
    if (this.length === this.buffer.length) this.grow(1);
    this.buffer[this.length++] = byte;
  }

  /**
   * Appends `"text"` when the text needs no JSON escape — no `"`, `\`, U+0000–U+001F — and holds no
   * surrogate; returns false and writes nothing otherwise, leaving escapes and checks to the caller.
   */
  writeQuotedPlain(text: string): boolean {
    const count = text.length;
    if (this.length + count + 2 > this.buffer.length) this.grow(count + 2);
    const buffer = this.buffer;
    const start = this.length;
    let at = start;
    buffer[at++] = QUOTE;
    for (let i = 0; i < count; i++) {
      const unit = text.charCodeAt(i);
      if (unit < 0x20 || unit === QUOTE || unit === BACKSLASH) return false;
      if (unit >= 0x80) {
        const rest = i === 0 ? text : text.slice(i);
        if (ESCAPE_OR_SURROGATE.test(rest)) return false;
        this.length = at;
        this.writeBeyondAscii(rest);
        this.writeByte(QUOTE);
        return true;
      }
      buffer[at++] = unit;
    }
    buffer[at++] = QUOTE;
    this.length = at;
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
    if (this.borrowed && this.buffer.length <= RETAINED_CAPACITY) scratch = this.buffer;
    else if (this.borrowed) scratch = new Uint8Array(INITIAL_CAPACITY);
    this.length = 0;
  }

  private writeBeyondAscii(text: string): void {
    // UTF-16 → UTF-8 takes at most 3 bytes per code unit.
    const needed = text.length * 3;
    if (this.length + needed > this.buffer.length) this.grow(needed);
    this.length += encoder.encodeInto(text, this.buffer.subarray(this.length)).written;
  }

  private grow(extra: number): void {
    let capacity = this.buffer.length * 2;
    while (capacity < this.length + extra) capacity *= 2;
    const next = new Uint8Array(capacity);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }
}
