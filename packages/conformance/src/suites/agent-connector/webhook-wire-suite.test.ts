import type { AgentConnector } from '@agentwire/agent-connector';
import { HttpWebhookAgentConnector } from '@agentwire/agent-connector/webhook';
import { afterAll, describe, expect, it } from 'vitest';
import webhookFixture from '../../../fixtures/agent-connector/webhook.json' with { type: 'json' };
import { runSuite, type SuiteReport } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { agentwireWebhookWire } from './agentwire-connectors.js';
import { type WebhookWireImplementation, webhookWireSuite } from './webhook-wire-suite.js';

const bundled: WebhookWireImplementation = agentwireWebhookWire;

const failedIds = (report: SuiteReport) =>
  new Set(
    report.results
      .filter((r) => r.status === 'failed')
      .map((r) => r.id.replace('agent-connector.webhook-wire.', '')),
  );

/**
 * The bundled connector behind a transport that makes two realistic mistakes: it re-serialises the
 * body with a space after each separator (so the signed bytes are no longer the sent bytes), and it
 * turns a 3xx answer into a 200 as a fetch that follows redirects would.
 */
const reformatting: WebhookWireImplementation = {
  createConnector: (setup) =>
    bundled.createConnector({
      ...setup,
      fetch: async (url, init) => {
        const body =
          typeof init.body === 'string'
            ? JSON.stringify(JSON.parse(init.body), null, 1)
            : (init.body ?? null);
        const response = await setup.fetch(url, { ...init, body });
        return response.status >= 300 && response.status < 400 ? new Response('', { status: 200 }) : response;
      },
    }),
};

describe('webhookWireSuite', () => {
  it('passes every case against HttpWebhookAgentConnector', async () => {
    const report = await runSuite(webhookWireSuite(bundled));
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    expect(report.counts.passed).toBe(webhookFixture.cases.length);
  });

  it('reads a fixture with its five kinds of case', () => {
    const kinds = ['request', 'receipt', 'wake-request', 'health', 'degraded-wake'];
    const count = (kind: string) => webhookFixture.cases.filter((c) => c.tags.includes(kind)).length;
    expect(kinds.map(count)).toEqual([expect.any(Number), expect.any(Number), 5, 9, 2]);
    expect(count('request')).toBeGreaterThan(5);
    expect(count('receipt')).toBeGreaterThan(20);
    expect(kinds.map(count).reduce((a, b) => a + b)).toBe(webhookFixture.cases.length);
  });

  it.each<[string, (original: AgentConnector) => Partial<AgentConnector>, string[]]>([
    [
      'drops the session from the wake request',
      (original) => ({
        wake: (agentId, opts) => {
          const { session_id: _dropped, ...rest } = opts ?? {};
          return original.wake(agentId.split('@')[0] as string, rest);
        },
      }),
      ['wake-address-session', 'wake-opts-session-wins', 'degraded-wake-session-echoed'],
    ],
    [
      'calls any answer of the status URL healthy',
      (original) => ({
        health_check: async () => {
          await original.health_check();
          return true;
        },
      }),
      ['health-300-no-location', 'health-404', 'health-500', 'health-503', 'health-unreachable'],
    ],
  ])('fails a webhook connector that %s', async (_, mistake, failing) => {
    const broken: WebhookWireImplementation = {
      createConnector: async (setup) => {
        const connector = await bundled.createConnector(setup);
        const original: AgentConnector = {
          deliver: connector.deliver.bind(connector),
          wake: connector.wake.bind(connector),
          list_agents: connector.list_agents.bind(connector),
          health_check: connector.health_check.bind(connector),
          request_response: connector.request_response.bind(connector),
        };
        return Object.assign(connector, mistake(original));
      },
    };
    const failed = failedIds(await runSuite(webhookWireSuite(broken)));
    expect([...failed].sort()).toEqual([...failing].sort());
  });

  it('fails a connector that sends a failed delivery again on its own', async () => {
    const retrying: WebhookWireImplementation = {
      createConnector: ({ agentId, url, now, fetch }) =>
        new HttpWebhookAgentConnector({
          agents: { [agentId]: { url } },
          now,
          fetch,
          retry: { attempts: 2, initial_delay_ms: 1 },
        }),
    };
    const failed = failedIds(await runSuite(webhookWireSuite(retrying)));
    expect(failed).toContain('http-503-fails');
    expect(failed).toContain('http-429-fails');
    expect(failed).not.toContain('http-400-fails');
  });

  it('fails a connector that sends no Authorization, or sends it only with deliveries', async () => {
    const withoutAuthorization: WebhookWireImplementation = {
      createConnector: ({ authorization: _ignored, ...setup }) => bundled.createConnector(setup),
    };
    const failed = failedIds(await runSuite(webhookWireSuite(withoutAuthorization)));
    expect(failed).toContain('augment-signed-authorized');
    expect(failed).toContain('wake-context-signed');
    expect(failed).toContain('health-200');
  });

  it('fails a connector whose body is not the fixture bytes and that takes a redirect for success', async () => {
    const failed = failedIds(await runSuite(webhookWireSuite(reformatting)));
    expect(failed).toContain('augment-ascii-no-secret');
    expect(failed).toContain('augment-signed');
    expect(failed).toContain('redirect-status-fails');
    expect(failed).not.toContain('http-500-fails');
    expect(failed).not.toContain('canonical-receipt');
  });

  it('fails receipts that drop the fallback delivery id', async () => {
    const lenient: WebhookWireImplementation = {
      createConnector: async (setup) => {
        const connector = await bundled.createConnector(setup);
        return Object.assign(Object.create(connector) as typeof connector, {
          deliver: async (agentId: string, payload: Parameters<typeof connector.deliver>[1]) => {
            const { delivery_id: _dropped, ...receipt } = await connector.deliver(agentId, payload);
            return receipt;
          },
        });
      },
    };
    const failed = failedIds(await runSuite(webhookWireSuite(lenient)));
    expect(failed).toContain('id-fallback');
    expect(failed).toContain('canonical-receipt');
    expect(failed).not.toContain('empty-body');
  });

  it('fails receipts whose delivered_at is in seconds', async () => {
    const inSeconds: WebhookWireImplementation = {
      createConnector: async (setup) => {
        const connector = await bundled.createConnector(setup);
        return Object.assign(Object.create(connector) as typeof connector, {
          deliver: async (agentId: string, payload: Parameters<typeof connector.deliver>[1]) => {
            const receipt = await connector.deliver(agentId, payload);
            return { ...receipt, delivered_at: Math.floor(receipt.delivered_at / 1000) };
          },
        });
      },
    };
    const report = await runSuite(webhookWireSuite(inSeconds));
    const failed = failedIds(report);
    expect(failed).toContain('canonical-receipt');
    // Every case that ends in a receipt fails; refusals never reach it.
    expect(report.results.filter((r) => r.status === 'passed').length).toBeGreaterThan(0);
  });
});

describe('webhookWireSuite through registerSuite', () => {
  registerSuite(webhookWireSuite(bundled), { describe, it, afterAll });
});
