import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type EdgeRequest, verifyDiscordInteraction } from './verifiers.js';
import { flipByte, refusal, utf8 } from './verifiers.test-support.js';

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const PUBLIC_KEY_HEX = rawPublicKeyHex(publicKey);
const OTHER = generateKeyPairSync('ed25519').privateKey;
const NOW = 1_779_782_400;
const BODY = utf8(
  '{"type":2,"id":"1","token":"secret-token","data":{"name":"ask","options":[{"value":"ß ✓"}]}}',
);

function rawPublicKeyHex(key: KeyObject): string {
  return Buffer.from(key.export({ format: 'jwk' }).x!, 'base64url').toString('hex');
}

function signature(body: Uint8Array, timestamp: string, key: KeyObject = privateKey): Uint8Array {
  return new Uint8Array(sign(null, Buffer.concat([Buffer.from(timestamp), body]), key));
}

function request(body: Uint8Array, timestamp: string, sig: Uint8Array | string): EdgeRequest {
  const headers = new Headers({
    'content-type': 'application/json',
    'x-signature-ed25519': typeof sig === 'string' ? sig : Buffer.from(sig).toString('hex'),
    'x-signature-timestamp': timestamp,
  });
  return { method: 'POST', url: 'https://edge.example.com/discord', headers, body };
}

function signedRequest(body: Uint8Array, timestamp = String(NOW - 5)): EdgeRequest {
  return request(body, timestamp, signature(body, timestamp));
}

const options = { publicKey: PUBLIC_KEY_HEX, now: NOW };

describe('verifyDiscordInteraction', () => {
  it('accepts an interaction signed over timestamp + raw body and returns it parsed with its bytes', () => {
    const req = signedRequest(BODY);
    const verified = verifyDiscordInteraction(req, options);
    expect(verified.interaction).toEqual(JSON.parse(Buffer.from(BODY).toString('utf8')));
    expect(verified.body).toBe(req.body);
    expect(verified.timestamp).toBe(NOW - 5);
  });

  it('uses the current clock when now is absent', () => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const verified = verifyDiscordInteraction(signedRequest(BODY, timestamp), { publicKey: PUBLIC_KEY_HEX });
    expect(verified.timestamp).toBe(Number(timestamp));
  });

  it('refuses a tampered body, a tampered signature, a moved timestamp and another key', () => {
    const timestamp = String(NOW);
    const sig = signature(BODY, timestamp);
    expect(
      refusal(() => verifyDiscordInteraction(request(flipByte(BODY, 3, 1), timestamp, sig), options)),
    ).toBe('bad_signature');
    expect(
      refusal(() => verifyDiscordInteraction(request(BODY, timestamp, flipByte(sig, 40, 4)), options)),
    ).toBe('bad_signature');
    expect(refusal(() => verifyDiscordInteraction(request(BODY, String(NOW + 1), sig), options))).toBe(
      'bad_signature',
    );
    const forged = request(BODY, timestamp, signature(BODY, timestamp, OTHER));
    expect(refusal(() => verifyDiscordInteraction(forged, options))).toBe('bad_signature');
  });

  it('keeps the timestamp within the skew window, bounds included', () => {
    const at = (offset: number, maxSkewSeconds?: number) =>
      verifyDiscordInteraction(signedRequest(BODY, String(NOW + offset)), { ...options, maxSkewSeconds });
    expect(at(-300).timestamp).toBe(NOW - 300);
    expect(at(300).timestamp).toBe(NOW + 300);
    expect(refusal(() => at(-301))).toBe('stale_timestamp');
    expect(refusal(() => at(301))).toBe('stale_timestamp');
    expect(at(-10, 10).timestamp).toBe(NOW - 10);
    expect(refusal(() => at(-11, 10))).toBe('stale_timestamp');
    expect(refusal(() => at(1, 0))).toBe('stale_timestamp');
  });

  it('checks the signature before the timestamp and the timestamp before the body', () => {
    const stale = String(NOW - 10_000);
    expect(
      refusal(() => verifyDiscordInteraction(request(BODY, stale, signature(BODY, stale, OTHER)), options)),
    ).toBe('bad_signature');
    const notJson = utf8('not json');
    expect(
      refusal(() => verifyDiscordInteraction(request(notJson, stale, signature(notJson, stale)), options)),
    ).toBe('stale_timestamp');
    const forgedNotJson = request(notJson, String(NOW), signature(notJson, String(NOW), OTHER));
    expect(refusal(() => verifyDiscordInteraction(forgedNotJson, options))).toBe('bad_signature');
  });

  it('refuses signed bodies that are not a JSON object with an integer type', () => {
    for (const text of [
      'not json',
      '[1]',
      'null',
      '{"type":"1"}',
      '{"type":1.5}',
      '{}',
      '\uFEFF{"type":1}',
    ]) {
      const error = (() => {
        try {
          verifyDiscordInteraction(signedRequest(utf8(text)), options);
        } catch (e) {
          return e;
        }
      })();
      expect(error, text).toMatchObject({ code: 'malformed_body' });
    }
    const invalidUtf8 = new Uint8Array([...utf8('{"type":1,"x":"'), 0xc3, 0x28, ...utf8('"}')]);
    expect(refusal(() => verifyDiscordInteraction(signedRequest(invalidUtf8), options))).toBe(
      'malformed_body',
    );
  });

  it('names missing and malformed headers', () => {
    const timestamp = String(NOW);
    const hex = Buffer.from(signature(BODY, timestamp)).toString('hex');
    const without = (name: string) => {
      const req = request(BODY, timestamp, hex);
      req.headers.delete(name);
      return req;
    };
    expect(refusal(() => verifyDiscordInteraction(without('x-signature-ed25519'), options))).toBe(
      'missing_signature',
    );
    expect(refusal(() => verifyDiscordInteraction(without('x-signature-timestamp'), options))).toBe(
      'missing_timestamp',
    );
    for (const bad of [hex.slice(2), `${hex}00`, `${hex.slice(1)}g`, `${hex.slice(1)}`, ` ${hex.slice(1)}`]) {
      expect(
        refusal(() => verifyDiscordInteraction(request(BODY, timestamp, bad), options)),
        bad,
      ).toBe('malformed_signature');
    }
    expect(verifyDiscordInteraction(request(BODY, timestamp, hex.toUpperCase()), options).timestamp).toBe(
      NOW,
    );
    for (const ts of ['1.5', '-1', '0x10', '', '1234567890123456']) {
      const req = request(BODY, ts, signature(BODY, ts));
      const expected = ts === '' ? 'missing_timestamp' : 'malformed_timestamp';
      expect(
        refusal(() => verifyDiscordInteraction(req, options)),
        ts,
      ).toBe(expected);
    }
  });

  it('throws invalid_argument, never a TypeError, for unusable options and requests', () => {
    const req = signedRequest(BODY);
    const bad: unknown[][] = [
      [req, { publicKey: PUBLIC_KEY_HEX.slice(2) }],
      [req, { publicKey: `${PUBLIC_KEY_HEX.slice(1)}x` }],
      [req, { publicKey: 42 }],
      [req, null],
      [req, { ...options, maxSkewSeconds: -1 }],
      [req, { ...options, maxSkewSeconds: 1.5 }],
      [req, { ...options, now: Number.NaN }],
      [{ ...req, body: 'text' }, options],
      [{ ...req, headers: { 'x-signature-ed25519': 'aa' } }, options],
      [{ ...req, url: '/relative' }, options],
      [undefined, options],
    ];
    for (const [r, o] of bad) {
      expect(() => verifyDiscordInteraction(r as EdgeRequest, o as typeof options)).toThrow(
        expect.objectContaining({ code: 'invalid_argument' }),
      );
    }
  });

  it('refuses any single-byte change of the body or the signature', () => {
    const timestamp = String(NOW);
    const sig = signature(BODY, timestamp);
    fc.assert(
      fc.property(fc.boolean(), fc.nat(), fc.integer({ min: 1, max: 255 }), (inBody, position, mask) => {
        const req = inBody
          ? request(flipByte(BODY, position % BODY.length, mask), timestamp, sig)
          : request(BODY, timestamp, flipByte(sig, position % sig.length, mask));
        expect(refusal(() => verifyDiscordInteraction(req, options))).toBe('bad_signature');
      }),
      { numRuns: 300 },
    );
  });
});
