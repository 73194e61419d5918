import type { DeliveryPayload } from '@agentwire/agent-connector';
import { assertEqual, assertTrue } from '../../assert.js';
import { formatValue } from '../../format-value.js';
import type { ConformanceCase } from '../../suite.js';
import type { AgentConnectorContext } from './connector-under-test.js';
import { augmentPayload, minimalMeta, richMeta, templatePayload } from './sample-payloads.js';
import { assertDeliveryReceipt, mustResolve } from './strict-values.js';
import { AGENT_CONNECTOR_SUITE_VERSION } from './suite-version.js';

type Case = ConformanceCase<AgentConnectorContext>;

const since = AGENT_CONNECTOR_SUITE_VERSION;
/** The session of the `agent@session` address the session case delivers to. */
const DELIVERY_SESSION = 'conformance-delivery-session';

async function deliverAndCheck(ctx: AgentConnectorContext, payload: DeliveryPayload): Promise<void> {
  const receipt = await mustResolve(`deliver('${ctx.agentId}', ${payload.kind})`, () =>
    ctx.connector.deliver(ctx.agentId, payload),
  );
  assertDeliveryReceipt(receipt);
}

async function assertPassedThrough(ctx: AgentConnectorContext, sent: DeliveryPayload): Promise<void> {
  await mustResolve(`deliver('${ctx.agentId}', ${sent.kind})`, () =>
    ctx.connector.deliver(ctx.agentId, sent),
  );
  const received = (await ctx.observe?.()) ?? [];
  const match = received.find(
    (delivery) =>
      (delivery.payload as { readonly meta?: { readonly dispatch_id?: unknown } } | null)?.meta
        ?.dispatch_id === sent.meta.dispatch_id,
  );
  assertTrue(
    match !== undefined,
    `the substrate received no delivery with dispatch_id ${formatValue(sent.meta.dispatch_id)}`,
  );
  assertEqual(match.agent_id, ctx.agentId, 'agent_id the substrate received');
  assertEqual(match.payload, sent, 'payload the substrate received');
}

/** `deliver()` of both payload kinds, receipts and pass-through. */
export function deliveryCases(suiteName: string): Case[] {
  const id = (rest: string) => `${suiteName}.deliver.${rest}`;
  return [
    {
      id: id('augment-receipt'),
      title: 'deliver(augment) resolves to a valid receipt',
      section: 'AgentConnector v1.0 §deliver, DeliveryReceipt',
      level: 'required',
      requires: 'deliver',
      since,
      run: (ctx) => deliverAndCheck(ctx, augmentPayload(minimalMeta('augment'))),
    },
    {
      id: id('template-receipt'),
      title: 'deliver(template) resolves to a valid receipt',
      section: 'AgentConnector v1.0 §deliver, DeliveryReceipt',
      level: 'required',
      requires: 'deliver',
      since,
      run: (ctx) => deliverAndCheck(ctx, templatePayload(minimalMeta('template'))),
    },
    {
      id: id('rich-meta-receipt'),
      title: 'deliver() accepts meta with every optional field and unknown keys',
      section: 'AgentConnector v1.0 §DeliveryMeta',
      level: 'required',
      requires: 'deliver',
      since,
      run: (ctx) => deliverAndCheck(ctx, augmentPayload(richMeta('rich'))),
    },
    {
      id: id('meta-passthrough'),
      title: 'the substrate receives the augment payload and its meta untouched',
      section: 'AgentConnector v1.0 §DeliveryMeta',
      level: 'required',
      requires: 'observe-deliveries',
      since,
      run: (ctx) => assertPassedThrough(ctx, augmentPayload(richMeta('passthrough'))),
    },
    {
      id: id('template-passthrough'),
      title: 'the substrate receives the template payload and its meta untouched',
      section: 'AgentConnector v1.0 §DeliveryMeta',
      level: 'required',
      requires: 'observe-deliveries',
      since,
      run: (ctx) => assertPassedThrough(ctx, templatePayload(richMeta('passthrough-template'))),
    },
    {
      id: id('session-echo-address'),
      title: 'deliver(agent@session) echoes the session on the receipt',
      section: 'AgentConnector v1.0 §DeliveryReceipt, §agent@session targeting',
      level: 'required',
      requires: 'delivery-sessions',
      since,
      run: async (ctx) => {
        const address = `${ctx.agentId}@${DELIVERY_SESSION}`;
        const receipt = await mustResolve(`deliver('${address}', augment)`, () =>
          ctx.connector.deliver(address, augmentPayload(minimalMeta('session'))),
        );
        assertDeliveryReceipt(receipt);
        assertEqual(receipt.session_id, DELIVERY_SESSION, 'session_id');
      },
    },
  ];
}
