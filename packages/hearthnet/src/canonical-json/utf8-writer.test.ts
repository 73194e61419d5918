import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, Utf8Writer } from './canonical-json.js';

const encoder = new TextEncoder();
const wellFormed = fc.string({ unit: 'grapheme', maxLength: 40 });

describe('Utf8Writer', () => {
  it('writes any sequence of well-formed strings as their UTF-8 bytes, across buffer growth', () => {
    fc.assert(
      fc.property(fc.array(wellFormed, { maxLength: 300 }), (pieces) => {
        const writer = new Utf8Writer();
        for (const piece of pieces) writer.write(piece);
        expect(writer.finish()).toEqual(encoder.encode(pieces.join('')));
      }),
      { numRuns: 200 },
    );
  });

  it('quotes exactly the well-formed strings that need no JSON escape, and refuses the others without writing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), (text) => {
        const writer = new Utf8Writer();
        writer.writeByte(0x5b);
        const plain = writer.writeQuotedPlain(text);
        writer.writeByte(0x5d);
        const needsWork =
          /["\\\u0000-\u001f]/.test(text) ||
          /[\ud800-\udfff]/.test(text.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''));
        expect(plain).toBe(!needsWork);
        expect(writer.finish()).toEqual(encoder.encode(plain ? `[${JSON.stringify(text)}]` : '[]'));
      }),
      { numRuns: 200 },
    );
  });

  it('grows past the scratch size and past the retained size, then keeps working', () => {
    const big = 'x'.repeat(3 << 20);
    const writer = new Utf8Writer();
    writer.write('é');
    writer.write(big);
    const bytes = writer.finish();
    expect(bytes.length).toBe(big.length + 2);
    expect(bytes.subarray(0, 2)).toEqual(encoder.encode('é'));
    const after = new Utf8Writer();
    after.write('ok');
    expect(after.finish()).toEqual(encoder.encode('ok'));
  });

  it('returns a fresh array each time, never a view of the shared buffer', () => {
    const first = canonicalJson({ a: 1 });
    const second = canonicalJson({ b: 2 });
    expect(new TextDecoder().decode(first)).toBe('{"a":1}');
    expect(new TextDecoder().decode(second)).toBe('{"b":2}');
    expect(first.buffer).not.toBe(second.buffer);
    expect(first.byteLength).toBe(first.buffer.byteLength);
  });

  it('lets a nested call (a getter that canonicalises) use its own buffer', () => {
    const inner = { z: 'inner' };
    const outer = {
      get a() {
        return new TextDecoder().decode(canonicalJson(inner));
      },
      b: 'outer',
    };
    expect(new TextDecoder().decode(canonicalJson(outer))).toBe('{"a":"{\\"z\\":\\"inner\\"}","b":"outer"}');
  });

  it('leaves the shared buffer usable after an error in the middle of a write', () => {
    expect(() => canonicalJson({ a: 'x'.repeat(5000), b: Number.NaN })).toThrow();
    expect(new TextDecoder().decode(canonicalJson({ ok: true }))).toBe('{"ok":true}');
  });
});
