import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeToken, relaySign, verifyRelayToken } from './auth.js';

const NOW = 1_750_000_000;
const PRIMARY = 'primary-secret';
const SECONDARY = 'secondary-secret';
const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe('verifyRelayToken', () => {
  it('accepts a token one secret signed and reports payload, expiry and secret index', () => {
    const token = makeToken('gw-1', PRIMARY, 300, { now: NOW });
    expect(verifyRelayToken(token, [PRIMARY], { now: NOW })).toEqual({
      valid: true,
      gatewayId: 'gw-1',
      expiresAt: NOW + 300,
      secretIndex: 0,
    });
  });

  it('accepts any secret of a rotation list, in either order', () => {
    const token = makeToken('gw-1', SECONDARY, 300, { now: NOW });
    expect(verifyRelayToken(token, [PRIMARY, SECONDARY], { now: NOW })).toMatchObject({
      valid: true,
      secretIndex: 1,
    });
    expect(verifyRelayToken(token, [SECONDARY, PRIMARY], { now: NOW })).toMatchObject({
      valid: true,
      secretIndex: 0,
    });
  });

  it('skips empty secrets', () => {
    const token = makeToken('gw-1', PRIMARY, 0);
    expect(verifyRelayToken(token, ['', PRIMARY])).toMatchObject({ valid: true, secretIndex: 1 });
    expect(verifyRelayToken(makeToken('gw-1', '', 0), ['', PRIMARY])).toMatchObject({
      reason: 'bad_signature',
    });
  });

  it('is valid at now == exp and expired one second later', () => {
    const token = makeToken('gw-1', PRIMARY, 60, { now: NOW });
    expect(verifyRelayToken(token, [PRIMARY], { now: NOW + 60 }).valid).toBe(true);
    expect(verifyRelayToken(token, [PRIMARY], { now: NOW + 60.999 }).valid).toBe(true);
    expect(verifyRelayToken(token, [PRIMARY], { now: NOW + 61 })).toEqual({
      valid: false,
      reason: 'expired',
      detail: expect.stringContaining(String(NOW + 60)),
    });
  });

  it('extends the expiry by skewSeconds', () => {
    const token = makeToken('gw-1', PRIMARY, 60, { now: NOW });
    expect(verifyRelayToken(token, [PRIMARY], { now: NOW + 180, skewSeconds: 120 }).valid).toBe(true);
    expect(verifyRelayToken(token, [PRIMARY], { now: NOW + 181, skewSeconds: 120 })).toMatchObject({
      reason: 'expired',
    });
  });

  it('never expires a token with exp 0, and accepts one from before the clock', () => {
    const token = makeToken('gw-1', PRIMARY, 0);
    expect(verifyRelayToken(token, [PRIMARY], { now: Number.MAX_SAFE_INTEGER })).toMatchObject({
      valid: true,
      expiresAt: 0,
    });
    expect(verifyRelayToken(makeToken('gw-1', PRIMARY, 60, { now: NOW }), [PRIMARY], { now: 0 }).valid).toBe(
      true,
    );
  });

  it('refuses a token no secret signed', () => {
    const token = makeToken('gw-1', 'someone-else', 0);
    expect(verifyRelayToken(token, [PRIMARY, SECONDARY])).toMatchObject({
      valid: false,
      reason: 'bad_signature',
    });
  });

  it('reports a forged expired token as bad_signature, not expired', () => {
    const token = makeToken('gw-1', 'forger', 60, { now: NOW });
    expect(verifyRelayToken(token, [PRIMARY], { now: NOW + 1000 })).toMatchObject({
      reason: 'bad_signature',
    });
  });

  it('refuses a signature over the token text instead of the normalised `payload:exp`', () => {
    const forged = encode(`gw-1:0${NOW}:${relaySign(`gw-1:0${NOW}`, PRIMARY)}`);
    expect(verifyRelayToken(forged, [PRIMARY])).toMatchObject({ reason: 'malformed' });
  });

  it('reports missing, malformed and no_usable_secret', () => {
    for (const token of [undefined, null, '']) {
      expect(verifyRelayToken(token, [PRIMARY])).toEqual({
        valid: false,
        reason: 'missing',
        detail: expect.any(String),
      });
    }
    expect(verifyRelayToken('%%%', [PRIMARY])).toMatchObject({ reason: 'malformed' });
    expect(verifyRelayToken(makeToken('gw', PRIMARY, 0), [])).toMatchObject({ reason: 'no_usable_secret' });
    expect(verifyRelayToken(makeToken('gw', PRIMARY, 0), ['', ''])).toMatchObject({
      reason: 'no_usable_secret',
    });
  });

  it('throws typed errors for an unusable verify list or options', () => {
    const token = makeToken('gw', PRIMARY, 0);
    expect(() => verifyRelayToken(token, PRIMARY as unknown as string[])).toThrow(
      expect.objectContaining({ code: 'relay_token_invalid_argument' }),
    );
    expect(() => verifyRelayToken(token, [PRIMARY, 5 as unknown as string])).toThrow(
      expect.objectContaining({ code: 'relay_token_invalid_argument', path: 'secrets[1]' }),
    );
    expect(() => verifyRelayToken(token, ['\uD800'])).toThrow(
      expect.objectContaining({ code: 'relay_token_unpaired_surrogate' }),
    );
    expect(() => verifyRelayToken(token, [PRIMARY], { now: Number.NaN })).toThrow(
      expect.objectContaining({ path: 'now' }),
    );
    expect(() => verifyRelayToken(token, [PRIMARY], { skewSeconds: -1 })).toThrow(
      expect.objectContaining({ path: 'skewSeconds' }),
    );
  });
});

describe('verifyRelayToken properties', () => {
  const payload = fc.string({ unit: 'grapheme', maxLength: 24 });
  const secret = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 });
  const ttl = fc.integer({ min: -100, max: 100_000 });
  const now = fc.integer({ min: 0, max: 4_000_000_000 });

  it('verifies every minted token until its expiry, for any payload, secret and TTL', () => {
    fc.assert(
      fc.property(payload, secret, ttl, now, (p, s, t, n) => {
        const token = makeToken(p, s, t, { now: n });
        const expiresAt = t > 0 ? n + t : 0;
        expect(verifyRelayToken(token, [s], { now: n })).toEqual({
          valid: true,
          gatewayId: p,
          expiresAt,
          secretIndex: 0,
        });
        if (t > 0) {
          expect(verifyRelayToken(token, [s], { now: expiresAt }).valid).toBe(true);
          expect(verifyRelayToken(token, [s], { now: expiresAt + 1 })).toMatchObject({ reason: 'expired' });
        }
      }),
      { numRuns: 150 },
    );
  });

  it('refuses a token with any one character changed', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    fc.assert(
      fc.property(payload, secret, ttl, fc.nat(), fc.integer({ min: 1, max: 63 }), (p, s, t, at, shift) => {
        const token = makeToken(p, s, t, { now: NOW });
        const i = at % token.length;
        const replaced = alphabet[(alphabet.indexOf(token[i]!) + shift) % 64]!;
        const tampered = token.slice(0, i) + replaced + token.slice(i + 1);
        const result = verifyRelayToken(tampered, [s], { now: NOW });
        expect(result.valid).toBe(false);
        expect(['malformed', 'bad_signature']).toContain(result.valid ? '' : result.reason);
      }),
      { numRuns: 300 },
    );
  });

  it('returns a refusal, never throws, for arbitrary token text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string().map(encode), fc.anything()), (token) => {
        const result = verifyRelayToken(token as string, [PRIMARY], { now: NOW });
        expect(result.valid).toBe(false);
      }),
      { numRuns: 400 },
    );
  });
});
