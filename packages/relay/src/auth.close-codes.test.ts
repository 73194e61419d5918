import { describe, expect, it } from 'vitest';
import {
  RELAY_CLOSE_REASON_EXPIRED,
  RELAY_CLOSE_REASON_UNAUTHORIZED,
  RELAY_CLOSE_UNAUTHORIZED,
  type RelayTokenRejectReason,
  relayAuthClose,
} from './auth.js';

describe('relayAuthClose', () => {
  it('uses 4401 with the reasons the gateway reads', () => {
    expect(RELAY_CLOSE_UNAUTHORIZED).toBe(4401);
    expect(RELAY_CLOSE_REASON_EXPIRED).toBe('expired');
    expect(RELAY_CLOSE_REASON_UNAUTHORIZED).toBe('unauthorized');
  });

  it('closes an expired token with reason expired and every other refusal with unauthorized', () => {
    const expected: Record<RelayTokenRejectReason, string> = {
      expired: 'expired',
      missing: 'unauthorized',
      malformed: 'unauthorized',
      no_usable_secret: 'unauthorized',
      bad_signature: 'unauthorized',
    };
    for (const [reason, closeReason] of Object.entries(expected)) {
      expect(relayAuthClose({ valid: false, reason: reason as RelayTokenRejectReason, detail: '' })).toEqual({
        code: 4401,
        reason: closeReason,
      });
    }
  });

  it('gives undefined for a valid token', () => {
    expect(relayAuthClose({ valid: true, gatewayId: 'gw', expiresAt: 0, secretIndex: 0 })).toBeUndefined();
  });

  it('refuses something that is not a verification result', () => {
    expect(() => relayAuthClose(null as never)).toThrow(
      expect.objectContaining({ code: 'relay_token_invalid_argument' }),
    );
    expect(() => relayAuthClose({} as never)).toThrow(
      expect.objectContaining({ code: 'relay_token_invalid_argument' }),
    );
  });
});
