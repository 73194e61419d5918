import type {
  AgentConnector,
  DeliveryPayload,
  DeliveryReceipt,
  WakeOpts,
  WakeReceipt,
} from '@agentwire/agent-connector';
import { NoOpAgentConnector } from '@agentwire/agent-connector/noop';
import { HttpWebhookAgentConnector } from '@agentwire/agent-connector/webhook';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { agentConnectorSuite } from './agent-connector-suite.js';
import { noopUnderTest, webhookUnderTest } from './agentwire-connectors.js';
import { fileDropUnderTest } from './file-drop-under-test.js';
import { tmuxUnderTest } from './tmux-under-test.js';
import { createWebhookReceiverHarness } from './webhook-receiver-harness.js';

const statuses = (report: { results: readonly { id: string; status: string }[] }) =>
  Object.fromEntries(report.results.map((r) => [r.id.replace('agent-connector.contract.', ''), r.status]));

/** Wakes badly: `woken: 'yes'` with a context, throws without one (as if it had no wake URL). */
class BrokenWakeConnector extends NoOpAgentConnector {
  override async wake(agent_id: string, opts?: { context?: string }) {
    if (opts?.context === undefined) throw new Error(`no wake URL for ${agent_id}`);
    return { woken_at: Date.now(), woken: 'yes' } as never;
  }
}

/** The bundled webhook connector declaring `deliver` off, which would have the deliver cases skipped. */
class UnderDeclaredWebhookConnector extends HttpWebhookAgentConnector {
  static override staticCapabilities() {
    const declared = HttpWebhookAgentConnector.staticCapabilities();
    return { ...declared, features: { ...declared.features, deliver: false } };
  }
}

/** The ids of the cases of `report` that failed, without the suite prefix, sorted. */
const failedIds = (report: { results: readonly { id: string; status: string }[] }) =>
  report.results
    .filter((r) => r.status === 'failed')
    .map((r) => r.id.replace('agent-connector.contract.', ''))
    .sort();

/** The bundled connector's own `deliver` and `wake`, which a mistake may call through to. */
interface Originals {
  deliver(id: string, payload: DeliveryPayload): Promise<DeliveryReceipt>;
  wake(id: string, opts?: WakeOpts): Promise<WakeReceipt>;
}

/** The bundled webhook connector with one realistic mistake, wired to the fake receiver. */
function brokenWebhook(mistake: (original: Originals) => Partial<HttpWebhookAgentConnector>, wakeUrl = true) {
  return () =>
    webhookUnderTest({
      wakeUrl,
      build: (options) => {
        const connector = new HttpWebhookAgentConnector(options);
        const originals: Originals = {
          deliver: connector.deliver.bind(connector),
          wake: connector.wake.bind(connector),
        };
        return Object.assign(connector, mistake(originals));
      },
    });
}

describe('agentConnectorSuite', () => {
  it('passes the no-op connector, which has nothing to observe: the run is reduced, not failed', async () => {
    const report = await runSuite(agentConnectorSuite({ create: noopUnderTest }));
    expect(report.ok).toBe(true);
    const s = statuses(report);
    expect(s['deliver.meta-passthrough']).toBe('unobserved');
    expect(s['wake.observed']).toBe('unobserved');
    expect(s['health-check.false-when-down']).toBe('unobserved');
    expect(s['deliver.unknown-agent']).toBe('skipped');
    expect(s['wake.session-echo-address']).toBe('skipped');
    expect(s['agent-status.valid']).toBe('passed');
    expect(s['wake.without-context']).toBe('passed');
    expect(s['health-check.true-when-available']).toBe('passed');
    expect(report.counts.unobserved).toBeGreaterThan(0);
    expect((await runSuite(agentConnectorSuite({ create: noopUnderTest }), { requireFull: true })).ok).toBe(
      false,
    );
  });

  it.each([
    [
      'throws a plain Error for an unknown agent',
      brokenWebhook((original) => ({
        deliver: async (id, payload) => {
          if (id !== 'perry') throw new Error(`no agent ${id}`);
          return original.deliver(id, payload);
        },
      })),
      ['deliver.unknown-agent', 'deliver.unknown-agent.caller-fault'],
    ],
    [
      'reports delivered_at in seconds',
      brokenWebhook((original) => ({
        deliver: async (id, payload) => {
          const receipt = await original.deliver(id, payload);
          return { ...receipt, delivered_at: Math.floor(receipt.delivered_at / 1000) };
        },
      })),
      [
        'deliver.augment-receipt',
        'deliver.rich-meta-receipt',
        'deliver.substrate-down',
        'deliver.substrate-stalled',
        'deliver.template-receipt',
      ],
    ],
    [
      'delivers twice',
      brokenWebhook((original) => ({
        deliver: async (id, payload) => {
          await original.deliver(id, payload);
          return original.deliver(id, payload);
        },
      })),
      [
        'deliver.augment-receipt',
        'deliver.exactly-once',
        'deliver.meta-passthrough',
        'deliver.rich-meta-receipt',
        'deliver.substrate-down',
        'deliver.substrate-stalled',
        'deliver.template-passthrough',
        'deliver.template-receipt',
      ],
    ],
    [
      'drops every second delivery',
      () => {
        let calls = 0;
        return brokenWebhook((original) => ({
          deliver: async (id, payload) => {
            calls += 1;
            return calls % 2 === 0 ? { delivered_at: Date.now() } : original.deliver(id, payload);
          },
        }))();
      },
      // Which cases meet a dropped delivery depends on the order; that some do is what matters.
      undefined,
    ],
    [
      'reports woken: true and does nothing',
      brokenWebhook(() => ({
        wake: async (_id, opts) => ({
          woken_at: Date.now(),
          woken: true,
          ...(opts?.session_id === undefined ? {} : { session_id: opts.session_id }),
        }),
      })),
      [
        'wake.agent-id-not-a-string',
        'wake.observed',
        'wake.observed-session',
        'wake.session-echo-address',
        'wake.substrate-down',
        'wake.unknown-agent',
        'wake.unknown-agent.caller-fault',
      ],
    ],
    [
      'wakes the wrong session',
      brokenWebhook((original) => ({
        wake: async (id, opts) => {
          const receipt = await original.wake(id.split('@')[0] ?? id, { ...opts, session_id: 'main' });
          const session = opts?.session_id ?? id.split('@')[1];
          return { ...receipt, ...(session === undefined ? {} : { session_id: session }) };
        },
      })),
      ['wake.observed-session'],
    ],
    [
      'says healthy whatever happens',
      brokenWebhook(() => ({ health_check: async () => true })),
      ['health-check.false-when-down', 'health-check.false-when-stalled'],
    ],
    [
      'waits on a hung receiver without a timeout',
      brokenWebhook((original) => ({
        // Waits for the receiver however long it takes: no timeout of its own.
        deliver: (id: string, payload: DeliveryPayload) =>
          new Promise((resolve, reject) => {
            original.deliver(id, payload).then(resolve, (error: unknown) => {
              const { cause_kind } = error as { cause_kind?: unknown };
              if (cause_kind !== 'timeout') reject(error);
            });
          }),
      })),
      ['deliver.substrate-stalled'],
    ],
    [
      'reports a hung receiver as a network failure',
      brokenWebhook((original) => ({
        deliver: async (id: string, payload: DeliveryPayload) => {
          try {
            return await original.deliver(id, payload);
          } catch (error) {
            throw Object.assign(error as object, { cause_kind: 'network' });
          }
        },
      })),
      ['deliver.substrate-stalled', 'deliver.unknown-agent.caller-fault'],
    ],
    [
      'declares deliver off (so its cases are skipped) and delivers all the same',
      () =>
        webhookUnderTest({
          wakeUrl: true,
          build: (options) => new UnderDeclaredWebhookConnector(options),
        }),
      ['static-capabilities.features-honest'],
    ],
    [
      'degrades a wake without a wake URL to nothing (woken: false, the context not delivered)',
      brokenWebhook(
        (original) => ({
          wake: (id, opts) => {
            const { context: _dropped, ...rest } = opts ?? {};
            return original.wake(id, rest);
          },
        }),
        false,
      ),
      // Nothing is sent, so a wake while the receiver is down does not fail either.
      ['wake.degraded-delivers', 'wake.substrate-down'],
    ],
    [
      'says unhealthy whatever happens',
      brokenWebhook(() => ({ health_check: async () => false })),
      ['health-check.false-when-down', 'health-check.true-when-available'],
    ],
  ])('fails a webhook connector that %s', async (_, create, failing) => {
    const report = await runSuite(agentConnectorSuite({ create }));
    expect(report.ok).toBe(false);
    if (failing === undefined) {
      expect(failedIds(report).length).toBeGreaterThan(0);
      expect(failedIds(report).every((id) => id.startsWith('deliver.'))).toBe(true);
    } else expect(failedIds(report)).toEqual([...failing].sort());
  });

  it('catches a dropped delivery whichever delivery is dropped', async () => {
    for (const dropped of [1, 2, 3, 4, 5, 6]) {
      let calls = 0;
      const create = brokenWebhook((original) => ({
        deliver: async (id, payload) => {
          calls += 1;
          return calls === dropped ? { delivered_at: Date.now() } : original.deliver(id, payload);
        },
      }));
      const report = await runSuite(agentConnectorSuite({ create }));
      expect(failedIds(report).length, `dropping delivery ${dropped}`).toBe(1);
    }
  });

  it('reduces the run of a connector that mangles meta and drops deliveries when it cannot be observed', async () => {
    const {
      observe: _observe,
      observeWakes: _observeWakes,
      setSubstrateAvailable: _setSubstrateAvailable,
      setSubstrateStalled: _setSubstrateStalled,
      ...unobserved
    } = webhookUnderTest({
      wakeUrl: true,
      build: (options) => {
        const connector = new HttpWebhookAgentConnector(options);
        const deliver = connector.deliver.bind(connector);
        let calls = 0;
        return Object.assign(connector, {
          deliver: async (id: string, payload: DeliveryPayload) => {
            if (id !== 'perry') return deliver(id, payload);
            calls += 1;
            if (calls % 2 === 0) return { delivered_at: Date.now() };
            return deliver(id, { ...payload, meta: { ...payload.meta, event_type: 'mangled' } });
          },
        });
      },
    });
    const report = await runSuite(agentConnectorSuite({ create: () => unobserved }));
    expect(failedIds(report)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(statuses(report)['deliver.meta-passthrough']).toBe('unobserved');
    expect(statuses(report)['deliver.exactly-once']).toBe('unobserved');
    expect(report.counts.unobserved).toBe(11);
    const full = await runSuite(agentConnectorSuite({ create: () => unobserved }), { requireFull: true });
    expect(full.ok).toBe(false);
  });

  it.each([
    ['file-drop', fileDropUnderTest, ['agent-status.valid']],
    ['tmux', tmuxUnderTest, ['wake.observed-session']],
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

  it('observes the tmux connector as far as a pane allows: its wakes and faults, not the payloads it received', async () => {
    const report = await runSuite(agentConnectorSuite({ create: tmuxUnderTest }));
    expect(report.ok).toBe(true);
    const ran = (status: string) =>
      report.results.filter((r) => r.status === status).map((r) => r.id.split('.').slice(2).join('.'));
    expect(ran('unobserved')).toEqual([
      'deliver.meta-passthrough',
      'deliver.template-passthrough',
      'deliver.exactly-once',
      'wake.degraded-delivers',
    ]);
    expect(ran('passed')).toEqual(
      expect.arrayContaining([
        'health-check.false-when-down',
        'health-check.false-when-stalled',
        'deliver.substrate-down',
        'deliver.substrate-stalled',
        'wake.observed',
        'wake.substrate-down',
      ]),
    );
  });

  it.each<[string, (original: Originals) => Partial<AgentConnector>, string[]]>([
    [
      'wakes without typing the context',
      (original) => ({
        wake: (id, opts) => {
          const { context: _dropped, ...rest } = opts ?? {};
          return original.wake(id, rest);
        },
      }),
      ['wake.observed'],
    ],
    [
      'reports a tmux that failed to run as delivered, and healthy',
      (original) => ({
        deliver: (id, payload) =>
          original.deliver(id, payload).catch((error: { cause?: { code?: string } }) => {
            if (error.cause?.code !== 'tmux_command_failed') throw error;
            return { delivered_at: Date.now(), delivery_id: 'tmux:agents:0.0' };
          }),
        health_check: async () => true,
      }),
      [
        'deliver.substrate-down',
        'deliver.substrate-stalled',
        'health-check.false-when-down',
        'health-check.false-when-stalled',
      ],
    ],
  ])('fails a tmux connector that %s', async (_, mistake, failing) => {
    const report = await runSuite(
      agentConnectorSuite({
        create: async () => {
          const underTest = await tmuxUnderTest();
          const { connector } = underTest;
          const original: Originals = {
            deliver: connector.deliver.bind(connector),
            wake: connector.wake.bind(connector),
          };
          Object.assign(connector, mistake(original));
          return underTest;
        },
      }),
    );
    expect(failedIds(report)).toEqual([...failing].sort());
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
    expect(failedIds(report)).toEqual([
      // The no-op base accepts any agent; this connector does not say so.
      'deliver.unknown-agent',
      'deliver.unknown-agent.caller-fault',
      'list-agents.includes-agent',
      'wake.agent-id-not-a-string',
      'wake.session-address',
      'wake.unknown-agent',
      'wake.unknown-agent.caller-fault',
      'wake.with-context',
      'wake.without-context',
    ]);
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

describe('createWebhookReceiverHarness', () => {
  it('answers 400 to a delivery whose payload is not a DeliveryPayload, and 200 to one that is', async () => {
    const receiver = createWebhookReceiverHarness();
    const post = (body: unknown) =>
      receiver.fetch('https://agents.example/in', { method: 'POST', body: JSON.stringify(body) });
    const meta = {
      dispatch_id: 'd-1',
      sent_at: Date.now(),
      origin: { skill_name: 's', trigger_kind: 'inline' },
    };
    expect((await post({ agent_id: 'perry', kind: 'augment', meta })).status).toBe(400);
    expect((await post({ agent_id: 'perry', kind: 'augment', content: 'hi', meta })).status).toBe(200);
    expect(receiver.deliveries()).toHaveLength(2);
  });
});
