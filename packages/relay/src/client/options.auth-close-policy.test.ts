import { describe, expect, it } from 'vitest';
import { AuthClosePolicy } from './options.js';

const BACKOFF = { kind: 'redial_after_backoff' };
const NOW = { kind: 'redial_now' };

describe('AuthClosePolicy', () => {
  it('retries every 4401 before any handshake after the backoff', () => {
    const policy = new AuthClosePolicy();
    expect([1, 2, 3].map(() => policy.connectionClosed(4401, 'unauthorized'))).toEqual([
      BACKOFF,
      BACKOFF,
      BACKOFF,
    ]);
    expect(policy.handshakeSucceeded).toBe(false);
  });

  it('never revokes on reason "expired"', () => {
    const policy = new AuthClosePolicy();
    policy.handshakeCompleted();
    expect([1, 2, 3].map(() => policy.connectionClosed(4401, 'expired'))).toEqual([
      BACKOFF,
      BACKOFF,
      BACKOFF,
    ]);
  });

  it('gives one immediate fresh-token retry after a handshake, then revokes', () => {
    const policy = new AuthClosePolicy();
    policy.handshakeCompleted();
    expect(policy.connectionClosed(4401, 'unauthorized')).toEqual(NOW);
    expect(policy.connectionClosed(4401, '')).toEqual({ kind: 'revoked', reason: '' });
  });

  it('clears the pending retry on a handshake, an "expired" 4401 and any other close code', () => {
    for (const clear of [
      (policy: AuthClosePolicy) => policy.handshakeCompleted(),
      (policy: AuthClosePolicy) => policy.connectionClosed(4401, 'expired'),
      (policy: AuthClosePolicy) => policy.connectionClosed(1006, ''),
    ]) {
      const policy = new AuthClosePolicy();
      policy.handshakeCompleted();
      expect(policy.connectionClosed(4401, 'unauthorized')).toEqual(NOW);
      clear(policy);
      expect(policy.connectionClosed(4401, 'unauthorized')).toEqual(NOW);
    }
  });

  it('re-dials after the backoff on any other close code', () => {
    const policy = new AuthClosePolicy();
    policy.handshakeCompleted();
    for (const code of [1000, 1001, 1006, 1011, 4000, 4400, 4403]) {
      expect(policy.connectionClosed(code, 'unauthorized')).toEqual(BACKOFF);
    }
  });
});
