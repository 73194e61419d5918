import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claimingAgentIds, isWakeAddress, parseAgentAddress, resolveSessionId } from './address.js';

interface AddressCase {
  readonly id: string;
  readonly tags: readonly string[];
  readonly address: unknown;
  readonly opts_session_id?: string;
  readonly expected?: {
    readonly route: 'deliver' | 'wake';
    readonly agent: string;
    readonly session: string | null;
    readonly claiming_agent_ids: readonly string[];
    readonly resolved_session_id: string | null;
  };
  readonly error?: string;
}

const fixture = JSON.parse(
  readFileSync(new URL('../../conformance/fixtures/agent-connector/addresses.json', import.meta.url), 'utf8'),
) as { readonly description: string; readonly source: string; readonly cases: readonly AddressCase[] };

describe('fixtures/agent-connector/addresses.json', () => {
  it('has at least 40 uniquely named cases covering every rule', () => {
    expect(fixture.cases.length).toBeGreaterThanOrEqual(40);
    expect(new Set(fixture.cases.map((c) => c.id)).size).toBe(fixture.cases.length);
    const tags = new Set(fixture.cases.flatMap((c) => c.tags));
    for (const tag of ['bare', 'composite', 'multiple-at', 'empty-part', 'leading-at', 'whitespace']) {
      expect(tags).toContain(tag);
    }
    expect(tags).toContain('session-precedence');
    expect(tags).toContain('invalid');
  });

  for (const c of fixture.cases) {
    it(c.id, () => {
      const address = c.address as string;
      const opts = c.opts_session_id === undefined ? undefined : { session_id: c.opts_session_id };
      if (c.error !== undefined) {
        for (const run of [
          () => isWakeAddress(address),
          () => parseAgentAddress(address),
          () => claimingAgentIds(address),
          () => resolveSessionId(address, opts),
        ]) {
          expect(run).toThrow(expect.objectContaining({ code: 'invalid_agent_address' }));
          expect(() => run()).toThrow(expect.objectContaining({ code: c.error }));
        }
        return;
      }
      const expected = c.expected;
      if (expected === undefined) throw new Error(`case ${c.id} has neither expected nor error`);
      expect(isWakeAddress(address)).toBe(expected.route === 'wake');
      const parsed = parseAgentAddress(address);
      expect(parsed.address).toBe(address);
      expect(parsed.shape).toBe(expected.route === 'wake' ? 'composite' : 'bare');
      expect(parsed.agent).toBe(expected.agent);
      expect(parsed.session ?? null).toBe(expected.session);
      expect('session' in parsed).toBe(expected.session !== null);
      expect(claimingAgentIds(address)).toEqual(expected.claiming_agent_ids);
      expect(resolveSessionId(address, opts) ?? null).toBe(expected.resolved_session_id);
    });
  }
});
