import { describe, expect, it } from 'vitest';
import { canonicalWhatsAppIdentifier, normalizeWhatsAppIdentifier } from './session-key.js';

describe('normalizeWhatsAppIdentifier', () => {
  it('strips, drops the first +, cuts at the first : and then at the first @', () => {
    expect(normalizeWhatsAppIdentifier('  +60123456789:47@s.whatsapp.net ')).toBe('60123456789');
    expect(normalizeWhatsAppIdentifier('60+1+2')).toBe('601+2');
    expect(normalizeWhatsAppIdentifier('a@b:c')).toBe('a');
    expect(normalizeWhatsAppIdentifier(' + 60')).toBe(' 60');
  });

  it('reads falsy values as "" and renders others as Python str()', () => {
    for (const value of [null, undefined, '', 0, false]) expect(normalizeWhatsAppIdentifier(value)).toBe('');
    expect(normalizeWhatsAppIdentifier(60123)).toBe('60123');
    expect(normalizeWhatsAppIdentifier(true)).toBe('True');
  });

  it('strips Python whitespace, which differs from String.prototype.trim', () => {
    expect(normalizeWhatsAppIdentifier('\u001c60\u0085')).toBe('60');
    expect(normalizeWhatsAppIdentifier('\ufeff60')).toBe('\ufeff60');
  });
});

describe('canonicalWhatsAppIdentifier', () => {
  it('returns the normalised id for resolvable identifiers', () => {
    expect(canonicalWhatsAppIdentifier('60123456789@s.whatsapp.net')).toBe('60123456789');
    expect(canonicalWhatsAppIdentifier('1234567890@lid')).toBe('1234567890');
    expect(canonicalWhatsAppIdentifier('abc.def-1@x')).toBe('abc.def-1');
  });

  it('normalises twice, as the gateway does', () => {
    expect(canonicalWhatsAppIdentifier('++60')).toBe('60');
    expect(canonicalWhatsAppIdentifier(' + 60')).toBe('60');
    expect(canonicalWhatsAppIdentifier('+ +60')).toBe('60');
  });

  it('returns "" when the first normalisation is empty', () => {
    for (const value of ['', '+', '@lid', ':1', ' \t ', null])
      expect(canonicalWhatsAppIdentifier(value)).toBe('');
  });

  it('throws where the gateway crashes', () => {
    for (const value of ['++', ' + + ', '60 123', 'a_b', '../x', '\uff16\uff10', 'é']) {
      expect(() => canonicalWhatsAppIdentifier(value, 'chat_id')).toThrow(
        expect.objectContaining({ code: 'whatsapp_identifier_unresolvable' }),
      );
    }
    expect(() => canonicalWhatsAppIdentifier('+60 123:1@s.whatsapp.net', 'user_id')).toThrow(
      expect.objectContaining({
        code: 'whatsapp_identifier_unresolvable',
        path: 'user_id',
        details: { normalized: '60 123' },
      }),
    );
  });
});
