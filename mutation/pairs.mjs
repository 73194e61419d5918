// The pairs `pnpm mutation` measures: one conformance suite and the bundled implementation it checks,
// named as the row of `agentwire-conformance` (suite + subject) that runs them, and the source files of
// that implementation which Stryker mutates. Only the suite runs against each mutant: a mutant that
// survives is a mistake an implementer could make that the suite does not catch.
//
// `mutate` lists the implementation's own code (test files and barrels excluded by the runner), not the
// shared helpers every package uses, so that a score speaks about one suite.

/**
 * @typedef {object} MutationPair
 * @property {string} id short name, used on the command line and for the report files
 * @property {string} suite the suite's name
 * @property {string} subject the subject the bundled run (or `conformance.subjects.mjs`) names it under
 * @property {(string | MutateSpan)[]} mutate globs of the implementation's source files, from the
 *   repository root, or spans of one file where it also holds code the pair does not measure
 * @property {{ suite: string, subject: string }[]} [also] further rows that run against each mutant, for
 *   an implementation whose contract is split over several suites (a connector and its substrate's wire)
 * @property {string[]} [skips] the cases the bundled run skips or leaves unobserved (what the implementation
 *   does not declare or cannot show); under a mutant any other skipped case fails, as a mutant that
 *   declares less turns cases into SKIP lines the original's report does not have
 * @property {'all'} [coverage] `'all'` runs every case against each mutant, active before the modules
 *   load, for an implementation that caches what it computes: per-test coverage credits the cached work
 *   to the first case that did it, and a mutant there would run against that case alone, on a cache the
 *   original code may have filled (pair.mutation.test.ts does this; Stryker's own `coverageAnalysis`
 *   option does not change how its vitest runner records coverage)
 */

/**
 * @typedef {object} MutateSpan
 * @property {string} file the file, from the repository root
 * @property {string} from text of the span's first line (its first line that contains it)
 * @property {string} [until] text of the first line after the span (the file's end when absent)
 */

/** The relay.codec cases the bundled run skips (each part of the codec runs the same suite). */
const CODEC_SKIPS = [
  'relay.codec.descriptors.mml-exponent-kept.to-json',
  'relay.codec.session-source-from-dict.chat-id-float-integral',
  'relay.codec.session-source-from-dict.chat-id-float-beyond-safe',
  'relay.codec.session-source-from-dict.chat-id-negative-zero-float',
];

/** @type {MutationPair[]} */
export const PAIRS = [
  // HearthNet
  {
    id: 'canonical-json',
    suite: 'hearthnet.canonical-json',
    subject: 'agentwire',
    mutate: ['packages/hearthnet/src/canonical-json/canonical-json.ts'],
  },
  {
    id: 'signatures',
    suite: 'hearthnet.signatures',
    subject: 'agentwire, node:crypto backend',
    // The key pair helpers (keyPairFromSeed, generateKeyPair and their redacted views) are the SDK's own
    // conveniences, which no contract fixes: the node-id functions after them are measured.
    mutate: [
      'packages/hearthnet/src/crypto/{ed25519,payload-signature}.ts',
      {
        file: 'packages/hearthnet/src/crypto/key-pair.ts',
        from: "export const ED25519_PREFIX = 'ed25519:';",
      },
    ],
    // The pure-JavaScript backend is the browser's and a fallback: the same suite runs on it.
    also: [{ suite: 'hearthnet.signatures', subject: 'agentwire, @noble/ed25519 backend' }],
    // The node:crypto backend turns each key into a KeyObject once and caches it.
    coverage: 'all',
  },
  {
    id: 'hashing',
    suite: 'hearthnet.hashing',
    subject: 'agentwire',
    mutate: ['packages/hearthnet/src/hashing.ts'],
  },
  {
    id: 'capability-schemas',
    suite: 'hearthnet.capability-schemas',
    subject: 'agentwire hearthnet',
    mutate: ['packages/hearthnet/src/capabilities/{json-schema,validators,capability-name}.ts'],
    // validatorsFor compiles a capability's schemas once and caches them.
    coverage: 'all',
  },
  {
    id: 'wire',
    suite: 'hearthnet.wire',
    subject: 'agentwire hearthnet',
    // The envelope and SSE codecs; not the HTTP plumbing of a call (paths, headers, media types, request
    // ids, which responses must be signed), the request verifier (clock skew, replayed request ids) or
    // the stream helpers after the frame reader (the async reader, frame validation, the ack window),
    // which a node runs: the node pair measures them.
    mutate: [
      {
        file: 'packages/hearthnet/src/wire/envelope.ts',
        from: 'export interface RequestEnvelopeFields {',
        until: '/** The path every capability call is POSTed to',
      },
      {
        file: 'packages/hearthnet/src/wire/envelope.ts',
        from: '/** RFC 3339 UTC with `Z`, whole seconds or milliseconds',
        until: '/** Capability name endings whose responses must be verified',
      },
      {
        file: 'packages/hearthnet/src/wire/sse.ts',
        from: 'import { type CapabilityDescriptor, validatorsFor }',
        until: 'export async function* readSseFrames(',
      },
    ],
  },
  {
    id: 'event-log',
    suite: 'hearthnet.event-log',
    subject: 'agentwire hearthnet',
    mutate: [
      'packages/hearthnet/src/events/{event,ulid}.ts',
      'packages/hearthnet/src/sync/sync-protocol.ts',
      // The field schemas events share with manifests; the event rules are what reach the signature and
      // content id patterns.
      {
        file: 'packages/hearthnet/src/manifests/node-manifest.ts',
        from: '/** A signature as the contract writes it',
        until: '/** One way to reach a node',
      },
    ],
  },
  {
    id: 'manifests',
    suite: 'hearthnet.manifests',
    subject: 'agentwire hearthnet',
    mutate: ['packages/hearthnet/src/manifests/node-manifest.ts'],
  },
  {
    id: 'compat',
    suite: 'hearthnet.compat',
    subject: 'agentwire hearthnet',
    mutate: ['packages/hearthnet/src/compat/reference-{event,json,snapshot}.ts'],
  },
  {
    id: 'pubsub',
    suite: 'hearthnet.pubsub',
    subject: 'agentwire hearthnet',
    // The topic and payload rules; the hub and the subscribe protocol run in a node (hearthnet-node).
    mutate: ['packages/hearthnet/src/pubsub/topics.ts'],
  },
  {
    id: 'blob-transfer',
    suite: 'hearthnet.blob-transfer',
    subject: 'agentwire hearthnet',
    // What the suite drives: manifests, the client's verified file.read, and the node's file.put and
    // file.read handlers. Not the client's upload (putBlob) or the event recorder beside readBlob, SDK
    // conveniences the blob tests check.
    // Not file.list and file.advertise with the directory behind them (contract §4.8, §4.9): no suite
    // drives them yet, an open gap rather than something this pair could claim.
    mutate: [
      'packages/hearthnet/src/blobs/blob-manifest.ts',
      {
        file: 'packages/hearthnet/src/blobs/file-capabilities.ts',
        from: '/** Options of {@link fileCapabilityHandlers}',
        until: '  const list: CapabilityHandler = async',
      },
      {
        file: 'packages/hearthnet/src/blobs/file-capabilities.ts',
        from: '  const put: CapabilityHandler = async',
        until: '/** A {@link BlobDirectory} in memory (one process). */',
      },
      {
        file: 'packages/hearthnet/src/blobs/file-capabilities.ts',
        from: ' * A blob manifest as it travels (the `file.put` initial frame',
      },
      {
        file: 'packages/hearthnet/src/blobs/blob-transfer.ts',
        from: 'export interface ReadBlobOptions {',
        until: 'export interface BlobEventRecorderOptions {',
      },
    ],
  },
  {
    id: 'blob-store',
    suite: 'hearthnet.blob-store',
    subject: 'agentwire InMemoryBlobStore',
    mutate: ['packages/hearthnet/src/blobs/{blob-store,backed-blob-store}.ts'],
  },
  {
    id: 'event-store',
    suite: 'hearthnet.event-store',
    subject: 'agentwire InMemoryEventStore',
    skips: ['hearthnet.event-store.persistence'],
    // The store and what it runs; not the Lamport clock and replay helpers the file also exports.
    mutate: [
      {
        file: 'packages/hearthnet/src/events/event-store.ts',
        from: 'export class InMemoryEventStore',
        until: ' * The events in replay order',
      },
    ],
  },
  {
    id: 'sqlite-event-store',
    suite: 'hearthnet.event-store',
    subject: 'SqliteEventStore, on a temporary file',
    mutate: ['packages/sqlite/src/hearthnet/sqlite-event-store.ts'],
  },
  {
    id: 'hearthnet-node',
    suite: 'hearthnet.node',
    subject: 'agentwire HearthNet node, in-process',
    mutate: [
      'packages/hearthnet/src/wire/{bus-handler,request-verifier}.ts',
      {
        file: 'packages/hearthnet/src/wire/envelope.ts',
        from: '/** The path every capability call is POSTed to',
        until: '/** RFC 3339 UTC with `Z`, whole seconds or milliseconds',
      },
      {
        file: 'packages/hearthnet/src/wire/envelope.ts',
        from: '/** Capability name endings whose responses must be verified',
      },
      { file: 'packages/hearthnet/src/wire/sse.ts', from: 'export async function* readSseFrames(' },
      'packages/hearthnet/src/sync/sync-handler.ts',
      'packages/hearthnet/src/pubsub/{topic-hub,subscribe-protocol}.ts',
    ],
  },
  // Relay
  {
    id: 'session-keys',
    suite: 'relay.session-keys',
    subject: 'agentwire relay',
    // The key; the SessionSource it reads is the relay codec's (relay-codec-streams).
    mutate: ['packages/relay/src/session-key.ts'],
  },
  // The codec is the largest implementation (about 2 200 mutants, some four hours on two cores): its
  // three pairs run the same suite over one part each, so that each fits one sitting.
  // The frame codec: the frames' schemas, the hand-written decoders, the writers' key order. Not the
  // op results (their schemas, decodeOpResult, readChatInfo, the egress-declined helpers), which a
  // connector's server and the gateway client read and no codec case can reach, nor the test lines.
  {
    id: 'relay-codec-frames',
    suite: 'relay.codec',
    subject: 'agentwire relay',
    skips: CODEC_SKIPS,
    mutate: [
      {
        file: 'packages/relay/src/frames/actions.ts',
        from: 'import',
        until: 'The result `code` of a definite egress',
      },
      {
        file: 'packages/relay/src/frames/decode.ts',
        from: 'import',
        until: 'Checks the `result` of an `outbound_result`',
      },
      { file: 'packages/relay/src/frames/decode.ts', from: 'function decodeWith' },
      {
        file: 'packages/relay/src/frames/frames.ts',
        from: 'The `result` object of any',
        until: 'What the gateway makes of a `get_chat_info`',
      },
      { file: 'packages/relay/src/frames/frames.ts', from: "Why Python's `str()` of a non-string" },
    ],
  },
  {
    id: 'relay-codec-events',
    suite: 'relay.codec',
    subject: 'agentwire relay',
    skips: CODEC_SKIPS,
    // Not the SDK's builders beyond the contract, which no suite has a member for and the package's
    // unit tests check: createDescriptor and the name rule only it reads, descriptorToWire (the server's
    // writer of its descriptor object), createMessageEvent and the schemas only it reads.
    mutate: [
      { file: 'packages/relay/src/descriptor.ts', from: 'import', until: 'const PLATFORM_NAME = ' },
      {
        file: 'packages/relay/src/descriptor.ts',
        from: 'const KNOWN_FIELDS',
        until: 'export function createDescriptor(',
      },
      {
        file: 'packages/relay/src/descriptor.ts',
        from: 'export const DESCRIPTOR_ERROR_CODES',
        until: 'export function descriptorToWire(',
      },
      { file: 'packages/relay/src/message-event.ts', from: 'import', until: 'const LONE_SURROGATE = ' },
      {
        file: 'packages/relay/src/message-event.ts',
        from: 'export const CHAT_TYPES',
        until: 'const sessionSourceInitSchema = ',
      },
      {
        file: 'packages/relay/src/message-event.ts',
        from: 'export type MessageEventInit',
        until: 'export function createMessageEvent(',
      },
      { file: 'packages/relay/src/message-event.ts', from: 'const SLACK_GATEWAY_COMMANDS' },
    ],
  },
  {
    id: 'relay-codec-streams',
    suite: 'relay.codec',
    subject: 'agentwire relay',
    skips: CODEC_SKIPS,
    mutate: ['packages/relay/src/{ndjson,session-source}.ts'],
  },
  {
    id: 'relay-tokens',
    suite: 'relay.tokens',
    subject: 'agentwire relay',
    // The token: its making, signing, reading and verifying; not the Authorization and upgrade header
    // helpers or the 4401 close (relayAuthClose), which the live relay suite reaches (relay-connector):
    // the tokens suite reads a verdict's close fields only when an implementation reports them.
    mutate: [
      { file: 'packages/relay/src/auth.ts', from: 'export function assertString', until: 'const BEARER' },
    ],
  },
  // The edge in two parts, as the codec: the signature verifiers, and what passes a platform's own
  // traffic through (the side channels and the sanitisers).
  {
    id: 'relay-edge-verifiers',
    suite: 'relay.edge',
    subject: 'agentwire relay',
    mutate: ['packages/relay/src/edge/{verifiers,verifiers-wecom}.ts'],
  },
  {
    id: 'relay-edge-passthrough',
    suite: 'relay.edge',
    subject: 'agentwire relay',
    mutate: ['packages/relay/src/edge/{sanitisers,passthrough}.ts'],
  },
  {
    id: 'relay-bus',
    suite: 'relay-runtime.bus',
    subject: 'agentwire InMemoryRelayBus',
    skips: [
      'relay-runtime.bus.shared.delivery-across-instances',
      'relay-runtime.bus.shared.counts-across-instances',
      'relay-runtime.bus.shared.closed-instance-not-counted',
    ],
    mutate: ['packages/relay/src/bus.ts'],
  },
  {
    id: 'inbound-buffer',
    suite: 'relay-runtime.buffer',
    subject: 'agentwire InMemoryInboundBuffer',
    skips: ['relay-runtime.buffer.shared.survives-into-another-instance'],
    // The in-memory buffer and the checks it runs; not the decoding of stored text, which only a
    // shared store (Redis) uses.
    mutate: [
      {
        file: 'packages/relay/src/buffer.ts',
        from: 'const LONE_SURROGATE',
        until: ' * Reads back a frame written by',
      },
      {
        file: 'packages/relay/src/buffer.ts',
        from: ' * One `JSON.stringify` of a fresh',
      },
    ],
  },
  {
    id: 'capability-vault',
    suite: 'relay-runtime.vault',
    subject: 'agentwire InMemoryCapabilityVault',
    skips: ['relay-runtime.vault.shared.visible-across-instances'],
    mutate: ['packages/relay/src/vault.ts'],
  },
  {
    id: 'gateway-secrets',
    suite: 'relay-runtime.secrets',
    subject: 'agentwire InMemoryGatewaySecretStore',
    skips: [
      'relay-runtime.secrets.shared.seen-by-another-instance',
      'relay-runtime.secrets.shared.one-racer-wins',
    ],
    mutate: ['packages/relay/src/secrets.ts'],
  },
  {
    id: 'enrollment-stores',
    suite: 'relay-edge.enrollment-tokens',
    subject: 'agentwire InMemoryEnrollmentTokenStore',
    skips: [
      'relay-edge.enrollment-tokens.shared.redeem-across-instances',
      'relay-edge.enrollment-tokens.shared.concurrent-once-across-instances',
    ],
    // The file holds the three in-memory edge stores; each pair mutates its own class.
    mutate: [
      {
        file: 'packages/relay/src/edge/enrollment-stores.ts',
        from: 'export class InMemoryEnrollmentTokenStore',
        until: " * A gateway's relevance policy for one fronted platform",
      },
    ],
  },
  {
    id: 'provision-registry',
    suite: 'relay-edge.provision-registry',
    subject: 'agentwire InMemoryProvisionRegistry',
    skips: [
      'relay-edge.provision-registry.shared.visible-across-instances',
      'relay-edge.provision-registry.shared.racing-claims-across-instances',
    ],
    mutate: [
      {
        file: 'packages/relay/src/edge/enrollment-stores.ts',
        from: 'export class InMemoryProvisionRegistry',
      },
    ],
  },
  {
    id: 'policy-store',
    suite: 'relay-edge.policies',
    subject: 'agentwire InMemoryPolicyStore',
    skips: ['relay-edge.policies.shared.visible-across-instances'],
    mutate: [
      {
        file: 'packages/relay/src/edge/enrollment-stores.ts',
        from: 'export class InMemoryPolicyStore',
        until: '/** One fronted platform of a gateway',
      },
    ],
  },
  {
    id: 'relay-connector',
    suite: 'relay.live',
    subject: 'agentwire relay connector, in-process',
    // Not the SDK's own options beyond the contract, which its unit tests check (chat-routing.test.ts):
    // the `routeChat` rule a connector may configure, and `server.disconnect`, an operator call.
    mutate: [
      'packages/relay/src/server/{outbound,recent-chats}.ts',
      {
        file: 'packages/relay/src/server/gateway-connection.ts',
        from: 'import',
        until: "/** The connector's `routeChat` rule",
      },
      {
        file: 'packages/relay/src/server/gateway-connection.ts',
        from: '   * Tracks work a frame started that writes nothing back',
      },
      {
        file: 'packages/relay/src/server/relay-server.ts',
        from: 'import',
        until: "   * Closes this instance's sockets of `gatewayId` with 1000",
      },
      {
        file: 'packages/relay/src/server/relay-server.ts',
        from: "/** Closes this instance's sockets of `gatewayId` with `code`",
      },
      { file: 'packages/relay/src/auth.ts', from: 'export function relayAuthClose' },
    ],
  },
  // AgentConnector
  {
    id: 'agent-address',
    suite: 'agent-connector.addresses',
    subject: 'agentwire agent-connector',
    mutate: ['packages/agent-connector/src/address.ts'],
  },
  {
    id: 'noop-connector',
    suite: 'agent-connector.contract',
    subject: 'agentwire NoOpAgentConnector',
    skips: [
      'agent-connector.contract.list-agents.includes-agent',
      'agent-connector.contract.health-check.false-when-down',
      'agent-connector.contract.health-check.false-when-stalled',
      'agent-connector.contract.deliver.meta-passthrough',
      'agent-connector.contract.deliver.template-passthrough',
      'agent-connector.contract.deliver.session-echo-address',
      'agent-connector.contract.deliver.exactly-once',
      'agent-connector.contract.deliver.unknown-agent',
      'agent-connector.contract.deliver.substrate-down',
      'agent-connector.contract.deliver.substrate-stalled',
      'agent-connector.contract.deliver.unknown-agent.caller-fault',
      'agent-connector.contract.wake.session-echo-address',
      'agent-connector.contract.wake.session-echo-opts',
      'agent-connector.contract.wake.observed',
      'agent-connector.contract.wake.degraded-delivers',
      'agent-connector.contract.wake.observed-session',
      'agent-connector.contract.wake.unknown-agent',
      'agent-connector.contract.wake.substrate-down',
      'agent-connector.contract.wake.unknown-agent.caller-fault',
    ],
    mutate: ['packages/agent-connector/src/noop.ts'],
  },
  {
    id: 'file-drop-connector',
    suite: 'agent-connector.contract',
    subject: 'agentwire FileDropAgentConnector',
    skips: [
      'agent-connector.contract.health-check.false-when-stalled',
      'agent-connector.contract.agent-status.valid',
      'agent-connector.contract.deliver.substrate-stalled',
    ],
    // The folder layout (file names and documents, names refused, the folder not made again) is the
    // file-drop substrate's own contract, checked by its own suite.
    also: [{ suite: 'agent-connector.file-drop', subject: 'agentwire FileDropAgentConnector' }],
    mutate: ['packages/agent-connector/src/file-drop/file-drop-agent-connector.ts'],
  },
  {
    id: 'webhook-connector',
    suite: 'agent-connector.contract',
    subject: 'agentwire HttpWebhookAgentConnector, wake_url',
    skips: [
      'agent-connector.contract.agent-status.valid',
      'agent-connector.contract.deliver.session-echo-address',
    ],
    // The connector's HTTP details (body, headers, signature, retries, redirects, receipts) are the
    // webhook wire's contract, checked by its own suite.
    also: [
      { suite: 'agent-connector.webhook-wire', subject: 'agentwire HttpWebhookAgentConnector' },
      { suite: 'agent-connector.contract', subject: 'agentwire HttpWebhookAgentConnector, no wake_url' },
    ],
    // The connector and its receipts; not its transport hardening beyond the contract (same-origin
    // redirects, credentials redacted from messages), which its own unit tests check.
    mutate: [
      {
        file: 'packages/agent-connector/src/webhook/http-webhook-agent-connector.ts',
        from: 'export class HttpWebhookAgentConnector',
        until: '/** The most redirects one request follows',
      },
    ],
  },
  {
    id: 'filesystem-skill-store',
    suite: 'skill-store.contract',
    subject: 'agentwire FilesystemSkillStore',
    skips: [
      'skill-store.contract.query.tag-filter',
      'skill-store.contract.query.tag-filter-all-of',
      'skill-store.contract.metadata.tags-kept',
    ],
    mutate: ['packages/agent-connector/src/filesystem-skill-store/filesystem-skill-store.ts'],
  },
  {
    id: 'sqlite-skill-store',
    suite: 'skill-store.contract',
    subject: 'SqliteSkillStore, on a temporary file',
    mutate: ['packages/sqlite/src/agent-connector/sqlite-skill-store.ts'],
  },
  {
    id: 'sqlite-data-store',
    suite: 'data-store.contract',
    subject: 'SqliteDataStore, on a temporary file',
    mutate: ['packages/sqlite/src/agent-connector/sqlite-data-store.ts'],
  },
];
