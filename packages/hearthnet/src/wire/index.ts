/**
 * `@agentwire/hearthnet/wire` — the signed HTTP wire of contract §5: request envelopes and their
 * signatures (§5.1), signed responses (§5.2), SSE stream frames (§5.3), a client, and a server
 * handler on web-standard `Request`/`Response`. Runtime-neutral: it uses `fetch`, `ReadableStream`,
 * `TextEncoder` and `AbortSignal` only (serve it on Node with `@agentwire/hearthnet/node-http`).
 * Both speak a {@link WireDialect}: `contractWire` by default, or `referenceWire` from
 * `@agentwire/hearthnet/compat` for the Python reference nodes.
 *
 * @example
 * ```ts
 * import { CapabilityRegistry, catalogueDescriptor } from '@agentwire/hearthnet/capabilities';
 * import { type CapabilityHandler, createBusHandler, createHearthNetClient, staticTrust } from '@agentwire/hearthnet/wire';
 *
 * const registry = new CapabilityRegistry<CapabilityHandler>();
 * registry.register(catalogueDescriptor('market.post'), async ({ input }) => ({ output: { event_id: 'e1', lamport: 1 } }), { maxConcurrent: 4 });
 * const handler = createBusHandler({ identity: server, registry, trust: staticTrust({ [alice.nodeId]: 'member' }) });
 *
 * const client = createHearthNetClient({ identity: alice, community, node: 'http://127.0.0.1:7080' });
 * await client.call('market.post', { params: {}, input: { client_id: 'c1', category: 'offer', title: 'Wasser' } });
 * ```
 *
 * @packageDocumentation
 */
export {
  type BusHandlerOptions,
  type CallContext,
  type CapabilityHandler,
  createBusHandler,
  routeByPath,
  staticTrust,
  type TrustPolicy,
} from './bus-handler.js';
export { contractWire, type WireDialect } from './dialect.js';
export {
  BUS_CALL_PATH,
  EVENT_STREAM_CONTENT_TYPE,
  formatWireTimestamp,
  isMediaType,
  isResponseSignatureMandatory,
  JSON_CONTENT_TYPE,
  newRequestId,
  requestEnvelopeBytes,
  responseEnvelopeBytes,
  signRequestEnvelope,
  signResponseEnvelope,
  verifyRequestEnvelope,
  verifyResponseEnvelope,
  WIRE_HEADERS,
} from './envelope.js';
export {
  type CallOptions,
  createHearthNetClient,
  type HearthNetClient,
  type HearthNetClientOptions,
  type HearthNetStream,
} from './hearthnet-client.js';
export {
  MemorySeenRequestIds,
  type MemorySeenRequestIdsOptions,
  type SeenRequestIds,
} from './request-verifier.js';
export {
  AckWindow,
  ackDue,
  encodeSseFrame,
  isTerminalEvent,
  readSseFrames,
  type SseFrame,
  SseFrameReader,
  type SseFrameReaderOptions,
  type SseItem,
  SseParser,
  type SseParserOptions,
  streamFrameValidator,
} from './sse.js';
