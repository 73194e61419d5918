/**
 * `@agentwire/hearthnet/wire` — the signed HTTP wire of contract §5: request envelopes and their
 * signatures (§5.1), signed responses (§5.2), SSE stream frames (§5.3), a client, and a server
 * handler on web-standard `Request`/`Response`. Runtime-neutral: it uses `fetch`, `ReadableStream`,
 * `TextEncoder` and `AbortSignal` only (serve it on Node with `@agentwire/hearthnet/node-http`).
 *
 * @example
 * ```ts
 * import { CapabilityRegistry, MARKET_POST } from '@agentwire/hearthnet/capabilities';
 * import { createBusHandler, createHearthNetClient, staticTrust } from '@agentwire/hearthnet/wire';
 *
 * const registry = new CapabilityRegistry<CapabilityHandler>();
 * registry.register(MARKET_POST, async ({ input }) => ({ output: { event_id: 'e1', lamport: 1 } }), { maxConcurrent: 4 });
 * const handler = createBusHandler({ identity: server, registry, trust: staticTrust({ [alice.nodeId]: 'member' }) });
 *
 * const client = createHearthNetClient({ identity: alice, community, node: 'http://127.0.0.1:7080' });
 * await client.call('market.post', { params: {}, input: { client_id: 'c1', category: 'offer', title: 'Wasser' } });
 * ```
 *
 * @packageDocumentation
 */
export {
  HearthNetLocalError,
  type HearthNetLocalErrorCode,
  type HearthNetLocalErrorDetails,
  type HearthNetLocalErrorOptions,
  type SseProtocolErrorReason,
} from '../errors.js';
export type {
  BusRegistry,
  CallContext,
  CapabilityHandler,
} from './bus-handler.js';
export {
  type BusHandler,
  type BusHandlerOptions,
  createBusHandler,
  DEFAULT_KEEPALIVE_MS,
  MAX_ACK_WINDOW,
  meetsTrustLevel,
  type RequestHandler,
  routeByPath,
  staticTrust,
  type TrustPolicy,
  type TrustStatus,
} from './bus-handler.js';
export type { WireMode } from './envelope.js';
export {
  ACK_WINDOW_HEADER,
  accepts,
  BUS_CALL_PATH,
  EVENT_STREAM_CONTENT_TYPE,
  formatWireTimestamp,
  isAcceptableRequestId,
  isMediaType,
  isResponseSignatureMandatory,
  JSON_CONTENT_TYPE,
  newRequestId,
  parseWireTimestamp,
  type RequestEnvelope,
  type RequestEnvelopeFields,
  type ResponseEnvelope,
  type ResponseEnvelopeFields,
  requestEnvelope,
  requestEnvelopeBytes,
  responseEnvelope,
  responseEnvelopeBytes,
  type SignedEnvelope,
  signRequestEnvelope,
  signResponseEnvelope,
  verifyRequestEnvelope,
  verifyResponseEnvelope,
  WIRE_HEADERS,
} from './envelope.js';
export type {
  HearthNetDuplexStream,
  HearthNetStream,
  ProgressFrame,
  ProgressFrameData,
} from './hearthnet-client.js';
export {
  type CallOptions,
  type CapabilityCallBody,
  createHearthNetClient,
  type HearthNetClient,
  type HearthNetClientOptions,
  type ResponseVerification,
  type StreamFrameOf,
} from './hearthnet-client.js';
export {
  DEFAULT_CLOCK_SKEW_MS,
  MemorySeenRequestIds,
  type MemorySeenRequestIdsOptions,
  RequestVerifier,
  type RequestVerifierOptions,
  type SeenRequestIds,
} from './request-verifier.js';
export {
  ACK_EVENT,
  ACK_FRAME_DATA_SCHEMA,
  AckWindow,
  ackDue,
  DEFAULT_ACK_WINDOW,
  DONE_EVENT,
  ERROR_EVENT,
  ERROR_FRAME_DATA_SCHEMA,
  encodeSseComment,
  encodeSseEvent,
  encodeSseFrame,
  isTerminalEvent,
  PROGRESS_EVENT,
  PROGRESS_FRAME_DATA_SCHEMA,
  REQUEST_EVENT,
  readSseFrames,
  type SseComment,
  type SseEvent,
  type SseFrame,
  SseFrameReader,
  type SseFrameReaderOptions,
  type SseItem,
  SseParser,
  type SseParserOptions,
  type StreamFrameValidator,
  streamFrameValidator,
} from './sse.js';
