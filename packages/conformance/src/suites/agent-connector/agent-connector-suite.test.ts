import { NoOpAgentConnector } from '@agentwire/agent-connector/noop';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { agentConnectorSuite } from './agent-connector-suite.js';
import { noopUnderTest, webhookUnderTest } from './agentwire-connectors.js';
import { fileDropUnderTest } from './file-drop-under-test.js';
import { tmuxUnderTest } from './tmux-under-test.js';

const statuses = (report: { results: readonly { id: string; status: string }[] }) =>
  Object.fromEntries(report.results.map((r) => [r.id.replace('agent-connector.contract.', ''), r.status]));

/** Wakes badly: `woken: 'yes'` with a context, throws without one (as if it had no wake URL). */
class BrokenWakeConnector extends NoOpAgentConnector {
  override async wake(agent_id: string, opts?: { context?: string }) {
    if (opts?.context === undefined) throw new Error(`no wake URL for ${agent_id}`);
    return { woken_at: Date.now(), woken: 'yes' } as never;
  }
}

describe('agentConnectorSuite', () => {
  it('passes the no-op connector, skipping what it cannot show', async () => {
    const report = await runSuite(agentConnectorSuite({ create: noopUnderTest }));
    expect(report.ok).toBe(true);
    const s = statuses(report);
    expect(s['deliver.meta-passthrough']).toBe('skipped');
    expect(s['wake.session-echo-address']).toBe('skipped');
    expect(s['agent-status.valid']).toBe('passed');
    expect(s['wake.without-context']).toBe('passed');
  });

  it.each([
    ['file-drop', fileDropUnderTest, ['agent-status.valid']],
    ['tmux', tmuxUnderTest, ['deliver.meta-passthrough', 'deliver.template-passthrough']],
    [
      'webhook with wake_url',
      () => webhookUnderTest({ wakeUrl: true }),
      ['agent-status.valid', 'deliver.session-echo-address'],
    ],
    [
      'webhook without wake_url',
      () => webhookUnderTest({ wakeUrl: false }),
      ['agent-status.valid', 'deliver.session-echo-address'],
    ],
  ])('passes the %s connector, skipping only what it does not offer', async (_, factory, skipped) => {
    const report = await runSuite(agentConnectorSuite({ create: factory }));
    expect(report.errors).toEqual([]);
    expect(report.results.filter((r) => r.status === 'failed')).toEqual([]);
    expect(report.results.filter((r) => r.status === 'skipped').map((r) => r.id)).toEqual(
      skipped.map((id) => `agent-connector.contract.${id}`),
    );
  });

  it('fails a connector that claims delivery sessions but drops the session from its receipts', async () => {
    const report = await runSuite(
      agentConnectorSuite({
        create: () => ({ connector: new NoOpAgentConnector({ log: null }), deliverySessions: true }),
      }),
    );
    const s = statuses(report);
    expect(s['deliver.session-echo-address']).toBe('failed');
    expect(s['deliver.augment-receipt']).toBe('passed');
  });

  it('fails a connector whose wake answers woken: "yes" and throws without a wake URL', async () => {
    const report = await runSuite(
      agentConnectorSuite({ create: () => new BrokenWakeConnector({ log: null }) }),
    );
    expect(report.ok).toBe(false);
    const failed = report.results.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed.sort()).toEqual(
      [
        'agent-connector.contract.wake.session-address',
        'agent-connector.contract.wake.with-context',
        'agent-connector.contract.wake.without-context',
      ].sort(),
    );
  });

  it('fails receipts with null fields, string times and a wrong request_response error', async () => {
    const connector = new NoOpAgentConnector({ log: null });
    Object.assign(connector, {
      deliver: async () => ({ delivered_at: String(Date.now()), session_id: null }),
      health_check: async () => 'ok',
      request_response: async () => {
        throw new Error('nope');
      },
    });
    const s = statuses(await runSuite(agentConnectorSuite({ create: () => connector })));
    expect(s['deliver.augment-receipt']).toBe('failed');
    expect(s['deliver.template-receipt']).toBe('failed');
    expect(s['health-check.boolean']).toBe('failed');
    expect(s['request-response.works-or-not-implemented']).toBe('failed');
    expect(s['wake.with-context']).toBe('passed');
  });
});

describe('agentConnectorSuite through registerSuite (file-drop)', () => {
  registerSuite(agentConnectorSuite({ create: fileDropUnderTest }), { describe, it, afterAll });
});
describe('agentConnectorSuite through registerSuite (webhook)', () => {
  registerSuite(agentConnectorSuite({ create: () => webhookUnderTest({ wakeUrl: true }) }), {
    describe,
    it,
    afterAll,
  });
});
describe('agentConnectorSuite through registerSuite (no-op)', () => {
  registerSuite(agentConnectorSuite({ create: noopUnderTest }), { describe, it, afterAll });
});
