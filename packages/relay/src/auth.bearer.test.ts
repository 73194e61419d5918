import { describe, expect, it } from 'vitest';
import {
  makeToken,
  mintRelayToken,
  readBearerToken,
  relayAuthorizationHeader,
  relayUpgradeHeaders,
  verifyRelayAuthorization,
} from './auth.js';

const NOW = 1_750_000_000;

describe('relayAuthorizationHeader / readBearerToken', () => {
  it('writes and reads `Bearer <token>`', () => {
    const token = makeToken('gw', 's', 0);
    expect(relayAuthorizationHeader(token)).toBe(`Bearer ${token}`);
    expect(readBearerToken(relayAuthorizationHeader(token))).toBe(token);
    expect(readBearerToken(`bearer  ${token} `)).toBe(token);
  });

  it('gives undefined for an absent header', () => {
    expect(readBearerToken(undefined)).toBeUndefined();
    expect(readBearerToken(null)).toBeUndefined();
    expect(readBearerToken('')).toBeUndefined();
  });

  it('throws relay_token_malformed for any other header', () => {
    for (const header of ['Basic abc', 'Bearer', 'Bearer a b', 'Bearertoken', 5 as unknown as string]) {
      expect(() => readBearerToken(header)).toThrow(
        expect.objectContaining({ code: 'relay_token_malformed' }),
      );
      expect(() => readBearerToken(header)).toThrow(expect.objectContaining({ path: 'authorization' }));
    }
    expect(() => relayAuthorizationHeader(undefined as unknown as string)).toThrow(
      expect.objectContaining({ code: 'relay_token_invalid_argument' }),
    );
  });
});

describe('verifyRelayAuthorization', () => {
  it('verifies the bearer token of the header', () => {
    const header = relayAuthorizationHeader(mintRelayToken('gw-1', 's', { now: NOW }));
    expect(verifyRelayAuthorization(header, ['s'], { now: NOW })).toMatchObject({
      valid: true,
      gatewayId: 'gw-1',
    });
    expect(verifyRelayAuthorization(header, ['s'], { now: NOW + 301 })).toMatchObject({ reason: 'expired' });
  });

  it('reports an absent header as missing and a non-bearer header as malformed', () => {
    expect(verifyRelayAuthorization(undefined, ['s'])).toMatchObject({ valid: false, reason: 'missing' });
    expect(verifyRelayAuthorization('Basic dXNlcg==', ['s'])).toMatchObject({
      valid: false,
      reason: 'malformed',
    });
  });

  it('checks the verify list even when the header is malformed', () => {
    expect(() => verifyRelayAuthorization('Basic x', [1 as unknown as string])).toThrow(
      expect.objectContaining({ code: 'relay_token_invalid_argument' }),
    );
  });
});

describe('relayUpgradeHeaders', () => {
  it('carries a fresh upgrade token when both id and secret are set', () => {
    expect(relayUpgradeHeaders('gw-1', 's', { now: NOW })).toEqual({
      Authorization: `Bearer ${mintRelayToken('gw-1', 's', { now: NOW })}`,
    });
  });

  it('is empty (an unauthenticated dial) when either is missing or empty', () => {
    expect(relayUpgradeHeaders('gw-1', '')).toEqual({});
    expect(relayUpgradeHeaders('', 's')).toEqual({});
    expect(relayUpgradeHeaders(undefined, 's')).toEqual({});
    expect(relayUpgradeHeaders('gw-1', null)).toEqual({});
  });
});
