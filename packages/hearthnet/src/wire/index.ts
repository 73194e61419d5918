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
export {
  type CallOptions,
  type CapabilityCallBody,
  createHearthNetClient,
  type HearthNetClient,
  type HearthNetClientOptions,
  type ResponseVerification,
  type StreamFrameOf,
} from './client/hearthnet-client.js';
export type {
  HearthNetDuplexStream,
  HearthNetStream,
  ProgressFrame,
  ProgressFrameData,
} from './client/hearthnet-stream.js';
export {
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
} from './envelope.js';
export {
  type BusHandler,
  type BusHandlerOptions,
  createBusHandler,
  DEFAULT_KEEPALIVE_MS,
  MAX_ACK_WINDOW,
} from './handler/bus-handler.js';
export type {
  BusRegistry,
  CallContext,
  CapabilityHandler,
} from './handler/capability-handler.js';
export { type RequestHandler, routeByPath } from './handler/route-by-path.js';
export { meetsTrustLevel, staticTrust, type TrustPolicy, type TrustStatus } from './handler/trust.js';
export {
  ACK_WINDOW_HEADER,
  accepts,
  BUS_CALL_PATH,
  EVENT_STREAM_CONTENT_TYPE,
  isMediaType,
  JSON_CONTENT_TYPE,
  WIRE_HEADERS,
} from './headers.js';
export { isAcceptableRequestId, newRequestId } from './request-id.js';
export {
  DEFAULT_CLOCK_SKEW_MS,
  RequestVerifier,
  type RequestVerifierOptions,
} from './request-verifier.js';
export { isResponseSignatureMandatory } from './response-signatures.js';
export {
  MemorySeenRequestIds,
  type MemorySeenRequestIdsOptions,
  type SeenRequestIds,
} from './seen-request-ids.js';
export { AckWindow, ackDue, DEFAULT_ACK_WINDOW } from './sse/ack-window.js';
export { encodeSseComment, encodeSseEvent, encodeSseFrame } from './sse/encode.js';
export {
  ACK_EVENT,
  DONE_EVENT,
  ERROR_EVENT,
  isTerminalEvent,
  PROGRESS_EVENT,
  REQUEST_EVENT,
  type SseComment,
  type SseEvent,
  type SseFrame,
  type SseItem,
} from './sse/sse-event.js';
export { readSseFrames, SseFrameReader, type SseFrameReaderOptions } from './sse/sse-frame-reader.js';
export { SseParser, type SseParserOptions } from './sse/sse-parser.js';
export {
  ACK_FRAME_DATA_SCHEMA,
  ERROR_FRAME_DATA_SCHEMA,
  PROGRESS_FRAME_DATA_SCHEMA,
  type StreamFrameValidator,
  streamFrameValidator,
} from './sse/wire-frame-schemas.js';
export { formatWireTimestamp, parseWireTimestamp } from './timestamp.js';
export type { WireMode } from './wire-mode.js';
