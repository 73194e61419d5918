import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { storageConventions } from '@agentwire/agent-connector';
import { FileDropAgentConnector } from '@agentwire/agent-connector/file-drop';
import {
  blake3Hex,
  blobCid,
  canonicalJson,
  chunkBlob,
  contentId,
  type Ed25519Backend,
  nobleBackend,
  nodeCryptoBackend,
  nodeIdFromPublicKey,
  parseContentId,
  parseNodeId,
  shortNodeId,
  signPayload,
  verifyPayload,
} from '@agentwire/hearthnet';
import { InMemoryBlobStore } from '@agentwire/hearthnet/blobs';
import { asHearthNetError } from '@agentwire/hearthnet/capabilities';
import { InMemoryEventStore } from '@agentwire/hearthnet/events';
import { authenticatorFor, type MessageEventWire, OUTBOUND_OPS } from '@agentwire/relay';
import {
  createEdgeRouter,
  createMediaHandler,
  enrollmentRoutes,
  toNodeListener,
} from '@agentwire/relay/edge';
import { createRelayServer, type PlatformAdapter, type RelayServer } from '@agentwire/relay/server';
import {
  InMemoryCapabilityVault,
  InMemoryEnrollmentTokenStore,
  InMemoryGatewaySecretStore,
  InMemoryInboundBuffer,
  InMemoryMediaStore,
  InMemoryPolicyStore,
  InMemoryProvisionRegistry,
  InMemoryRelayBus,
} from '@agentwire/relay/testing';
import { type SuiteReport, summarizeError } from '../run-suite.js';
import type { SubjectSuite } from '../subjects/subject-suites.js';
import type { ConformanceSuite } from '../suite.js';
import { agentAddressSuite } from '../suites/agent-connector/agent-address-suite.js';
import { agentConnectorSuite } from '../suites/agent-connector/agent-connector-suite.js';
import {
  agentwireAddresses,
  agentwireWebhookWire,
  noopUnderTest,
  webhookUnderTest,
} from '../suites/agent-connector/agentwire-connectors.js';
import { fileDropSuite } from '../suites/agent-connector/file-drop-suite.js';
import { fileDropUnderTest } from '../suites/agent-connector/file-drop-under-test.js';
import { tmuxAvailable, tmuxUnderTest } from '../suites/agent-connector/tmux-under-test.js';
import { webhookWireSuite } from '../suites/agent-connector/webhook-wire-suite.js';
import { agentwireBlobs } from '../suites/hearthnet/agentwire-blobs.js';
import { agentwireCatalogue } from '../suites/hearthnet/agentwire-capabilities.js';
import { agentwireCompat } from '../suites/hearthnet/agentwire-compat.js';
import { agentwireEventLog } from '../suites/hearthnet/agentwire-event-log.js';
import { agentwireManifests } from '../suites/hearthnet/agentwire-manifests.js';
import { startAgentwireNode } from '../suites/hearthnet/agentwire-node.js';
import { agentwirePubSub } from '../suites/hearthnet/agentwire-pubsub.js';
import { agentwireWire } from '../suites/hearthnet/agentwire-wire.js';
import { blobStoreSuite } from '../suites/hearthnet/blob-store.js';
import { blobTransferSuite } from '../suites/hearthnet/blob-transfer.js';
import { canonicalJsonSuite } from '../suites/hearthnet/canonical-json.js';
import { capabilitySchemaSuite } from '../suites/hearthnet/capability-schemas.js';
import { compatSuite } from '../suites/hearthnet/compat.js';
import { eventLogSuite } from '../suites/hearthnet/event-log.js';
import { eventStoreSuite } from '../suites/hearthnet/event-store.js';
import { hashingSuite } from '../suites/hearthnet/hashing.js';
import { manifestSuite } from '../suites/hearthnet/manifest-suite.js';
import { hearthnetNodeSuite } from '../suites/hearthnet/node-suite.js';
import { pubsubSuite } from '../suites/hearthnet/pubsub.js';
import { signatureSuite } from '../suites/hearthnet/signatures.js';
import { wireSuite } from '../suites/hearthnet/wire.js';
import {
  agentwireRelayCodec,
  agentwireRelayTokens,
  agentwireSessionKeys,
} from '../suites/relay/agentwire-relay.js';
import { relayCodecSuite } from '../suites/relay/relay-codec.js';
import { sessionKeySuite } from '../suites/relay/session-keys.js';
import { relayTokenSuite } from '../suites/relay/tokens.js';
import { agentwireRelayEdge } from '../suites/relay-edge/agentwire-edge.js';
import { edgeSuite } from '../suites/relay-edge/edge-suite.js';
import { enrollmentTokenStoreSuite } from '../suites/relay-edge/enrollment-token-store-suite.js';
import { nodeDeclaredLengthProbe } from '../suites/relay-edge/node-declared-length-probe.js';
import { policyStoreSuite } from '../suites/relay-edge/policy-store-suite.js';
import { provisionRegistrySuite } from '../suites/relay-edge/provision-registry-suite.js';
import { relayEdgeLiveSuite } from '../suites/relay-edge/relay-edge-live-suite.js';
import {
  type RelayPlatformCall,
  type RelayPlatformInterrupt,
  relayConnectorSuite,
} from '../suites/relay-live/relay-connector-suite.js';
import { inMemoryChatUnderTest } from '../suites/relay-platform/in-memory-chat-platform.js';
import { platformAdapterSuite } from '../suites/relay-platform/platform-adapter-suite.js';
import { capabilityVaultSuite } from '../suites/relay-runtime/capability-vault-suite.js';
import { gatewaySecretStoreSuite } from '../suites/relay-runtime/gateway-secret-store-suite.js';
import { inboundBufferSuite } from '../suites/relay-runtime/inbound-buffer-suite.js';
import { relayBusSuite } from '../suites/relay-runtime/relay-bus-suite.js';
import { filesystemSkillStoreUnderTest } from '../suites/skill-store/filesystem-store-under-test.js';
import { skillStoreSuite } from '../suites/skill-store/skill-store-suite.js';

/**
 * agentwire's HearthNet node on 127.0.0.1 (bus, pub-sub long poll, `GET /manifest`, gossip sync over
 * one in-memory log), checked by the black-box `hearthnet.node` suite with every capability declared.
 */
export const hearthnetNodeSubject: LiveSubject = {
  subject: 'agentwire HearthNet node, in-process',
  suiteNames: ['hearthnet.node'],
  start: async (): Promise<StartedSubject> => {
    const node = await startAgentwireNode();
    return {
      suites: [hearthnetNodeSuite(node.suiteOptions) as unknown as StartedSubject['suites'][number]],
      stop: () => node.close(),
    };
  },
};

const GATEWAY_ID = 'gw-conformance';
const TENANT = 'tenant-conformance';
const OTHER_GATEWAY_ID = 'gw-conformance-other';
const PLATFORM = 'discord';
/** The second platform the in-process connector serves, for `relay.live`'s chat routing. */
const SECOND_PLATFORM = 'telegram';

/**
 * A platform adapter that performs nothing and answers every op with a success that echoes the action,
 * so that the black-box suite checks the connector's protocol handling rather than a platform.
 */
/** Chats on which the echo platform misbehaves, for relay.live's `outbound.platform-*` cases. */
const FAULT_CHATS = {
  throwingChatId: 'agentwire-fault-throws',
  malformedChatId: 'agentwire-fault-malformed',
  hangingChatId: 'agentwire-fault-hangs',
} as const;

/** How long the in-process relay connector waits for its platform. */
const OUTBOUND_TIMEOUT_MS = 500;

/**
 * The echo platform's `send`: a message id made from the chat, except on the fault chats, where it
 * throws, answers a result without `success`, or never answers.
 */
const echoSend: NonNullable<PlatformAdapter['send']> = ({ chat_id }) => {
  if (chat_id === FAULT_CHATS.throwingChatId) throw new Error('the echo platform is down for this chat');
  // Deliberately not a send result: no `success`, and a number for `message_id`.
  if (chat_id === FAULT_CHATS.malformedChatId) return { message_id: 7 } as never;
  // Never settles, whatever the signal says: the server's own timeout must answer the gateway.
  if (chat_id === FAULT_CHATS.hangingChatId) return new Promise(() => undefined);
  return { success: true, message_id: `${chat_id}:sent` };
};

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
  send: echoSend,
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

/** How many outbound requests (and sessions interrupted) {@link recordingPlatforms} remembers. */
const RECORDED_REQUESTS = 2000;

/**
 * `adapters` with every op recorded under the call's `requestId` and every interrupt under its session
 * key, each with the platform that got it, as `relay.live`'s `operator.platformCalls` and
 * `operator.platformInterrupts` read them (the most recent {@link RECORDED_REQUESTS} of each).
 */
function recordingPlatforms(adapters: Readonly<Record<string, PlatformAdapter>>): {
  readonly adapters: Record<string, PlatformAdapter>;
  readonly calls: (requestId: string) => readonly RelayPlatformCall[];
  readonly interrupts: (sessionKey: string) => readonly RelayPlatformInterrupt[];
} {
  const calls = new Map<string, RelayPlatformCall[]>();
  const interrupts = new Map<string, RelayPlatformInterrupt[]>();
  const record = <T>(map: Map<string, T[]>, key: string, entry: T) => {
    const list = map.get(key) ?? [];
    if (list.length === 0) {
      map.set(key, list);
      if (map.size > RECORDED_REQUESTS) map.delete(map.keys().next().value as string);
    }
    list.push(entry);
  };
  const recording: Record<string, PlatformAdapter> = {};
  for (const [platform, adapter] of Object.entries(adapters)) {
    const wrapped: Record<string, unknown> = { ...adapter };
    for (const op of OUTBOUND_OPS) {
      const call = adapter[op] as ((action: object, context: { requestId: string }) => unknown) | undefined;
      if (call === undefined) continue;
      wrapped[op] = (action: object, context: { requestId: string }) => {
        record(calls, context.requestId, { op, platform, action: { ...action } });
        return call(action, context);
      };
    }
    wrapped['onInterrupt'] = (sessionKey: string, reason: string, context: { chatId?: string }) => {
      record(
        interrupts,
        sessionKey,
        context.chatId === undefined ? { platform } : { platform, chatId: context.chatId },
      );
      return adapter.onInterrupt?.(sessionKey, reason, context as never);
    };
    recording[platform] = wrapped as unknown as PlatformAdapter;
  }
  return {
    adapters: recording,
    calls: (requestId) => calls.get(requestId) ?? [],
    interrupts: (sessionKey) => interrupts.get(sessionKey) ?? [],
  };
}

/**
 * The relay connector agentwire ships, in-process on 127.0.0.1 (port 0): `createRelayServer` with an
 * echoing adapter on the same HTTP server as the edge side channels of `@agentwire/relay/edge`
 * (`/relay/enroll`, `/relay/provision`, `/relay/policy`, `/relay/media`), all on in-memory stores.
 * One buffered inbound event waits for the gateway. Runs `relay.live` (playing the gateway over
 * WebSocket) and `relay.edge-live` (the side channels, provision and enroll included).
 */
export const relayConnectorSubject: LiveSubject = {
  subject: 'agentwire relay connector, in-process',
  suiteNames: ['relay.live', 'relay.edge-live'],
  start: startRelayConnector,
};

async function startRelayConnector(): Promise<StartedSubject> {
  const secrets = new InMemoryGatewaySecretStore();
  const {
    secrets: [secret = ''],
  } = await secrets.create(GATEWAY_ID, TENANT);
  // A second gateway, of another tenant, which relay.live's revocation must spare.
  const {
    secrets: [otherSecret = ''],
  } = await secrets.create(OTHER_GATEWAY_ID, 'tenant-conformance-other');
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
  const platform = recordingPlatforms({
    [PLATFORM]: echoAdapter,
    [SECOND_PLATFORM]: {
      ...echoAdapter,
      descriptor: { ...echoAdapter.descriptor, platform: SECOND_PLATFORM, label: 'Telegram (echo)' },
    },
  });
  const stop = async () => {
    await relay?.close();
    http.closeAllConnections();
    if (http.listening) await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  try {
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    relay = await createRelayServer({
      server: http,
      authenticate,
      platforms: platform.adapters,
      // Pings every 500 ms, so that relay.live's idle case spans three of them.
      pingIntervalMs: PING_INTERVAL_MS,
      outboundTimeoutMs: OUTBOUND_TIMEOUT_MS,
      ...CONNECTION_BOUNDS,
    });
    for (let index = 1; index <= BUFFERED_EVENTS; index += 1) {
      await relay.deliverInbound(TENANT, sampleInbound(index));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const { port } = http.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const connector = relay as RelayServer;
  return {
    suites: [
      relayConnectorSuite({
        url: `ws://127.0.0.1:${port}/relay`,
        gatewayId: GATEWAY_ID,
        secret,
        platform: PLATFORM,
        // A bot id, so that outbound frames are routed by platform and bot id (§20.4).
        botId: 'agentwire-conformance-bot',
        secondPlatform: SECOND_PLATFORM,
        // The echo adapter succeeds at every op it advertises.
        opsSucceed: true,
        idleMs: 3 * PING_INTERVAL_MS + 100,
        bufferedMessageIds: Array.from({ length: BUFFERED_EVENTS }, (_, index) => `inbound-${index + 1}`),
        faults: { ...FAULT_CHATS, outboundTimeoutMs: OUTBOUND_TIMEOUT_MS },
        otherGateway: { gatewayId: OTHER_GATEWAY_ID, secret: otherSecret },
        limits: {
          // The server's fixed bound (gateway-connection.ts MAX_REFUSED_LINES).
          refusedLines: 100,
          identities: CONNECTION_BOUNDS.maxIdentities,
          runningCalls: CONNECTION_BOUNDS.maxRunningOutbound,
          backlogBytes: CONNECTION_BOUNDS.maxBufferedAmount,
          dropBacklogBytes: CONNECTION_BOUNDS.dropBufferedAmount,
          drainTimeoutMs: CONNECTION_BOUNDS.drainTimeoutMs,
          // The server's fixed bound (gateway-connection.ts MAX_UNANSWERED).
          unansweredFrames: 1000,
        },
        operator: {
          deliverInbound: (event) => connector.deliverInbound(TENANT, event as unknown as MessageEventWire),
          interruptInbound: (sessionKey, chatId) => connector.deliverInterrupt(TENANT, sessionKey, chatId),
          revokeConnections: async () => connector.revoke(GATEWAY_ID),
          platformCalls: platform.calls,
          platformInterrupts: platform.interrupts,
          bindFollowUp: (sessionKey, kind) =>
            connector.bindCapability({
              tenant: TENANT,
              session_key: sessionKey,
              kind,
              credential: `conformance-credential-${kind}`,
              ttl_ms: 60_000,
            }),
        },
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

/** The ping interval of the in-process relay connector. */
const PING_INTERVAL_MS = 500;

/**
 * The in-process relay connector's per-connection bounds, stated to relay.live as its `limits`: small,
 * so that the `limits.*` and `flow.*` cases pass them quickly (a 4 s drain timeout still spans the
 * flow case's pause of `idleMs`, three pings).
 */
const CONNECTION_BOUNDS = {
  maxBufferedAmount: 256 * 1024,
  dropBufferedAmount: 2 * 1024 * 1024,
  drainTimeoutMs: 4000,
  maxIdentities: 8,
  maxRunningOutbound: 16,
} as const;

/**
 * How many events wait in the buffer: more than one replay batch (100), with texts long enough that a
 * batch (about 1.2 MB) spans several WebSocket messages (64 Ki characters each) and could not go as one
 * under the gateway's 1 MiB message limit, so replay order and batching show.
 */
const BUFFERED_EVENTS = 250;

/** The `index`th group-chat message waiting in the buffer (`message_id` `inbound-<index>`). */
function sampleInbound(index: number) {
  return {
    // The first is longer than the 64 KiB a replayed message starts with: it must go out on its own.
    text: `hello ${index} from the in-process relay connector ${'.'.repeat(index === 1 ? 70_000 : 12_000)}`,
    message_type: 'text',
    message_id: `inbound-${index}`,
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

/** The `code` of an error, when it has a string one. */
function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A suite bound to one of the implementations agentwire ships, and that implementation's name. */
export type BundledSuite = SubjectSuite;

function agentwireSignatures(backend: Ed25519Backend): ConformanceSuite<unknown> {
  return signatureSuite({
    sign: (payload, seed) => signPayload(payload, seed, { backend }),
    verify: (payload, publicKey, options) => verifyPayload(payload, publicKey, { ...options, backend }),
    verifyWithNodeId: (payload, nodeId, options) => verifyPayload(payload, nodeId, { ...options, backend }),
    nodeId: nodeIdFromPublicKey,
    shortNodeId: (publicKey) => shortNodeId(publicKey),
    shortNodeIdFromNodeId: (nodeId) => shortNodeId(nodeId),
    parseNodeId: (nodeId, { lenient }) => parseNodeId(nodeId, { lenient }),
    lenientEncoding: true,
    errorCode,
    errorReason: (error) => {
      const reason = (error as { details?: { reason?: unknown } } | null)?.details?.reason;
      return typeof reason === 'string' ? reason : undefined;
    },
  });
}

/** The in-memory capability vault on a clock the expiry cases move, so that they need not wait. */
function fakeClockEnrollmentTokens() {
  let now = Date.now();
  return {
    create: () => new InMemoryEnrollmentTokenStore({ now: () => now }),
    elapse: (ms: number) => {
      now += ms;
    },
  };
}

function fakeClockVault() {
  let now = Date.now();
  return {
    create: () => new InMemoryCapabilityVault({ now: () => now }),
    elapse: (ms: number) => {
      now += ms;
    },
  };
}

/**
 * Every suite against every implementation agentwire ships: the signature suite once per Ed25519
 * backend available in this runtime (node:crypto in Node, and noble everywhere), the HearthNet suites
 * (the pub-sub topics and blob transfer among them) against `@agentwire/hearthnet`, the relay suites
 * against `@agentwire/relay` — its in-memory bus, inbound buffer and capability vault, and its
 * connector started in-process (a {@link LiveSubject}) for the black-box `relay.live` and
 * `relay.edge-live` suites — and the agent-connector suite against the no-op, file-drop and webhook
 * connectors (the webhook one against a fake receiver, with and without a `wake_url`), and the tmux
 * connector against a private tmux server where a `tmux` binary runs (left out elsewhere).
 *
 * An implementation that must run while its suites run (a server) is one {@link LiveSubject} entry:
 * its `start` resolves with the suites and a `stop`, which the CLI calls after the last suite.
 */
export function bundledSuites(): (BundledSuite | LiveSubject)[] {
  const backends = [nodeCryptoBackend(), nobleBackend].filter((b): b is Ed25519Backend => b !== undefined);
  return [
    { suite: canonicalJsonSuite({ canonicalize: canonicalJson, errorCode }), subject: 'agentwire' },
    ...backends.map((backend) => ({
      suite: agentwireSignatures(backend),
      subject: `agentwire, ${backend.name} backend`,
    })),
    {
      subject: 'agentwire',
      suite: hashingSuite({
        blake3Hex,
        contentId: (bytes) => contentId(bytes),
        blobCid: (chunkCids) => blobCid(chunkCids),
        chunkBlob: (bytes, chunkSizeBytes) => chunkBlob(bytes, { chunkSizeBytes }),
        parseContentId: (cid) => parseContentId(cid),
      }),
    },
    { suite: capabilitySchemaSuite(agentwireCatalogue()), subject: 'agentwire hearthnet' },
    { suite: wireSuite(agentwireWire), subject: 'agentwire hearthnet' },
    { suite: eventLogSuite(agentwireEventLog), subject: 'agentwire hearthnet' },
    { suite: manifestSuite(agentwireManifests), subject: 'agentwire hearthnet' },
    { suite: compatSuite(agentwireCompat), subject: 'agentwire hearthnet' },
    { suite: pubsubSuite(agentwirePubSub), subject: 'agentwire hearthnet' },
    { suite: blobTransferSuite(agentwireBlobs), subject: 'agentwire hearthnet' },
    {
      suite: blobStoreSuite({
        create: (options) => new InMemoryBlobStore(options),
        wireError: asHearthNetError,
      }),
      subject: 'agentwire InMemoryBlobStore',
    },
    hearthnetNodeSubject,
    {
      suite: eventStoreSuite({ create: () => new InMemoryEventStore() }),
      subject: 'agentwire InMemoryEventStore',
    },
    { suite: sessionKeySuite(agentwireSessionKeys), subject: 'agentwire relay' },
    { suite: relayCodecSuite(agentwireRelayCodec), subject: 'agentwire relay' },
    { suite: relayTokenSuite(agentwireRelayTokens), subject: 'agentwire relay' },
    { suite: edgeSuite(agentwireRelayEdge), subject: 'agentwire relay' },
    {
      // Listener errors are part of the cases (a listener throws on purpose): keep them quiet.
      suite: relayBusSuite({ create: () => new InMemoryRelayBus({ onListenerError: () => undefined }) }),
      subject: 'agentwire InMemoryRelayBus',
    },
    {
      suite: inboundBufferSuite({ create: () => new InMemoryInboundBuffer() }),
      subject: 'agentwire InMemoryInboundBuffer',
    },
    { suite: capabilityVaultSuite(fakeClockVault()), subject: 'agentwire InMemoryCapabilityVault' },
    {
      suite: gatewaySecretStoreSuite({ create: (now) => new InMemoryGatewaySecretStore({ now }) }),
      subject: 'agentwire InMemoryGatewaySecretStore',
    },
    {
      suite: enrollmentTokenStoreSuite(fakeClockEnrollmentTokens()),
      subject: 'agentwire InMemoryEnrollmentTokenStore',
    },
    {
      suite: provisionRegistrySuite({ create: () => new InMemoryProvisionRegistry() }),
      subject: 'agentwire InMemoryProvisionRegistry',
    },
    {
      suite: policyStoreSuite({ create: () => new InMemoryPolicyStore() }),
      subject: 'agentwire InMemoryPolicyStore',
    },
    relayConnectorSubject,
    {
      suite: platformAdapterSuite({ create: inMemoryChatUnderTest }) as ConformanceSuite<unknown>,
      subject: 'agentwire relay server, in-memory chat platform adapter',
    },
    { suite: agentAddressSuite(agentwireAddresses), subject: 'agentwire agent-connector' },
    { suite: webhookWireSuite(agentwireWebhookWire), subject: 'agentwire HttpWebhookAgentConnector' },
    { suite: agentConnectorSuite({ create: noopUnderTest }), subject: 'agentwire NoOpAgentConnector' },
    {
      suite: agentConnectorSuite({ create: fileDropUnderTest }),
      subject: 'agentwire FileDropAgentConnector',
    },
    {
      suite: fileDropSuite({
        create: (dir, agentId) => new FileDropAgentConnector({ dir, agents: [agentId] }),
        createWithoutAgents: (dir) => new FileDropAgentConnector({ dir }),
      }),
      subject: 'agentwire FileDropAgentConnector',
    },
    {
      suite: agentConnectorSuite({ create: () => webhookUnderTest({ wakeUrl: true }) }),
      subject: 'agentwire HttpWebhookAgentConnector, wake_url',
    },
    {
      suite: agentConnectorSuite({ create: () => webhookUnderTest({ wakeUrl: false }) }),
      subject: 'agentwire HttpWebhookAgentConnector, no wake_url',
    },
    {
      suite: skillStoreSuite({ create: filesystemSkillStoreUnderTest, conventions: storageConventions }),
      subject: 'agentwire FilesystemSkillStore',
    },
    // The tmux connector drives a real tmux server; machines without the binary cannot check it.
    ...(tmuxAvailable()
      ? [{ suite: agentConnectorSuite({ create: tmuxUnderTest }), subject: 'agentwire TmuxAgentConnector' }]
      : []),
  ];
}

/**
 * An implementation the CLI runs in-process for its suites (a server on 127.0.0.1, port 0): started
 * before the first suite of the run, stopped after the last one — also when a suite fails or the run
 * is refused.
 *
 * @example
 * ```ts
 * const nodeSubject: LiveSubject = {
 *   subject: 'agentwire HearthNet node, in-process',
 *   start: async () => {
 *     const node = await startNode();
 *     return { suites: [hearthnetNodeSuite({ baseUrl: node.url, … })], stop: () => node.close() };
 *   },
 * };
 * ```
 */
export interface LiveSubject {
  /** Names the implementation in the report. */
  readonly subject: string;
  /**
   * The names of the suites `start` resolves with, when known before it runs: `--only` then starts the
   * subject only when it selects one of them. Without it, the subject is started and its rows filtered.
   */
  readonly suiteNames?: readonly string[];
  /** Starts it; resolves with the suites to run against it and how to stop it. */
  start(): Promise<StartedSubject>;
}

/** A started {@link LiveSubject}: its suites, and how to stop it. */
export interface StartedSubject {
  readonly suites: readonly ConformanceSuite<unknown>[];
  /** Releases everything `start` opened (servers, sockets, folders). */
  stop(): Promise<void>;
}

/** What the CLI runs: a bare suite, a suite bound to its subject, or a live subject. */
export type RunEntry = ConformanceSuite<unknown> | BundledSuite | LiveSubject;

/** One row of a run: a suite (bound to its subject when it has one), or a live subject that did not start. */
export type RunRow =
  | { readonly suite: ConformanceSuite<unknown>; readonly subject?: string }
  | { readonly subject: string; readonly startError: unknown };

/** The rows of a run, with the live subjects started for it. */
export interface StartedRun {
  readonly rows: readonly RunRow[];
  /** Stops every started live subject, last started first; resolves with a line per stop that failed. */
  stop(): Promise<string[]>;
}

/**
 * Starts the live subjects among `entries`, one after another, and lists the rows to run in entry
 * order. A subject whose `start` rejects becomes one row holding the error; the others still run.
 */
export async function startRun(entries: readonly RunEntry[]): Promise<StartedRun> {
  const rows: RunRow[] = [];
  const running: { readonly subject: string; readonly stop: () => Promise<void> }[] = [];
  for (const entry of entries) {
    if ('start' in entry) {
      try {
        const started = await entry.start();
        running.push({ subject: entry.subject, stop: () => started.stop() });
        for (const suite of started.suites) rows.push({ suite, subject: entry.subject });
      } catch (error) {
        rows.push({ subject: entry.subject, startError: error });
      }
    } else {
      rows.push('suite' in entry ? entry : { suite: entry });
    }
  }
  return {
    rows,
    stop: async () => {
      const problems: string[] = [];
      for (const { subject, stop } of running.reverse()) {
        try {
          await stop();
        } catch (error) {
          const { name, message } = summarizeError(error);
          problems.push(`stopping ${subject} failed: ${name}: ${message}`);
        }
      }
      return problems;
    },
  };
}

/** The report row of a live subject that did not start: no case ran, and the run fails. */
export function startFailureReport(subject: string, error: unknown): SuiteReport {
  return {
    suite: 'live-subject.start',
    version: '-',
    subject,
    startedAt: new Date().toISOString(),
    durationMs: 0,
    counts: { passed: 0, failed: 0, skipped: 0, unobserved: 0, expectedFailures: 0, stale: 0 },
    ok: false,
    results: [],
    errors: [summarizeError(error, `${subject} did not start: `)],
  };
}
