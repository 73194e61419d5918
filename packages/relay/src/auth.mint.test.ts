import { describe, expect, it } from 'vitest';
import { makeToken, mintRelayToken, RELAY_UPGRADE_TOKEN_TTL_SECONDS, relaySign } from './auth.js';

const FROZEN_SECRET = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';
const FROZEN_TOKEN =
  'Z3ctaW5zdGFuY2UtMTowOjM3YWE3YjE0NWU4NzY0ZDQwM2JhOWM2MzlmMjMwZGQ2M2RlOGVkOTliODhmZWQzNmFhMDI2MjVhOGE3ZTM1NjQ';
const NOW = 1_750_000_000;

/** The token text, decoded independently of the code under test. */
const decoded = (token: string) => Buffer.from(token, 'base64url').toString('utf8');

describe('makeToken', () => {
  it('reproduces the frozen connector vector byte for byte', () => {
    expect(makeToken('gw-instance-1', FROZEN_SECRET, 0)).toBe(FROZEN_TOKEN);
    expect(makeToken('gw-instance-1', FROZEN_SECRET)).toBe(FROZEN_TOKEN);
  });

  it('signs `payload:exp` and writes `payload:exp:sig` as unpadded base64url', () => {
    const token = makeToken('gw-1', 'secret', 300, { now: NOW });
    expect(decoded(token)).toBe(`gw-1:${NOW + 300}:${relaySign(`gw-1:${NOW + 300}`, 'secret')}`);
    expect(token).toBe(Buffer.from(decoded(token)).toString('base64url'));
    expect(token).not.toMatch(/[=+/]/);
  });

  it('truncates a fractional clock, as int(time.time()) does', () => {
    expect(decoded(makeToken('gw', 's', 10, { now: NOW + 0.999 })).split(':')[1]).toBe(String(NOW + 10));
  });

  it('gives exp 0 (never expires) for a zero or negative TTL, whatever the clock', () => {
    for (const ttl of [0, -1, -300]) {
      expect(decoded(makeToken('gw', 's', ttl, { now: NOW })).split(':')[1]).toBe('0');
    }
  });

  it('keeps colons, slashes and non-ASCII in the payload as they are', () => {
    const payload = 'tenant:gw/1+2=ü🚀';
    const text = decoded(makeToken(payload, 's', 1, { now: NOW }));
    expect(text.startsWith(`${payload}:${NOW + 1}:`)).toBe(true);
  });

  it('accepts an empty secret and an empty payload, as the gateway does', () => {
    expect(decoded(makeToken('', '', 0))).toBe(`:0:${relaySign(':0', '')}`);
  });

  it('uses the current time when no clock is given', () => {
    const before = Math.floor(Date.now() / 1000);
    const exp = Number(decoded(makeToken('gw', 's', 60)).split(':')[1]);
    expect(exp).toBeGreaterThanOrEqual(before + 60);
    expect(exp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 60);
  });

  it('refuses unusable arguments with typed errors', () => {
    const cases: [() => unknown, string][] = [
      [() => makeToken(1 as unknown as string, 's'), 'payload'],
      [() => makeToken('gw', undefined as unknown as string), 'secret'],
      [() => makeToken('gw', 's', 1.5), 'ttlSeconds'],
      [() => makeToken('gw', 's', Number.NaN), 'ttlSeconds'],
      [() => makeToken('gw', 's', '300' as unknown as number), 'ttlSeconds'],
      [() => makeToken('gw', 's', Number.MAX_SAFE_INTEGER, { now: NOW }), 'ttlSeconds'],
      [() => makeToken('gw', 's', 300, { now: -1 }), 'now'],
      [() => makeToken('gw', 's', 300, { now: Number.POSITIVE_INFINITY }), 'now'],
      [() => makeToken('gw', 's', 300, { now: '1' as unknown as number }), 'now'],
    ];
    for (const [run, path] of cases) {
      expect(run).toThrow(expect.objectContaining({ code: 'relay_token_invalid_argument' }));
      expect(run).toThrow(expect.objectContaining({ code: 'relay_token_invalid_argument', path }));
    }
  });

  it('refuses unpaired surrogates in payload or secret', () => {
    expect(() => makeToken('gw\uD83D', 's')).toThrow(
      expect.objectContaining({ code: 'relay_token_unpaired_surrogate' }),
    );
    expect(() => makeToken('gw', '\uDE80')).toThrow(
      expect.objectContaining({ code: 'relay_token_unpaired_surrogate', path: 'secret' }),
    );
  });
});

describe('mintRelayToken', () => {
  it('is makeToken with the gateway id as payload and a 300-second default lifetime', () => {
    expect(RELAY_UPGRADE_TOKEN_TTL_SECONDS).toBe(300);
    expect(mintRelayToken('gw-1', 'secret', { now: NOW })).toBe(
      makeToken('gw-1', 'secret', 300, { now: NOW }),
    );
    expect(mintRelayToken('gw-1', 'secret', { now: NOW, ttlSeconds: 5 })).toBe(
      makeToken('gw-1', 'secret', 5, { now: NOW }),
    );
    expect(mintRelayToken('gw-instance-1', FROZEN_SECRET, { ttlSeconds: 0 })).toBe(FROZEN_TOKEN);
  });

  it('refuses an empty secret, which no verifier accepts', () => {
    expect(() => mintRelayToken('gw-1', '')).toThrow(expect.objectContaining({ code: 'relay_secret_empty' }));
    expect(() => mintRelayToken('gw-1', '')).toThrow(
      expect.objectContaining({ code: 'relay_secret_empty', path: 'secret', name: 'RelayError' }),
    );
  });

  it('refuses a non-string gateway id', () => {
    expect(() => mintRelayToken(7 as unknown as string, 's')).toThrow(
      expect.objectContaining({ code: 'relay_token_invalid_argument', path: 'gatewayId' }),
    );
  });
});
