import { parseAgentAddress } from '@agentwire/agent-connector';
import { afterAll, describe, expect, it } from 'vitest';
import addressesFixture from '../../../fixtures/agent-connector/addresses.json' with { type: 'json' };
import { runSuite, type SuiteReport } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { type AgentAddressImplementation, agentAddressSuite } from './agent-address-suite.js';
import { agentwireAddresses } from './agentwire-connectors.js';

const agentConnector: AgentAddressImplementation = agentwireAddresses;

const failedIds = (report: SuiteReport) =>
  new Set(report.results.filter((r) => r.status === 'failed').map((r) => r.id));

describe('agentAddressSuite', () => {
  it('passes every case against @agentwire/agent-connector', async () => {
    const report = await runSuite(agentAddressSuite(agentConnector));
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    // Four functions per fixture case, and the generated opts.session_id refusal.
    expect(report.counts.passed).toBe(addressesFixture.cases.length * 4 + 1);
  });

  it('fails an implementation whose refusals do not name the argument, or that takes any opts.session_id', async () => {
    const unnamed =
      (fn: (...args: never[]) => unknown) =>
      (...args: never[]) => {
        try {
          return fn(...args);
        } catch (error) {
          throw Object.assign(new Error((error as Error).message), {
            code: (error as { code: string }).code,
          });
        }
      };
    const report = await runSuite(
      agentAddressSuite({
        isWakeAddress: unnamed(agentwireAddresses.isWakeAddress) as typeof agentwireAddresses.isWakeAddress,
        resolveSessionId: (address, opts) =>
          agentwireAddresses.resolveSessionId!(address, { session_id: String(opts?.session_id ?? '') }),
      }),
    );
    expect([...failedIds(report)].sort()).toEqual([
      'agent-connector.addresses.not-a-string-array.route',
      'agent-connector.addresses.not-a-string-null.route',
      'agent-connector.addresses.not-a-string-number.route',
      'agent-connector.addresses.opts-session-id-not-a-string.resolve-session',
    ]);
  });

  it('reads a fixture of at least 40 cases covering every rule', () => {
    expect(addressesFixture.cases.length).toBeGreaterThanOrEqual(40);
    const tags = new Set(addressesFixture.cases.flatMap((c) => c.tags));
    for (const tag of [
      'bare',
      'composite',
      'multiple-at',
      'empty-part',
      'leading-at',
      'whitespace',
      'session-precedence',
      'invalid',
    ]) {
      expect(tags).toContain(tag);
    }
  });

  it('runs only the routing cases for an implementation of isWakeAddress alone', async () => {
    const report = await runSuite(agentAddressSuite({ isWakeAddress: agentwireAddresses.isWakeAddress }));
    expect(report.ok).toBe(true);
    expect(report.counts.passed).toBe(addressesFixture.cases.length);
    expect(report.counts.skipped).toBe(addressesFixture.cases.length * 3 + 1);
  });

  it('fails the cases a wrong implementation gets wrong', async () => {
    const report = await runSuite(
      agentAddressSuite({
        // Trims the address, splits at the last '@', forgets the bare agent of a composite, lets the
        // address's session win over opts.session_id, and answers false for a non-string.
        isWakeAddress: (address) => (typeof address === 'string' ? address.trim().includes('@') : false),
        parseAgentAddress: (address) => {
          const at = address.lastIndexOf('@');
          return at < 0
            ? { address, shape: 'bare', agent: address }
            : { address, shape: 'composite', agent: address.slice(0, at), session: address.slice(at + 1) };
        },
        claimingAgentIds: (address) => [address],
        resolveSessionId: (address, opts) =>
          parseAgentAddress(address).session || opts?.session_id || undefined,
      }),
    );
    const failed = failedIds(report);
    const id = (rest: string) => `agent-connector.addresses.${rest}`;
    expect(failed).toContain(id('not-a-string-null.route'));
    expect(failed).toContain(id('three-parts.parse'));
    expect(failed).toContain(id('composite-terminal.claiming-ids'));
    expect(failed).toContain(id('opts-win-over-suffix.resolve-session'));
    expect(failed).not.toContain(id('bare-name.route'));
    expect(failed).not.toContain(id('bare-name.claiming-ids'));
  });
});

describe('agentAddressSuite through registerSuite', () => {
  registerSuite(agentAddressSuite(agentConnector), { describe, it, afterAll });
});
