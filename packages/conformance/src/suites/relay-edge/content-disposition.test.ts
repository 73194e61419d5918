import { describe, expect, it } from 'vitest';
import { parseContentDisposition } from './content-disposition.js';

describe('parseContentDisposition', () => {
  it('reads a plain quoted filename', () => {
    expect(parseContentDisposition('attachment; filename="scan.png"')).toEqual({
      type: 'attachment',
      filename: 'scan.png',
    });
  });

  it('prefers filename* over the ASCII fallback, in either order', () => {
    const name = 'café menü.png';
    expect(
      parseContentDisposition(
        `attachment; filename="caf_ men_.png"; filename*=UTF-8''caf%C3%A9%20men%C3%BC.png`,
      ),
    ).toEqual({ type: 'attachment', filename: name });
    expect(
      parseContentDisposition(`Attachment; filename*=utf-8'en'caf%C3%A9%20men%C3%BC.png; filename=x`),
    ).toEqual({ type: 'attachment', filename: name });
  });

  it('unescapes quoted-pairs and reads tokens and ISO-8859-1 ext-values', () => {
    expect(parseContentDisposition('attachment; filename="a\\"b.txt"')?.filename).toBe('a"b.txt');
    expect(parseContentDisposition('inline; filename=plain.txt')).toEqual({
      type: 'inline',
      filename: 'plain.txt',
    });
    expect(parseContentDisposition("attachment; filename*=ISO-8859-1''caf%E9.png")?.filename).toBe(
      'café.png',
    );
  });

  it('has no filename for a bare type or a broken ext-value, and refuses an unreadable header', () => {
    expect(parseContentDisposition('attachment')).toEqual({ type: 'attachment', filename: undefined });
    expect(parseContentDisposition("attachment; filename*=UTF-8''%FF")?.filename).toBeUndefined();
    expect(parseContentDisposition('; filename=x')).toBeUndefined();
  });
});
