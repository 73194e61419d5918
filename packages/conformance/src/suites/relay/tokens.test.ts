import { makeToken, mintRelayToken, verifyRelayToken } from '@agentwire/relay';
import { afterAll, describe, expect, it } from 'vitest';
import tokensFixture from '../../../fixtures/relay/tokens.json' with { type: 'json' };
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { agentwireRelayTokens } from './agentwire-relay.js';
import { relayTokenSuite } from './tokens.js';

describe('relayTokenSuite', () => {
  it('passes every case against @agentwire/relay, with nothing skipped', async () => {
    const report = await runSuite(relayTokenSuite(agentwireRelayTokens));
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    expect(report.counts.passed).toBe(tokensFixture.cases.length);
  });

  it('reads a fixture with cases of every operation and the frozen connector vector of the reference tests', () => {
    expect(new Set(tokensFixture.cases.map((c) => c.operation))).toEqual(
      new Set(['make_token', 'make_upgrade_token', 'sign', 'verify', 'peek']),
    );
    const frozen = tokensFixture.cases.find((c) => c.id === 'make-token-frozen-connector-vector');
    expect(frozen && 'token' in frozen ? frozen.token : undefined).toBe(
      'Z3ctaW5zdGFuY2UtMTowOjM3YWE3YjE0NWU4NzY0ZDQwM2JhOWM2MzlmMjMwZGQ2M2RlOGVkOTliODhmZWQzNmFhMDI2MjVhOGE3ZTM1NjQ',
    );
  });

  it('gets every verdict field from @agentwire/relay, so that each one is compared', async () => {
    type VerifyCase = { token: string; secrets: string[]; now: number; skew_seconds?: number };
    const verifyCases = tokensFixture.cases.filter(
      (c) => c.operation === 'verify',
    ) as unknown as VerifyCase[];
    const verdicts = await Promise.all(
      verifyCases.map((c) =>
        agentwireRelayTokens.verify(c.token, c.secrets, {
          now: c.now,
          ...(c.skew_seconds === undefined ? {} : { skewSeconds: c.skew_seconds }),
        }),
      ),
    );
    expect(verdicts.length).toBeGreaterThan(0);
    for (const verdict of verdicts) {
      const fields = verdict.valid
        ? [verdict.gatewayId, verdict.expiresAt, verdict.secretIndex]
        : [verdict.reason, verdict.closeCode, verdict.closeReason];
      expect(fields).not.toContain(undefined);
    }
  });

  it('has one case per fixture case, grading SDK-only strictness as recommended', () => {
    const cases = relayTokenSuite(agentwireRelayTokens).cases;
    expect(cases.map((c) => c.id)).toEqual(tokensFixture.cases.map((c) => `relay.tokens.${c.id}`));
    const level = (id: string) => cases.find((c) => c.id === `relay.tokens.${id}`)?.level;
    expect(level('make-token-frozen-connector-vector')).toBe('required');
    expect(level('verify-padded-base64url')).toBe('recommended');
    expect(level('make-upgrade-token-empty-secret-refused')).toBe('recommended');
  });

  it('accepts a verify that returns only { valid, reason } and skips the optional functions', async () => {
    const report = await runSuite(
      relayTokenSuite({
        mint: (gatewayId, secret, options) => mintRelayToken(gatewayId, secret, options),
        verify: (token, secrets, options) => {
          const result = verifyRelayToken(token, secrets, options);
          return result.valid ? { valid: true } : { valid: false, reason: result.reason };
        },
      }),
    );
    expect(report.ok).toBe(true);
    const skipped = report.results.filter((r) => r.status === 'skipped').map((r) => r.id);
    expect(skipped).toContain('relay.tokens.make-token-frozen-connector-vector');
    expect(skipped).toContain('relay.tokens.sign-frozen-signed-text');
    expect(skipped).toContain('relay.tokens.peek-malformed');
    expect(skipped).not.toContain('relay.tokens.verify-rotation-secondary-signed');
  });

  it('fails a verifier that ignores expiry and rotation, and a minter with a millisecond clock', async () => {
    const report = await runSuite(
      relayTokenSuite({
        ...agentwireRelayTokens,
        mint: (gatewayId, secret, { ttlSeconds = 300, now }) =>
          makeToken(gatewayId, secret, ttlSeconds * 1000, { now: now * 1000 }),
        verify: (token, secrets) => verifyRelayToken(token, secrets.slice(0, 1), { now: 0 }),
      }),
    );
    const failed = new Set(report.results.filter((r) => r.status === 'failed').map((r) => r.id));
    expect(failed.has('relay.tokens.verify-expired-one-second-after-exp')).toBe(true);
    expect(failed.has('relay.tokens.verify-rotation-secondary-signed')).toBe(true);
    expect(failed.has('relay.tokens.make-upgrade-token-default-ttl-300')).toBe(true);
    expect(failed.has('relay.tokens.make-token-frozen-connector-vector')).toBe(false);
    expect(failed.has('relay.tokens.verify-valid-before-expiry')).toBe(false);
  });

  it('fails a peek that splits the token without checking it, and a verdict that closes an accepted token', async () => {
    const careless = {
      ...agentwireRelayTokens,
      peekGatewayId: (token: string) => Buffer.from(token, 'base64url').toString('utf8').split(':')[0] ?? '',
      verify: async (...args: Parameters<typeof agentwireRelayTokens.verify>) => ({
        ...(await agentwireRelayTokens.verify(...args)),
        closeCode: 4401,
      }),
    };
    const report = await runSuite(relayTokenSuite(careless));
    const failed = new Set(report.results.filter((r) => r.status === 'failed').map((r) => r.id));
    for (const id of [
      'peek-empty',
      'peek-two-parts',
      'peek-signature-uppercase',
      'verify-frozen-never-expires',
    ]) {
      expect(failed).toContain(`relay.tokens.${id}`);
    }
  });

  it('dates the cases 1.1.0 added, and only those, to 1.1.0', () => {
    const added = relayTokenSuite(agentwireRelayTokens).cases.filter((c) => c.since === '1.1.0');
    expect(added).toHaveLength(14);
    expect(added.map((c) => c.id)).toContain(
      'relay.tokens.make-upgrade-token-exp-beyond-safe-integer-refused',
    );
  });

  it('compares the 4401 close reason when the verdict carries it', async () => {
    const report = await runSuite(
      relayTokenSuite({
        ...agentwireRelayTokens,
        verify: (token, secrets, options) => {
          const result = verifyRelayToken(token, secrets, options);
          return result.valid ? result : { ...result, closeCode: 4401, closeReason: 'unauthorized' };
        },
      }),
    );
    const failed = report.results.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed).toContain('relay.tokens.verify-expired-one-second-after-exp');
    expect(failed.every((id) => id.includes('expire'))).toBe(true);
  });
});

describe('relayTokenSuite through registerSuite', () => {
  registerSuite(relayTokenSuite(agentwireRelayTokens), { describe, it, afterAll });
});
