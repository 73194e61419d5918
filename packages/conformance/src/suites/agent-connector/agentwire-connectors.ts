import { NoOpAgentConnector } from '@agentwire/agent-connector/noop';
import { HttpWebhookAgentConnector, webhookSignature } from '@agentwire/agent-connector/webhook';
import type { ConnectorUnderTest } from './agent-connector-suite.js';
import { createWebhookReceiverHarness } from './webhook-receiver-harness.js';

/** The bundled no-op connector, silenced. */
export function noopUnderTest(): ConnectorUnderTest {
  return { connector: new NoOpAgentConnector({ log: null }) };
}

/**
 * The bundled webhook connector against {@link createWebhookReceiverHarness}, with authorization and HMAC
 * checked by the receiver; `wakeUrl: false` leaves the agent without a `wake_url` (degraded wakes).
 */
export function webhookUnderTest(options: { readonly wakeUrl: boolean }): ConnectorUnderTest {
  const authorization = 'Bearer conformance';
  const secret = 'conformance-secret';
  const receiver = createWebhookReceiverHarness({
    authorization,
    verifySignature: (signature, body) => signature === webhookSignature(secret, body),
  });
  const base = 'https://agents.example/perry';
  const connector = new HttpWebhookAgentConnector({
    agents: {
      perry: {
        url: base,
        status_url: `${base}/status`,
        ...(options.wakeUrl ? { wake_url: `${base}/wake` } : {}),
      },
    },
    authorization,
    hmac_secret: secret,
    fetch: receiver.fetch,
  });
  return { connector, agentId: 'perry', sessions: true, observe: () => receiver.deliveries() };
}
