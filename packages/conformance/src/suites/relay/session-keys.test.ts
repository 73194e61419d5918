import {
  type BuildSessionKeyOptions,
  buildSessionKey,
  SESSION_KEY_DIALECTS,
  type SessionKeySource,
} from '@agentwire/relay';
import { afterAll, describe, expect, it } from 'vitest';
import sessionKeysFixture from '../../../fixtures/relay/session-keys.json' with { type: 'json' };
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { agentwireSessionKeys } from './agentwire-relay.js';
import { BASELINE_SESSION_KEY_DIALECT, sessionKeySuite } from './session-keys.js';

describe('sessionKeySuite', () => {
  it('passes every case against @agentwire/relay, with nothing skipped', async () => {
    const report = await runSuite(sessionKeySuite(agentwireSessionKeys));
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    expect(report.counts.passed).toBe(sessionKeysFixture.cases.length);
    expect(report.counts.passed).toBeGreaterThanOrEqual(200);
  });

  it('reads a fixture covering every platform, knob and outcome', () => {
    const { cases } = sessionKeysFixture;
    const platforms = new Set(cases.map((c) => c.source.platform));
    for (const name of ['discord', 'telegram', 'slack', 'whatsapp', 'signal', 'matrix']) {
      expect(platforms).toContain(name);
    }
    expect([...new Set(cases.flatMap((c) => Object.keys(c.options)))].sort()).toEqual([
      'dialect',
      'group_sessions_per_user',
      'profile',
      'thread_sessions_per_user',
    ]);
    expect([...new Set(cases.flatMap((c) => ('error' in c ? [c.error] : [])))].sort()).toEqual([
      'invalid_session_key_options',
      'invalid_session_source',
      'whatsapp_identifier_unresolvable',
    ]);
    for (const c of cases) expect('expected' in c).toBe(!('error' in c));
  });

  it('has one case per fixture case with stable ids, sections and levels', () => {
    const cases = sessionKeySuite(agentwireSessionKeys).cases;
    expect(cases.map((c) => c.id)).toEqual(sessionKeysFixture.cases.map((c) => `relay.session-keys.${c.id}`));
    const byId = new Map(cases.map((c) => [c.id, c]));
    expect(byId.get('relay.session-keys.refused-missing-platform')?.level).toBe('recommended');
    expect(byId.get('relay.session-keys.crash-whatsapp-dm-note-example')?.level).toBe('required');
    expect(byId.get('relay.session-keys.prospective-thread-upstream')?.requires).toBe(
      'dialect:upstream-2026-09-21',
    );
    expect(byId.get('relay.session-keys.prospective-thread-upstream')?.section).toBe(
      'relay-reference §6, §15',
    );
    // Refusing an unknown dialect needs no dialect support.
    expect(byId.get('relay.session-keys.refused-unknown-dialect')?.requires).toBeUndefined();
  });

  it('skips the upstream-dialect cases for a baseline-only implementation', async () => {
    const { dialects: _, ...baselineOnly } = agentwireSessionKeys;
    const report = await runSuite(sessionKeySuite(baselineOnly));
    const skipped = report.results.filter((r) => r.status === 'skipped').map((r) => r.id);
    expect(skipped).toContain('relay.session-keys.namespace-main-profile-upstream');
    expect(skipped).toContain('relay.session-keys.crash-whatsapp-upstream-same');
    expect(skipped).not.toContain('relay.session-keys.refused-unknown-dialect');
    expect(skipped).toHaveLength(sessionKeysFixture.cases.filter((c) => 'dialect' in c.options).length - 1);
    expect(report.ok).toBe(true);
  });

  it('fails an implementation that escapes ids, ignores the thread knob and never refuses', async () => {
    const report = await runSuite(
      sessionKeySuite({
        buildSessionKey: (source, options) => {
          const part = (name: string) => String(source[name] ?? '').replaceAll(':', '%3A');
          const chatType = String(source['chat_type'] ?? 'dm');
          const base = `agent:main:${part('platform')}:${chatType}:${part('chat_id')}`;
          if (chatType === 'dm') return base;
          return options.groupSessionsPerUser === false ? base : `${base}:${part('user_id')}`;
        },
        dialects: ['upstream-2026-09-21'],
      }),
    );
    const failed = new Set(report.results.filter((r) => r.status === 'failed').map((r) => r.id));
    expect(failed.has('relay.session-keys.crash-whatsapp-dm-note-example')).toBe(true);
    expect(failed.has('relay.session-keys.refused-numeric-profile')).toBe(true);
    expect(failed.has('relay.session-keys.namespace-main-profile-upstream')).toBe(true);
    expect(failed.size).toBeGreaterThan(100);
    expect(report.ok).toBe(false);
  });

  it('declares every dialect @agentwire/relay knows', () => {
    expect([BASELINE_SESSION_KEY_DIALECT, ...(agentwireSessionKeys.dialects ?? [])]).toEqual(
      SESSION_KEY_DIALECTS,
    );
  });

  it('fails an implementation that keys an unsafe integer as the double it read', async () => {
    const report = await runSuite(
      sessionKeySuite({
        ...agentwireSessionKeys,
        buildSessionKey: (source, options) =>
          buildSessionKey(asReadDouble(source) as SessionKeySource, options as BuildSessionKeyOptions),
      }),
    );
    const failed = report.results.filter((r) => r.status === 'failed').map((r) => r.id);
    // Inside an array or object the bigint is refused anyway (it is not JSON data): one case fails.
    expect(failed).toEqual(['relay.session-keys.refused-unsafe-integer-chat-id']);
  });

  it('checks error codes when the implementation maps them', async () => {
    const report = await runSuite(sessionKeySuite({ ...agentwireSessionKeys, errorCode: () => 'other' }));
    const failed = report.results.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed).toContain('relay.session-keys.crash-whatsapp-dm-slash');
    expect(failed).toHaveLength(sessionKeysFixture.cases.filter((c) => 'error' in c).length);
  });
});

describe('sessionKeySuite through registerSuite', () => {
  registerSuite(sessionKeySuite(agentwireSessionKeys), { describe, it, afterAll });
});

/** `value` with every integral number beyond the safe range turned into the bigint of the double it is. */
function asReadDouble(value: unknown): unknown {
  if (typeof value === 'number')
    return Number.isInteger(value) && !Number.isSafeInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(asReadDouble);
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, asReadDouble(member)]));
}
