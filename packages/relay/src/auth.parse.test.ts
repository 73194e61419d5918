import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeToken, parseRelayToken, peekRelayTokenGatewayId, relaySign } from './auth.js';
import { RelayError } from './errors.js';

const SIG = relaySign('gw:0', 's');
const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

function failure(run: () => unknown): { code: string; path: string } | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof RelayError && error.code === 'relay_token_malformed')
      return { code: error.code, path: error.path };
    throw error;
  }
  return undefined;
}

describe('parseRelayToken', () => {
  it('splits from the right, so the payload keeps its colons', () => {
    const token = makeToken('a:b::c', 's', 60, { now: 100 });
    expect(parseRelayToken(token)).toEqual({
      payload: 'a:b::c',
      expiresAt: 160,
      signature: relaySign('a:b::c:160', 's'),
      signedText: 'a:b::c:160',
    });
  });

  it('reads an empty payload and a payload that starts with a BOM', () => {
    expect(parseRelayToken(encode(`:0:${SIG}`)).payload).toBe('');
    expect(parseRelayToken(encode(`\uFEFFgw:0:${SIG}`)).payload).toBe('\uFEFFgw');
  });

  it('refuses texts that are not canonical unpadded base64url', () => {
    const token = encode(`>>>?:0:${SIG}`);
    expect(token).toMatch(/[-_]/);
    const cases = [
      `${token}=`,
      `${token}==`,
      token.replace(/-/g, '+').replace(/_/g, '/'),
      ` ${token}`,
      'Z',
      '!!!!',
    ];
    for (const bad of cases) {
      expect(failure(() => parseRelayToken(bad))).toEqual({ code: 'relay_token_malformed', path: 'token' });
    }
    expect(failure(() => parseRelayToken(''))).toEqual({ code: 'relay_token_malformed', path: 'token' });
  });

  it('refuses non-zero unused bits in the last character', () => {
    const token = encode(`gw1:0:${SIG}`);
    expect(token.length % 4).not.toBe(0);
    const last = token.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const tweaked = token.slice(0, -1) + alphabet[alphabet.indexOf(last) + 1]!;
    expect(Buffer.from(tweaked, 'base64url')).toEqual(Buffer.from(token, 'base64url'));
    expect(failure(() => parseRelayToken(tweaked))).toEqual({ code: 'relay_token_malformed', path: 'token' });
  });

  it('refuses decoded bytes that are not UTF-8', () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`:0:${SIG}`)]);
    expect(failure(() => parseRelayToken(bytes.toString('base64url')))).toEqual({
      code: 'relay_token_malformed',
      path: 'token',
    });
  });

  it('refuses fewer than three parts', () => {
    for (const text of ['gw', `gw:${SIG}`, `:${SIG}`, ':']) {
      expect(failure(() => parseRelayToken(encode(text)))?.path).toBe('token');
    }
  });

  it('refuses an exp that Python int() would read but that is not canonical', () => {
    for (const exp of [
      '+0',
      '-0',
      '00',
      '007',
      ' 5',
      '5 ',
      '1_000',
      '',
      '-5',
      '1e3',
      '٣',
      '99999999999999999',
      '9007199254740992',
    ]) {
      expect(failure(() => parseRelayToken(encode(`gw:${exp}:${SIG}`)))).toEqual({
        code: 'relay_token_malformed',
        path: 'token.exp',
      });
    }
    expect(parseRelayToken(encode(`gw:9007199254740991:${SIG}`)).expiresAt).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses a signature that is not 64 lowercase hex characters', () => {
    for (const sig of [
      SIG.toUpperCase(),
      SIG.slice(1),
      `${SIG}0`,
      `${SIG.slice(2)} ${SIG.slice(0, 1)}`,
      '',
      'zz'.repeat(32),
    ]) {
      expect(failure(() => parseRelayToken(encode(`gw:0:${sig}`)))).toEqual({
        code: 'relay_token_malformed',
        path: 'token.signature',
      });
    }
  });

  it('throws nothing but relay_token_malformed for any input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string().map(encode), fc.anything()), (input) => {
        try {
          const parsed = parseRelayToken(input as string);
          expect(parsed.signature).toMatch(/^[0-9a-f]{64}$/);
        } catch (error) {
          expect(error).toMatchObject({ name: 'RelayError', code: 'relay_token_malformed' });
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('peekRelayTokenGatewayId', () => {
  it('returns the payload without checking the signature', () => {
    expect(peekRelayTokenGatewayId(makeToken('gw-7', 'any secret', 0))).toBe('gw-7');
    expect(peekRelayTokenGatewayId(encode(`gw-8:0:${'0'.repeat(64)}`))).toBe('gw-8');
  });

  it('throws relay_token_malformed for a malformed token', () => {
    expect(() => peekRelayTokenGatewayId('not a token')).toThrow(
      expect.objectContaining({ code: 'relay_token_malformed' }),
    );
    expect(() => peekRelayTokenGatewayId(undefined as unknown as string)).toThrow(
      expect.objectContaining({ code: 'relay_token_malformed' }),
    );
  });
});
