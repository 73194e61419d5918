import {
  claimingAgentIds,
  isWakeAddress,
  parseAgentAddress,
  resolveSessionId,
} from '@agentwire/agent-connector';
import { NoOpAgentConnector } from '@agentwire/agent-connector/noop';
import { HttpWebhookAgentConnector, webhookSignature } from '@agentwire/agent-connector/webhook';
import type { AgentAddressImplementation } from './agent-address-suite.js';
import type { ConnectorUnderTest } from './agent-connector-suite.js';
import { createWebhookReceiverHarness } from './webhook-receiver-harness.js';
import type { WebhookWireImplementation } from './webhook-wire-suite.js';

/** `@agentwire/agent-connector`'s address functions, for `agentAddressSuite`. */
export const agentwireAddresses: AgentAddressImplementation = {
  isWakeAddress,
  parseAgentAddress,
  claimingAgentIds,
  resolveSessionId,
};

/** The bundled webhook connector built for each `webhookWireSuite` case, for its exact request and receipt. */
export const agentwireWebhookWire: WebhookWireImplementation = {
  createConnector: ({ agentId, url, hmacSecret, now, fetch }) =>
    new HttpWebhookAgentConnector({
      agents: { [agentId]: { url } },
      ...(hmacSecret === undefined ? {} : { hmac_secret: hmacSecret }),
      now,
      fetch,
    }),
};

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
