import type { AgentConnector } from '@agentwire/agent-connector';
import {
  claimingAgentIds,
  isWakeAddress,
  parseAgentAddress,
  resolveSessionId,
} from '@agentwire/agent-connector';
import { NoOpAgentConnector } from '@agentwire/agent-connector/noop';
import {
  HttpWebhookAgentConnector,
  type HttpWebhookAgentConnectorOptions,
  webhookSignature,
} from '@agentwire/agent-connector/webhook';
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
  createConnector: ({ agentId, url, hmacSecret, authorization, wakeUrl, statusUrl, now, fetch }) =>
    new HttpWebhookAgentConnector({
      agents: {
        [agentId]: {
          url,
          ...(wakeUrl === undefined ? {} : { wake_url: wakeUrl }),
          ...(statusUrl === undefined ? {} : { status_url: statusUrl }),
        },
      },
      ...(hmacSecret === undefined ? {} : { hmac_secret: hmacSecret }),
      ...(authorization === undefined ? {} : { authorization }),
      now,
      fetch,
    }),
};

/**
 * The bundled no-op connector, silenced. It discards what it is given and accepts any agent id, so
 * there is nothing to observe: its run is reduced by design.
 */
export function noopUnderTest(): ConnectorUnderTest {
  return { connector: new NoOpAgentConnector({ log: null }), acceptsAnyAgent: true };
}

/** The webhook connector's `timeout_ms` in the bundled run. */
const STALL_TIMEOUT_MS = 500;

/**
 * The bundled webhook connector against {@link createWebhookReceiverHarness}, with authorization and HMAC
 * checked by the receiver; `wakeUrl: false` leaves the agent without a `wake_url` (degraded wakes).
 */
export function webhookUnderTest(options: {
  readonly wakeUrl: boolean;
  /** Builds the connector from its options; the bundled class by default (tests pass broken variants). */
  readonly build?: (options: HttpWebhookAgentConnectorOptions) => AgentConnector;
}): ConnectorUnderTest {
  const authorization = 'Bearer conformance';
  const secret = 'conformance-secret';
  const receiver = createWebhookReceiverHarness({
    authorization,
    verifySignature: (signature, body) => signature === webhookSignature(secret, body),
  });
  const base = 'https://agents.example/perry';
  const build = options.build ?? ((built) => new HttpWebhookAgentConnector(built));
  const connector = build({
    agents: {
      perry: {
        url: base,
        status_url: `${base}/status`,
        ...(options.wakeUrl ? { wake_url: `${base}/wake` } : {}),
      },
    },
    authorization,
    hmac_secret: secret,
    // Short, so that the stall cases end soon; one attempt (the default) per call.
    timeout_ms: STALL_TIMEOUT_MS,
    fetch: receiver.fetch,
  });
  return {
    connector,
    agentId: 'perry',
    sessions: true,
    observe: () => receiver.deliveries(),
    observeWakes: () => receiver.wakes(),
    setSubstrateAvailable: (available) => receiver.setAvailable(available),
    setSubstrateStalled: (stalled) => receiver.setStalled(stalled),
    stallTimeoutMs: STALL_TIMEOUT_MS,
  };
}
