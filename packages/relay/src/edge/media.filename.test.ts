import { describe, expect, it } from 'vitest';
import { mediaContentType, sanitizeMediaFilename } from './media.js';

describe('sanitizeMediaFilename', () => {
  it.each([
    ['cat.jpg', 'cat.jpg'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\photo.jpg', 'photo.jpg'],
    ['  spaced name.pdf  ', 'spaced name.pdf'],
    ['bad\u0000\r\nname.txt', 'badname.txt'],
    ['evil\u202egpj.exe', 'evilgpj.exe'],
    ['café résumé.png', 'café résumé.png'],
    ['dir/', undefined],
    ['..', undefined],
    ['.', undefined],
    ['', undefined],
    ['\u0001\u0002', undefined],
  ])('keeps %j as %j', (raw, expected) => {
    expect(sanitizeMediaFilename(raw)).toBe(expected);
  });

  it('answers a non-string with undefined rather than throwing', () => {
    expect(sanitizeMediaFilename(42 as unknown as string)).toBeUndefined();
  });
});

describe('mediaContentType', () => {
  it.each([
    ['image/jpeg', 'image/jpeg'],
    ['  text/plain; charset=utf-8 ', 'text/plain; charset=utf-8'],
    [null, 'application/octet-stream'],
    ['', 'application/octet-stream'],
    ['jpeg', 'application/octet-stream'],
    ['image/jpeg\u00e9', 'application/octet-stream'],
    [`image/${'x'.repeat(300)}`, 'application/octet-stream'],
  ])('keeps %j as %j', (header, expected) => {
    expect(mediaContentType(header)).toBe(expected);
  });
});
