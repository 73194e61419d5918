import { blake3Hex, blobCid, chunkBlob, contentId } from '@agentwire/hearthnet';
import { canonicalJson } from '@agentwire/hearthnet/canonical-json';
import {
  type Ed25519Backend,
  nobleBackend,
  nodeCryptoBackend,
  nodeIdFromPublicKey,
  parseNodeId,
  shortNodeId,
  signPayload,
  verifyPayload,
} from '@agentwire/hearthnet/crypto';
import { InMemoryEventStore } from '@agentwire/hearthnet/events';
import { InMemoryCapabilityVault, InMemoryInboundBuffer, InMemoryRelayBus } from '@agentwire/relay';
import {
  InMemoryEnrollmentTokenStore,
  InMemoryPolicyStore,
  InMemoryProvisionRegistry,
} from '@agentwire/relay/edge';
import type { SubjectSuite } from '../subjects/subject-suites.js';
import type { ConformanceSuite } from '../suite.js';
import { agentConnectorSuite } from '../suites/agent-connector/agent-connector-suite.js';
import { noopUnderTest, webhookUnderTest } from '../suites/agent-connector/agentwire-connectors.js';
import { fileDropUnderTest } from '../suites/agent-connector/file-drop-under-test.js';
import { tmuxAvailable, tmuxUnderTest } from '../suites/agent-connector/tmux-under-test.js';
import { agentwireBlobs } from '../suites/hearthnet/agentwire-blobs.js';
import { agentwireCatalogue } from '../suites/hearthnet/agentwire-capabilities.js';
import { agentwireEventLog } from '../suites/hearthnet/agentwire-event-log.js';
import { agentwireManifests } from '../suites/hearthnet/agentwire-manifests.js';
import { agentwirePubSub } from '../suites/hearthnet/agentwire-pubsub.js';
import { agentwireWire } from '../suites/hearthnet/agentwire-wire.js';
import { blobTransferSuite } from '../suites/hearthnet/blob-transfer.js';
import { canonicalJsonSuite } from '../suites/hearthnet/canonical-json.js';
import { capabilitySchemaSuite } from '../suites/hearthnet/capability-schemas.js';
import { eventLogSuite } from '../suites/hearthnet/event-log.js';
import { eventStoreSuite } from '../suites/hearthnet/event-store.js';
import { hashingSuite } from '../suites/hearthnet/hashing.js';
import { manifestSuite } from '../suites/hearthnet/manifest-suite.js';
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
import { policyStoreSuite } from '../suites/relay-edge/policy-store-suite.js';
import { provisionRegistrySuite } from '../suites/relay-edge/provision-registry-suite.js';
import { capabilityVaultSuite } from '../suites/relay-runtime/capability-vault-suite.js';
import { inboundBufferSuite } from '../suites/relay-runtime/inbound-buffer-suite.js';
import { relayBusSuite } from '../suites/relay-runtime/relay-bus-suite.js';
import { filesystemSkillStoreUnderTest } from '../suites/skill-store/filesystem-store-under-test.js';
import { skillStoreSuite } from '../suites/skill-store/skill-store-suite.js';
import { hearthnetNodeSubject } from './hearthnet-node-subject.js';
import type { LiveSubject } from './live-subject.js';
import { relayConnectorSubject } from './relay-connector-subject.js';

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
    parseNodeId: (nodeId, { lenient }) => parseNodeId(nodeId, { lenient }),
    lenientEncoding: true,
    errorCode,
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
      }),
    },
    { suite: capabilitySchemaSuite(agentwireCatalogue()), subject: 'agentwire hearthnet' },
    { suite: wireSuite(agentwireWire), subject: 'agentwire hearthnet' },
    { suite: eventLogSuite(agentwireEventLog), subject: 'agentwire hearthnet' },
    { suite: manifestSuite(agentwireManifests), subject: 'agentwire hearthnet' },
    { suite: pubsubSuite(agentwirePubSub), subject: 'agentwire hearthnet' },
    { suite: blobTransferSuite(agentwireBlobs), subject: 'agentwire hearthnet' },
    hearthnetNodeSubject,
    {
      suite: eventStoreSuite({ factory: () => new InMemoryEventStore() }),
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
    { suite: agentConnectorSuite({ factory: noopUnderTest }), subject: 'agentwire NoOpAgentConnector' },
    {
      suite: agentConnectorSuite({ factory: fileDropUnderTest }),
      subject: 'agentwire FileDropAgentConnector',
    },
    {
      suite: agentConnectorSuite({ factory: () => webhookUnderTest({ wakeUrl: true }) }),
      subject: 'agentwire HttpWebhookAgentConnector, wake_url',
    },
    {
      suite: agentConnectorSuite({ factory: () => webhookUnderTest({ wakeUrl: false }) }),
      subject: 'agentwire HttpWebhookAgentConnector, no wake_url',
    },
    {
      suite: skillStoreSuite({ factory: filesystemSkillStoreUnderTest }),
      subject: 'agentwire FilesystemSkillStore',
    },
    // The tmux connector drives a real tmux server; machines without the binary cannot check it.
    ...(tmuxAvailable()
      ? [{ suite: agentConnectorSuite({ factory: tmuxUnderTest }), subject: 'agentwire TmuxAgentConnector' }]
      : []),
  ];
}
