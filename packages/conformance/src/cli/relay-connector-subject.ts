import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticatorFor, InMemoryGatewaySecretStore } from '@agentwire/relay';
import {
  createEdgeRouter,
  createMediaHandler,
  enrollmentRoutes,
  InMemoryEnrollmentTokenStore,
  InMemoryMediaStore,
  InMemoryPolicyStore,
  InMemoryProvisionRegistry,
  toNodeListener,
} from '@agentwire/relay/edge';
import { createRelayServer, type PlatformAdapter, type RelayServer } from '@agentwire/relay/server';
import { nodeDeclaredLengthProbe } from '../suites/relay-edge/node-declared-length-probe.js';
import { relayEdgeLiveSuite } from '../suites/relay-edge/relay-edge-live-suite.js';
import { relayConnectorSuite } from '../suites/relay-live/relay-connector-suite.js';
import type { LiveSubject, StartedSubject } from './live-subject.js';

const GATEWAY_ID = 'gw-conformance';
const TENANT = 'tenant-conformance';
const PLATFORM = 'discord';

/**
 * A platform adapter that performs nothing and answers every op with a success that echoes the action,
 * so that the black-box suite checks the connector's protocol handling rather than a platform.
 */
const echoAdapter: PlatformAdapter = {
  descriptor: {
    platform: PLATFORM,
    label: 'Discord (echo)',
    max_message_length: 2000,
    supports_draft_streaming: false,
    supports_edit: true,
    supports_threads: true,
    markdown_dialect: 'discord',
    len_unit: 'utf16',
  },
  send: ({ chat_id }) => ({ success: true, message_id: `${chat_id}:sent` }),
  edit: ({ message_id }) => ({ success: true, message_id }),
  typing: () => ({ success: true }),
  follow_up: ({ session_key }) => ({ success: true, message_id: `${session_key}:follow-up` }),
  get_chat_info: ({ chat_id }) => ({ success: true, chat_info: { name: chat_id, type: 'group' } }),
  send_media: ({ chat_id }) => ({ success: true, message_id: `${chat_id}:media` }),
  prompt: ({ chat_id }) => ({ success: true, message_id: `${chat_id}:prompt` }),
  react: () => ({ success: true }),
  thread_create: ({ chat_id }) => ({ success: true, thread_id: `${chat_id}:thread` }),
  thread_rename: () => ({ success: true }),
  onInterrupt: () => undefined,
};

/**
 * The relay connector agentwire ships, in-process on 127.0.0.1 (port 0): `createRelayServer` with an
 * echoing adapter on the same HTTP server as the edge side channels of `@agentwire/relay/edge`
 * (`/relay/enroll`, `/relay/provision`, `/relay/policy`, `/relay/media`), all on in-memory stores.
 * One buffered inbound event waits for the gateway. Runs `relay.live` (playing the gateway over
 * WebSocket) and `relay.edge-live` (the side channels, provision and enroll included).
 */
export const relayConnectorSubject: LiveSubject = {
  subject: 'agentwire relay connector, in-process',
  start: startRelayConnector,
};

async function startRelayConnector(): Promise<StartedSubject> {
  const secrets = new InMemoryGatewaySecretStore();
  const {
    secrets: [secret = ''],
  } = await secrets.create(GATEWAY_ID, TENANT);
  const enrollmentTokens = new InMemoryEnrollmentTokenStore();
  const enrollmentToken = await enrollmentTokens.issue({ tenant: TENANT, ttlMs: 15 * 60_000 });
  const identityToken = `conformance-identity-${crypto.randomUUID()}`;
  const authenticate = authenticatorFor(secrets);
  const media = createMediaHandler({ authenticate, store: new InMemoryMediaStore() });
  const http = createServer(
    toNodeListener(
      createEdgeRouter({
        ...enrollmentRoutes({
          verifyIdentity: async (token) =>
            token === identityToken ? { subject: 'conformance', tenant: TENANT } : null,
          enrollmentTokens,
          secrets,
          registry: new InMemoryProvisionRegistry(),
          policies: new InMemoryPolicyStore(),
        }),
        '/relay/media': media,
        '/relay/media/*': media,
      }),
    ),
  );
  let relay: RelayServer | undefined;
  const stop = async () => {
    await relay?.close();
    http.closeAllConnections();
    if (http.listening) await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  try {
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    relay = await createRelayServer({ server: http, authenticate, platforms: { [PLATFORM]: echoAdapter } });
    await relay.deliverInbound(TENANT, sampleInbound());
  } catch (error) {
    await stop();
    throw error;
  }
  const { port } = http.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    suites: [
      relayConnectorSuite({
        url: `ws://127.0.0.1:${port}/relay`,
        gatewayId: GATEWAY_ID,
        secret,
        platform: PLATFORM,
      }),
      relayEdgeLiveSuite({
        baseUrl,
        gatewayId: GATEWAY_ID,
        secret,
        identityToken,
        enrollmentToken,
        declaredLengthProbe: nodeDeclaredLengthProbe(),
      }),
    ] as StartedSubject['suites'],
    stop,
  };
}

/** A group-chat message waiting in the buffer, so that the inbound and acknowledgement cases run. */
function sampleInbound() {
  return {
    text: 'hello from the in-process relay connector',
    message_type: 'text',
    message_id: 'inbound-1',
    reply_to_message_id: null,
    reply_to: null,
    media_urls: [],
    source: {
      platform: PLATFORM,
      chat_id: '111',
      chat_name: null,
      chat_type: 'group',
      user_id: '9001',
      user_name: 'tester',
      thread_id: null,
      chat_topic: null,
      scope_id: 'G1',
      guild_id: 'G1',
    },
  } as const;
}
