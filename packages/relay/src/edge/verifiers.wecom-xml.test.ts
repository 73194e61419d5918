import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractEncryptElement } from './verifiers-wecom.js';

describe('extractEncryptElement', () => {
  it('reads CDATA or plain text, whitespace around it ignored', () => {
    expect(extractEncryptElement('<xml><Encrypt><![CDATA[abc+/=]]></Encrypt></xml>')).toBe('abc+/=');
    expect(extractEncryptElement('<xml><Encrypt>abc</Encrypt></xml>')).toBe('abc');
    expect(extractEncryptElement('<xml>\n <Encrypt >\n  abc\n </Encrypt >\n</xml>')).toBe('abc');
    expect(extractEncryptElement('<xml><Encrypt>\n<![CDATA[abc]]>\n</Encrypt></xml>')).toBe('abc');
  });

  it('skips Encrypt tags inside other CDATA sections and comments, and similar tag names', () => {
    const xml =
      '<?xml version="1.0"?><xml><A><![CDATA[<Encrypt>x</Encrypt>]]></A><!-- <Encrypt>y</Encrypt> -->' +
      '<EncryptType>aes</EncryptType><Encrypt><![CDATA[z]]></Encrypt></xml>';
    expect(extractEncryptElement(xml)).toBe('z');
  });

  it('refuses no, several, empty, unclosed or mixed elements', () => {
    for (const xml of [
      '<xml></xml>',
      '<xml><Encrypt>a</Encrypt><Encrypt>a</Encrypt></xml>',
      '<xml><Encrypt></Encrypt></xml>',
      '<xml><Encrypt><![CDATA[]]></Encrypt></xml>',
      '<xml><Encrypt>abc',
      '<xml><Encrypt><![CDATA[abc</Encrypt></xml>',
      '<xml><Encrypt><![CDATA[a]]>b</Encrypt></xml>',
      '<xml><Encrypt>a<b/></Encrypt></xml>',
      '<xml><!-- unterminated',
    ]) {
      expect(() => extractEncryptElement(xml), xml).toThrow(
        expect.objectContaining({ code: 'malformed_body' }),
      );
    }
  });

  it('returns a string or throws malformed_body for any text', () => {
    const pieces = fc.constantFrom(
      '<Encrypt>',
      '</Encrypt>',
      '<![CDATA[',
      ']]>',
      '<!--',
      '-->',
      '<',
      '>',
      'ab',
      ' ',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string()), { maxLength: 12 }), (parts) => {
        try {
          expect(typeof extractEncryptElement(parts.join(''))).toBe('string');
        } catch (error) {
          expect(error).toMatchObject({ code: 'malformed_body' });
        }
      }),
      { numRuns: 500 },
    );
  });
});
