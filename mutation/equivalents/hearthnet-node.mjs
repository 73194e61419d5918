// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the entries quote source lines, template placeholders included
// Equivalents of the `hearthnet-node` pair (suite hearthnet.node × agentwire's HearthNet node, in-process), in the
// format of mutation/equivalents.mjs. The suite reaches the node only over HTTP: signed calls to /bus/v1/call, the
// long poll GET /pubsub/v1/subscribe, GET /manifest and the §7.6 gossip endpoints. Each entry below was read
// against that interface and the bundled node (conformance agentwire-node.ts: createBusHandler with its
// defaults, trustFromLog, a PublishingEventStore over a TopicHub, createSyncHandler, createPubSubHandler).
import { sameReason, TEXT_MUTATORS } from './shared.mjs';

const PAIRS = ['hearthnet-node'];
const BUS = 'packages/hearthnet/src/wire/bus-handler.ts';
const VERIFIER = 'packages/hearthnet/src/wire/request-verifier.ts';
const ENVELOPE = 'packages/hearthnet/src/wire/envelope.ts';
const SSE = 'packages/hearthnet/src/wire/sse.ts';
const SYNC = 'packages/hearthnet/src/sync/sync-handler.ts';
const HUB = 'packages/hearthnet/src/pubsub/topic-hub.ts';
const SUBSCRIBE = 'packages/hearthnet/src/pubsub/subscribe-protocol.ts';

const WORDING =
  'wording of an error message or the label a diagnostic names, which the contract leaves to the implementation (§5.4: `message` is optional and free text; the suite checks the code and the status)';
const OWN_OPTIONS =
  "the checks and defaults of the SDK's own constructor options (createBusHandler, RequestVerifier, MemorySeenRequestIds, createSyncHandler, TopicHub, routeByPath), which no contract fixes: the bundled node passes valid options, and a node is reached over HTTP only after it was built";
const CONTRACT_WIRE_REFUSAL =
  "what the handler tells the dialect about a refusal (its origin, whether a stream was asked for): contractWire.writeRefusal ignores both and writes the §5.4 body with the error's §5.5 status; they steer the reference dialect, which the compat pair measures";
const REQUEST_ID_TOLERANCE =
  'which request ids beyond the ULID of §5.1 a node takes: the suite sends ULIDs, which every variant accepts, and the contract asks a node to refuse no other form (the id is signed, and replay protection keys on it whatever its form)';
const ONLY_SUITE_IDS =
  "the time part of the request ids newRequestId makes: only the suite and the SDK client it calls make them, and a node keys replay protection on (from, id), never on the id's time";
const RESPONSE_VERIFY_LEVEL =
  "which capabilities' responses a client must verify (§5.2): the node does not run it (it signs every response); the suite rates the response-signature case's level with it, and the SDK client of the blob cases verifies more or fewer of a node's always-signed responses";
const HEADERS_PRESENT =
  "a request without Content-Type or Accept: every §5.1 request carries both (the suite's, the SDK client's), and a node's answer to one without them is not fixed by the contract";
const SPLIT_FIRST =
  "`split(';')[0]` always exists (split yields at least one string), so `?.` and `.` behave alike";
const STAR_ACCEPT =
  'whether `Accept: */*` alone asks a streaming capability for a stream: §5.1 has a caller list text/event-stream, and the contract leaves a bare wildcard open';
const CLIENT_READER =
  "readSseFrames, the SDK client's reader of a response stream (the blob cases read file.read with it): whether it cancels the body when the caller stops early or after the end changes nothing a node answers, and the node never runs it";
const ACK_MACHINERY =
  "agentwire's credit-window back-pressure and slow-consumer drops (AckWindow, ackDue, slowConsumerError, progressWithin): they run only for a client stream that sends X-HearthNet-Ack-Window, for the pub-sub WebSocket, or when a peer stops reading for 60 s; the contract says not how acks travel over HTTP (§5.3 names the frame only), the suite sends no such header and the bundled node serves no WebSocket";
const TIMER_CAP =
  'MAX_TIMER_MS (2^31 − 1, the longest delay setTimeout honours) bounds only options and waits the handlers already cap far lower (wait_ms at 60 s, keepalive 15 s)';
const REPLAY_MEMORY =
  "the replay memory's housekeeping: ids are dropped only after their window ended, when any request carrying that id is refused as expired by its signed timestamp anyway (a fresh signature reusing an old request id is not a §5.1 request, whose id is a new ULID); the 100 000-id bound is not reached by a run of minutes; the 2 ms at a window's edge cannot be aimed at over HTTP, the node's clock not being the suite's";
const WINDOW_EDGE =
  "whether a request exactly clockSkewMs away from the node clock is in the window: the contract names no window (agentwire chose ±30 s) and timestamps carry whole seconds, so the edge is the implementation's";
const BUNDLED_HANDLERS =
  "guards against a faulty capability handler or trust policy (a response body off its schema, a primitive or null result, a trust status that is none): the bundled node's handlers and trustFromLog never produce one, and a peer cannot make them";
const NO_STREAM_FLAG_USE =
  'context.callerVerified and context.stream of a non-streaming capability: no bundled handler reads them (market.post answers JSON whatever they say), so the answer a peer sees is the same';
const CANCEL_SIGNAL =
  "the handler's abort signal on a cancelled stream or a closed request: the bundled llm.chat yields every 2 ms, so closing its iterator (which frameStream does, and which frees the max_concurrent slot) ends it as fast as the signal would; the suite sees only that the slot frees (stream.abort, capacity.retry-after); a keepalive or error report goes to onInternalError, a log";
const STREAM_HEADERS =
  "a stream response's Cache-Control (§5.3 names no such header) and the guard against an empty request id (the contract wire refuses a call without one before dispatch)";
const ACCEPT_UNSIGNED =
  'acceptUnsigned, the reference-compat option (default false; the bundled node leaves it off). A signed call is verified in every variant. An unsigned call is refused 401 in every variant: either the verifier refuses it invalid_signature, or (where a variant lets it past the verifier, as acceptUnsigned on does) it reaches the trust check with no caller, which refuses it unauthorized, since every capability of the catalogue needs at least member trust (contract §4). §5.5 gives 401 both codes, and signature.missing accepts either';
const CLIENT_STREAM_BOUND =
  'the largest client-stream frame the node reads (16 MiB, or the 10 MiB body bound, whichever is larger), a bound of the SDK beyond any frame the suite or the contract sends';
const ROUTING_EXTRAS =
  'how the node answers a path or method the contract does not define (a GET of /bus/v1/call, a POST under /bus/v1/call/…, a path no route serves, which of two nested prefixes wins): §5.1 defines POST /bus/v1/call, §7.6 GET /sync/v1/heads and POST /sync/v1/events, §8 the long poll, and the bundled routes do not nest';
const NOT_JSON_BODY =
  "how readJsonBody hands a body that is not JSON, or not strict JSON, to the handler: every path ends in the same 400 bad_request on the contract wire (an undefined body is refused by readContractCall; the json_syntax origin only changes the reference dialect's answer)";
const SYNC_PULL =
  "agentwire's pull endpoints beyond §7.6 (POST /sync/v1/digests, /ids, /events/fetch), which the contract's gossip (heads, then pushed events) does not have, and the SDK's batch bound, which §7.6 does not name";
const SYNC_METHOD =
  'the method of a request to a sync endpoint other than the one §7.6 names (a POST of /sync/v1/heads, a GET of /sync/v1/events is refused as a body that is not JSON either way)';
const HUB_INTERNALS =
  "the hub's own checks of what the long-poll handler already checked (cursor and limit parsed as counts, limit 1–1000, wait_ms capped at 60 s, the request's signal always passed) and its dedupe: PublishingEventStore publishes an event only when the store reports it newly appended, so no key reaches the hub twice in the bundled node";
const PEER_PUBLISH =
  "publishing into the hub as a peer (origin 'peer'): the long-poll node has no publish endpoint, and the bundled node publishes only its own log's events";
const SAME_CURSOR =
  "the cursor of an answer that holds exactly `limit` items: the last item's seq or the hub's newest seq, between which this topic has no item, so a poll from either returns the same items";
const WS_ROUTE =
  "the pub-sub WebSocket's signed route (Phase 2, @agentwire/hearthnet/pubsub-ws), which the bundled node does not serve";
const CLIENT_ONLY_PUBSUB =
  "the pub-sub client's side of the protocol (topicReadSchema, which it checks answers with; the WebSocket route): the long-poll node never runs it";
const PARAMETER_OBJECT =
  'the property flags of the parameter object built from a query: it is only read by key and signed by value, and enumerable/writable/configurable do not change either';
const MISSING_HEADER_CODE =
  'which 4xx a long poll missing X-HearthNet-From, -Community, -Request-Id or -Timestamp gets (bad_request, or invalid_signature when the verifier sees the hole): §5.1 names no code for it and the suite asks only for a refusal of forged requests';
const LOCAL_ONLY_WORDS =
  'the message and details of the local_only_topic error, which the handler turns into a bad_request whose wording is free (subscribe.local-only-refused checks the refusal)';

const RETENTION =
  "how many items a node keeps of one topic (agentwire's window of 256, one fewer, or all of them): the contract names no window, and a node that keeps more loses nothing; subscribe.no-silent-loss accepts either honest answer to a poll from before 300 pushed events (those events from the first, or gap: true) and fails only later items without a gap, the memory kept is not seen by a peer";
const REVOKED_RANK =
  "the rank of the revoked status: both callers of meetsTrustLevel (the bus handler, authoriseSubscriber of the long poll) refuse a revoked caller with `revoked` before they compare ranks (errors.revoked checks that refusal), so revoked's rank is never compared";
const UNDEFINED_COMPARE =
  '`undefined > now` is false, so dropping the `known !== undefined` guard refuses nothing more';
const WIDE_FRAMES_UNUSED =
  "the contract-wide schema of progress or error frames as the node applies it: the bundled handlers never yield either frame (the node's own error frames are written by frameStream, not checked here), and in a client stream (file.put, the only one) the handler refuses every frame but chunk with bad_request, the answer the schema refusal gives a malformed progress or error frame; so a peer sees the same answer whether the schema is there or not";
const FRAME_WORDS =
  "the detail of a frame refusal (the issue's path and message, the sse_protocol error's details): a refused client frame is answered bad_request whose message is free (§5.4), and a failed check always carries at least one issue, so `?.` and `.` behave alike";
const GET_READ_THROUGH =
  "PublishingEventStore.get: ingestEvents asks it whether a pushed event is already stored; without the answer replay sees the stored copy and the pushed one together, and the sync answer is the same (checked by hand: an identical event pushed again is accepted, a different one under a stored event_id is rejected duplicate_event_id, only the free message differs); its other reader is POST /sync/v1/events/fetch, agentwire's pull endpoint beyond §7.6";

export default [
  // ---------- bus-handler.ts ----------
  ...sameReason({ pairs: PAIRS, file: BUS, reason: OWN_OPTIONS }, [
    'const verifier = new RequestVerifier({',
    '...(options.clockSkewMs === undefined ? {} : { clockSkewMs: options.clockSkewMs }),',
    '...(options.seenRequestIds === undefined ? {} : { seenRequestIds: options.seenRequestIds }),',
    "if (options === null || typeof options !== 'object')",
    "throw new HearthNetLocalError('invalid_wire_options', 'options are required');",
    "if (identity === null || typeof identity !== 'object' || typeof identity.nodeId !== 'string') {",
    "throw new HearthNetLocalError('invalid_wire_options', 'identity must be a KeyPair');",
    "if (registry === null || typeof registry !== 'object' || typeof registry.resolve !== 'function') {",
    "throw new HearthNetLocalError('invalid_wire_options', 'registry must be a CapabilityRegistry');",
    "if (trust === null || typeof trust !== 'object' || typeof trust.trustOf !== 'function') {",
    "throw new HearthNetLocalError('invalid_wire_options', 'trust must be a TrustPolicy with trustOf(nodeId)');",
    // The bundled node sets retryAfterMs 250; the suite asks that capacity_exceeded carry one, not which.
    'const retryAfterMs = options.retryAfterMs ?? 1000;',
    '] as const) {',
    "'invalid_wire_options',",
    '`${name} must be a non-negative integer, got ${String(value)}`,',
    'if (keepaliveMs > MAX_TIMER_MS) {',
    '`keepaliveMs must be at most ${MAX_TIMER_MS}, got ${keepaliveMs}`,',
    'signResponses: options.signResponses !== false,',
    'path: options.path === undefined ? BUS_CALL_PATH : options.path,',
    "if (!prefix.startsWith('/'))",
    '`route prefix ${JSON.stringify(prefix)} must start with /`,',
    "if (typeof handler !== 'function')",
  ]),
  {
    pairs: PAIRS,
    file: BUS,
    code: 'if (!Number.isSafeInteger(value) || value < 0) {',
    span: {
      from: 'function readOptions(options: BusHandlerOptions): Settings {',
      until: 'async function handleCall(',
    },
    reason: OWN_OPTIONS,
  },
  {
    pairs: PAIRS,
    file: BUS,
    code: 'acceptUnsigned: options.acceptUnsigned === true,',
    reason: ACCEPT_UNSIGNED,
  },
  {
    pairs: PAIRS,
    file: BUS,
    code: 'if (call.signature === undefined && settings.acceptUnsigned) return undefined;',
    reason: ACCEPT_UNSIGNED,
  },
  ...sameReason({ pairs: PAIRS, file: BUS, mutators: ['StringLiteral'], reason: CONTRACT_WIRE_REFUSAL }, [
    "let origin: RefusalOrigin = 'bus';",
    "origin = 'json_syntax';",
    "origin = 'no_provider';",
    "origin = 'bus';",
    "origin = 'capability';",
    "origin: 'endpoint',",
  ]),
  { pairs: PAIRS, file: BUS, code: 'let streamRequested = false;', reason: CONTRACT_WIRE_REFUSAL },
  // A missing routing header: the refusal has nothing of the caller's to echo either way.
  ...sameReason(
    {
      pairs: PAIRS,
      file: BUS,
      mutators: ['StringLiteral'],
      reason:
        'what a refusal of a call that lacks X-HearthNet-Capability, -Capability-Version or -Request-Id echoes in their place: the caller sent none, so there is nothing of its to echo, and the contract fixes only the §5.4 body and its status',
    },
    [
      "capability: request.headers.get(WIRE_HEADERS.capability) ?? '',",
      "version: request.headers.get(WIRE_HEADERS.capabilityVersion) ?? '',",
      "requestId: request.headers.get(WIRE_HEADERS.requestId) ?? '',",
    ],
  ),
  ...sameReason({ pairs: PAIRS, file: BUS, reason: ROUTING_EXTRAS }, [
    'table.sort((a, b) => b.prefix.length - a.prefix.length);',
    "({ prefix }) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`),",
    'if (route !== undefined) return route.handler(request);',
    'return new Response(JSON.stringify(toErrorBody(new NotFoundError(`nothing is served at ${path}`))), {',
    "headers: { 'Content-Type': JSON_CONTENT_TYPE },",
  ]),
  // The refusals of another path and of a method other than POST.
  {
    pairs: PAIRS,
    file: BUS,
    span: {
      from: 'if (settings.path !== null && new URL(request.url).pathname',
      until: '    let body: unknown;',
    },
    reason: ROUTING_EXTRAS,
  },
  {
    pairs: PAIRS,
    file: BUS,
    code: 'if (!settings.wire.clientStreams) {',
    reason:
      'contractWire has client streams, so the refusal of a client stream on a wire without them never runs',
  },
  {
    pairs: PAIRS,
    file: BUS,
    code: 'throw new BadRequestError(`the ${settings.wire.name} wire has no client streams`);',
    reason:
      'contractWire has client streams, so the refusal of a client stream on a wire without them never runs',
  },
  { pairs: PAIRS, file: BUS, code: 'maxEventLength: 16 * 1024 * 1024,', reason: CLIENT_STREAM_BOUND },
  { pairs: PAIRS, file: BUS, code: 'onAck: (upto) => window?.acknowledge(upto),', reason: ACK_MACHINERY },
  {
    pairs: PAIRS,
    file: BUS,
    span: { from: 'function ackWindowOf(', until: '/** The verified caller' },
    reason: ACK_MACHINERY,
  },
  { pairs: PAIRS, file: BUS, code: '...(credit === undefined ? {} : { credit }),', reason: ACK_MACHINERY },
  ...sameReason({ pairs: PAIRS, file: BUS, reason: NOT_JSON_BODY }, [
    'if (!read.ok) {',
    'if (read.ok) return { ok: true, value: read.value };',
    "if (read.problem !== 'syntax') throw new BadRequestError(`the request body holds a ${read.message}`);",
    'ok: false,',
    "error: new BadRequestError('the request body is not UTF-8 JSON', { cause: read.cause }),",
  ]),
  ...sameReason({ pairs: PAIRS, file: BUS, mutators: TEXT_MUTATORS, reason: WORDING }, [
    '`${registration.descriptor.name} requires trust level ${registration.descriptor.trust.level}; the caller is ${trust}`,',
    '`${registration.descriptor.name}@${registration.descriptor.version} is at max_concurrent (${registration.maxConcurrent})`,',
    'throw new BadRequestError(`malformed capability or version: ${(error as Error).message}`, {',
    'if (highest === undefined) throw new NotFoundError(`capability ${call.capability} is not offered here`);',
    "`${call.capability}@${call.version} is not offered; offered: ${offered.join(', ')}`,",
    '`the ${descriptor.name} handler returned a body that does not match its response schema`,',
    '`the ${descriptor.name} handler streamed to a caller that did not ask for a stream`,',
  ]),
  // reportUnexpected: what reaches onInternalError, a log.
  {
    pairs: PAIRS,
    file: BUS,
    code: '...(expected === undefined ? {} : { schemaHashExpected: expected.schemaHash }),',
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      'the registration of the highest offered version always exists (offeredVersions lists registered versions), so `expected` is never undefined',
  },
  ...[53, 61, 71].map((column) => ({
    pairs: PAIRS,
    file: BUS,
    code: "if (trust === 'revoked') throw new RevokedError(`node ${caller ?? '(unsigned)'} is revoked`);",
    column,
    reason: WORDING,
  })),
  {
    pairs: PAIRS,
    file: BUS,
    span: { from: 'function reportUnexpected(', until: '/**' },
    reason:
      'reportUnexpected only hands an exception to the onInternalError log hook (the bundled node sets none); the §5.4 internal_error body a peer sees is written elsewhere',
  },
  {
    pairs: PAIRS,
    file: BUS,
    code: 'onError: (error) => reportUnexpected(settings, error, responder),',
    reason: CANCEL_SIGNAL,
  },
  ...sameReason({ pairs: PAIRS, file: BUS, reason: BUNDLED_HANDLERS }, [
    'if (!isTrustStatus(status)) throw new InternalError(`the trust policy answered ${JSON.stringify(status)}`);',
    'const body = registration.validators.response?.check(result);',
    'if (body === undefined || !body.ok) {',
    'value !== null &&',
    "typeof value === 'object' &&",
    "return typeof value === 'string' && Object.hasOwn(rank, value);",
  ]),
  { pairs: PAIRS, file: BUS, code: 'callerVerified: caller !== undefined,', reason: NO_STREAM_FLAG_USE },
  {
    pairs: PAIRS,
    file: BUS,
    code: "descriptor.streaming !== 'none' && call.streamRequested && validated.input['stream'] !== false;",
    column: 30,
    mutators: ['StringLiteral'],
    reason: NO_STREAM_FLAG_USE,
  },
  ...sameReason({ pairs: PAIRS, file: BUS, reason: CANCEL_SIGNAL }, [
    'const abort = () => controller.abort(request.signal.reason);',
    'if (request.signal.aborted) abort();',
    "else request.signal.addEventListener('abort', abort, { once: true });",
    "request.signal.removeEventListener('abort', abort);",
    "if (reason === 'cancelled') controller.abort(new DOMException('the client went away', 'AbortError'));",
  ]),
  ...sameReason({ pairs: PAIRS, file: BUS, reason: STREAM_HEADERS }, [
    "'Cache-Control': 'no-cache',",
    "if (call.requestId !== '') headers.set(WIRE_HEADERS.requestId, call.requestId);",
  ]),
  {
    pairs: PAIRS,
    file: BUS,
    span: { from: 'export function staticTrust(' },
    reason:
      'staticTrust, a fixed TrustPolicy: the bundled node decides trust from its community log (trustFromLog) and never calls it',
  },

  // ---------- request-verifier.ts ----------
  ...sameReason({ pairs: PAIRS, file: VERIFIER, reason: OWN_OPTIONS }, [
    'if (!Number.isSafeInteger(clockSkewMs) || clockSkewMs < 0) {',
    '`clockSkewMs must be a non-negative integer, got ${String(clockSkewMs)}`,',
    'this.#now = options.now ?? Date.now;',
    'this.#seen = options.seenRequestIds ?? new MemorySeenRequestIds({ now: this.#now });',
    'this.#verifyOptions = {',
    '...(options.lenientEncoding === undefined ? {} : { lenientEncoding: options.lenientEncoding }),',
    '...(options.backend === undefined ? {} : { backend: options.backend }),',
    'if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {',
    '`maxEntries must be a positive integer, got ${String(maxEntries)}`,',
    "'invalid_wire_options',",
  ]),
  {
    pairs: PAIRS,
    file: VERIFIER,
    code: "if (typeof signature !== 'string' || signature === '') {",
    reason:
      'the early refusal of a missing or empty signature: without it verifyRequestEnvelope refuses the same request, and check answers the same invalid_signature (401)',
  },
  ...sameReason({ pairs: PAIRS, file: VERIFIER, mutators: TEXT_MUTATORS, reason: WORDING }, [
    "return new InvalidSignatureError('the request carries no X-HearthNet-Signature');",
    'return new InvalidSignatureError(`request signature rejected (${verdict.reason})`);',
    '`X-HearthNet-Timestamp is not RFC 3339 UTC: ${JSON.stringify(fields.timestamp)}`,',
    '`request timestamp ${fields.timestamp} is more than ${this.#clockSkewMs} ms from the server clock`,',
    'if (!fresh) return new InvalidSignatureError(`request ${fields.requestId} was already received (replay)`);',
  ]),
  {
    pairs: PAIRS,
    file: VERIFIER,
    code: 'if (Math.abs(now - sentAt) > this.#clockSkewMs) {',
    mutators: ['EqualityOperator'],
    replacement: '>=',
    reason: WINDOW_EDGE,
  },
  {
    pairs: PAIRS,
    file: VERIFIER,
    code: 'fresh = await this.#seen.add(`${fields.from} ${fields.requestId}`, sentAt + this.#clockSkewMs + 1);',
    mutators: ['ArithmeticOperator'],
    replacement: 'this.#clockSkewMs - 1',
    reason: REPLAY_MEMORY,
  },
  {
    pairs: PAIRS,
    file: VERIFIER,
    span: { from: '    } catch (error) {', until: '    if (!fresh)' },
    reason:
      'a SeenRequestIds that throws: the default memory throws only RateLimitedError when full (100 000 ids), which a run of minutes does not reach',
  },
  {
    pairs: PAIRS,
    file: VERIFIER,
    code: 'if (known !== undefined && known > now) return false;',
    mutators: ['LogicalOperator'],
    reason: REPLAY_MEMORY,
  },
  {
    pairs: PAIRS,
    file: VERIFIER,
    code: 'if (known !== undefined && known > now) return false;',
    column: 32,
    mutators: ['ConditionalExpression', 'EqualityOperator'],
    reason: REPLAY_MEMORY,
  },
  ...sameReason({ pairs: PAIRS, file: VERIFIER, reason: REPLAY_MEMORY }, [
    'if (known === undefined && this.#expiries.size >= this.#maxEntries) {',
    'const retryAfterMs = oldest.done === true ? 1 : Math.max(1, oldest.value - now);',
    '`this node already remembers ${this.#maxEntries} request ids inside their timestamp window`,',
    '{ retryAfterMs },',
    '#dropExpired(now: number): void {',
    'for (const [key, expiresAt] of this.#expiries) {',
    'if (expiresAt > now) return;',
  ]),
  {
    pairs: PAIRS,
    file: VERIFIER,
    span: { from: 'get size(): number {', until: 'add(key: string, expiresAtMs: number): boolean {' },
    reason: 'MemorySeenRequestIds.size, a count for the SDK user that the node never reads',
  },

  // ---------- envelope.ts (HTTP plumbing) ----------
  { pairs: PAIRS, file: ENVELOPE, code: 'if (contentType === null) return false;', reason: HEADERS_PRESENT },
  { pairs: PAIRS, file: ENVELOPE, code: 'if (accept === null) return false;', reason: HEADERS_PRESENT },
  {
    pairs: PAIRS,
    file: ENVELOPE,
    code: "return contentType.split(';')[0]?.trim().toLowerCase() === mediaType;",
    mutators: ['OptionalChaining'],
    reason: SPLIT_FIRST,
  },
  {
    pairs: PAIRS,
    file: ENVELOPE,
    code: "const type = part.split(';')[0]?.trim().toLowerCase();",
    mutators: ['OptionalChaining'],
    reason: SPLIT_FIRST,
  },
  {
    pairs: PAIRS,
    file: ENVELOPE,
    code: "return type === mediaType || type === '*/*';",
    column: 34,
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason: STAR_ACCEPT,
  },
  {
    pairs: PAIRS,
    file: ENVELOPE,
    code: "return type === mediaType || type === '*/*';",
    column: 43,
    mutators: ['StringLiteral'],
    reason: STAR_ACCEPT,
  },
  {
    pairs: PAIRS,
    file: ENVELOPE,
    code: 'const REQUEST_ID = /^[\\x21-\\x7e]{1,128}$/;',
    reason: REQUEST_ID_TOLERANCE,
  },
  {
    pairs: PAIRS,
    file: ENVELOPE,
    code: "return typeof value === 'string' && REQUEST_ID.test(value);",
    reason: REQUEST_ID_TOLERANCE,
  },
  {
    pairs: PAIRS,
    file: ENVELOPE,
    code: 'const time = Math.min(MAX_ULID_TIME, Math.max(0, Math.floor(epochMs)));',
    reason: ONLY_SUITE_IDS,
  },
  {
    pairs: PAIRS,
    file: ENVELOPE,
    span: { from: 'export function isResponseSignatureMandatory(' },
    reason: RESPONSE_VERIFY_LEVEL,
  },

  // ---------- sse.ts, from readSseFrames ----------
  {
    pairs: PAIRS,
    file: SSE,
    span: { from: 'export async function* readSseFrames(', until: 'const COUNT = ' },
    reason: CLIENT_READER,
  },
  {
    pairs: PAIRS,
    file: SSE,
    code: "const capability = descriptor === undefined ? 'stream' : `${descriptor.name}@${descriptor.version}`;",
    reason: WORDING,
  },
  {
    pairs: PAIRS,
    file: SSE,
    code: '`${capability} frame "${event}" does not match its schema: ${detail ?? \'invalid\'}`,',
    reason: WORDING,
  },
  {
    pairs: PAIRS,
    file: SSE,
    span: { from: 'export class AckWindow {', until: 'export const SLOW_CONSUMER_CLOSE_CODE' },
    reason: ACK_MACHINERY,
  },
  { pairs: PAIRS, file: SSE, span: { from: 'export function slowConsumerError(' }, reason: ACK_MACHINERY },
  { pairs: PAIRS, file: SSE, code: 'export const MAX_TIMER_MS = 2 ** 31 - 1;', reason: TIMER_CAP },

  // ---------- sync-handler.ts ----------
  ...sameReason({ pairs: PAIRS, file: SYNC, reason: OWN_OPTIONS }, [
    "if (typeof store !== 'object' || store === null)",
    "throw new HearthNetLocalError('invalid_sync_options', 'a store is required');",
    'if (!Number.isSafeInteger(maxBatch) || maxBatch < 1) {',
    '`maxBatch must be a positive integer, got ${String(maxBatch)}`,',
    'if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) {',
    '`maxBodyBytes must be a positive integer, got ${String(maxBodyBytes)}`,',
    "'invalid_sync_options',",
  ]),
  ...sameReason({ pairs: PAIRS, file: SYNC, reason: SYNC_PULL }, [
    'if (path === SYNC_PATHS.digests) {',
    'return digestsOf(store, body.community_id, body.bucket_width ?? SYNC_BUCKET_WIDTH);',
    'if (path === SYNC_PATHS.ids) {',
    'const event_ids = [...new Set(body.buckets)].flatMap((bucket) => groups.get(bucket) ?? []);',
    'return { community_id: body.community_id, event_ids };',
    'if (path === SYNC_PATHS.fetch) {',
    "checkBatch(body.event_ids.length, 'event_ids');",
    'function checkBatch(length: number, field: string): void {',
    'if (length > maxBatch) throw new BadRequestError(`${field} holds ${length} items; at most ${maxBatch}`);',
  ]),
  {
    pairs: PAIRS,
    file: SYNC,
    code: 'return {',
    span: { from: 'if (path === SYNC_PATHS.fetch) {', until: 'if (path === SYNC_PATHS.events) {' },
    reason: SYNC_PULL,
  },
  {
    pairs: PAIRS,
    file: SYNC,
    code: 'if (path === SYNC_PATHS.events) {',
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: ROUTING_EXTRAS,
  },
  {
    pairs: PAIRS,
    file: SYNC,
    code: 'throw new NotFoundError(`no sync endpoint at ${path}`);',
    reason: ROUTING_EXTRAS,
  },
  {
    pairs: PAIRS,
    file: SYNC,
    code: "checkBatch(body.events.length, 'events');",
    mutators: ['StringLiteral'],
    reason: WORDING,
  },
  {
    pairs: PAIRS,
    file: SYNC,
    span: { from: 'function expectMethod(', until: 'async function readBody' },
    reason: SYNC_METHOD,
  },
  { pairs: PAIRS, file: SYNC, code: "'the body',", mutators: ['StringLiteral'], reason: WORDING },
  {
    pairs: PAIRS,
    file: SYNC,
    code: "throw new BadRequestError(`${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid body'}`);",
    reason: WORDING,
  },

  // ---------- topic-hub.ts ----------
  ...sameReason({ pairs: PAIRS, file: HUB, mutators: ['StringLiteral'], reason: WORDING }, [
    "this.#retention = positiveInteger('retention', options.retention ?? DEFAULT_TOPIC_RETENTION);",
    "this.#published = new LruCache(positiveInteger('dedupeMemory', options.dedupeMemory ?? 10_000));",
    "const limit = positiveInteger('limit', options.limit ?? DEFAULT_READ_LIMIT);",
    "const waitMs = nonNegativeInteger('waitMs', options.waitMs ?? 0);",
    "throw new HearthNetLocalError('invalid_pubsub_options', `waitMs must be at most ${MAX_TIMER_MS}`);",
  ]),
  {
    pairs: PAIRS,
    file: HUB,
    span: { from: 'get lastSeq(): number {', until: '  /**' },
    reason: 'TopicHub.lastSeq and .waiting, counters for the SDK user that the long-poll handler never reads',
  },
  {
    pairs: PAIRS,
    file: HUB,
    span: { from: 'get waiting(): number {', until: '  /**' },
    reason: 'TopicHub.lastSeq and .waiting, counters for the SDK user that the long-poll handler never reads',
  },
  {
    pairs: PAIRS,
    file: HUB,
    span: { from: 'oldestCursor(topic: string): number {', until: '#readNow(' },
    reason: 'TopicHub.oldestCursor, a helper for the SDK user that the long-poll handler never calls',
  },
  ...sameReason({ pairs: PAIRS, file: HUB, reason: PEER_PUBLISH }, [
    "if (options.origin === 'peer' && resolved.definition.scope === 'local_only') {",
    "throw localOnlyTopic(resolved.topic, 'publish');",
  ]),
  { pairs: PAIRS, file: HUB, code: 'if (dedupeKey !== undefined) {', reason: HUB_INTERNALS },
  {
    pairs: PAIRS,
    file: HUB,
    code: 'if (this.#published.get(dedupeKey) !== undefined) return undefined;',
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason: HUB_INTERNALS,
  },
  { pairs: PAIRS, file: HUB, code: 'this.#published.set(dedupeKey, true);', reason: HUB_INTERNALS },
  {
    pairs: PAIRS,
    file: HUB,
    code: 'return hub.publish(publication.topic, publication.payload, { dedupeKey: `event:${event.event_id}` });',
    mutators: ['ObjectLiteral'],
    reason: HUB_INTERNALS,
  },
  ...sameReason({ pairs: PAIRS, file: HUB, reason: HUB_INTERNALS }, [
    "if (afterSeq !== undefined) nonNegativeInteger('cursor', afterSeq);",
    'if (waitMs > MAX_TIMER_MS)',
    'options.signal?.throwIfAborted();',
  ]),
  ...sameReason(
    {
      pairs: PAIRS,
      file: HUB,
      mutators: ['ConditionalExpression', 'LogicalOperator'],
      reason: HUB_INTERNALS,
    },
    ['if (!Number.isSafeInteger(value) || value < 1) {', 'if (!Number.isSafeInteger(value) || value < 0) {'],
  ),
  ...sameReason({ pairs: PAIRS, file: HUB, mutators: ['StringLiteral'], reason: WORDING }, [
    "'invalid_pubsub_options',",
    '`${name} must be a positive integer, got ${String(value)}`,',
    '`${name} must be a non-negative integer, got ${String(value)}`,',
  ]),
  {
    pairs: PAIRS,
    file: HUB,
    code: 'resolve(false);',
    span: { from: 'const timer = setTimeout(() => {', until: '}, waitMs);' },
    mutators: ['BooleanLiteral'],
    reason:
      'a wait that ends with nothing published reads the topic again when told it was woken, and finds the same nothing: `{items: [], cursor: <newest seq>, gap: false}` either way',
  },
  {
    pairs: PAIRS,
    file: HUB,
    code: 'const cursor = pending.length > limit ? (items.at(-1) as TopicItem).seq : this.#seq;',
    mutators: ['EqualityOperator'],
    replacement: '>=',
    reason: SAME_CURSOR,
  },
  // The wait's abort path: the handler passes the request's signal; a client that leaves a long poll
  // gets no answer whatever happens to the wait.
  ...sameReason(
    {
      pairs: PAIRS,
      file: HUB,
      reason:
        "a waiting poll's abort and cleanup (removing its listener, rejecting with the signal's reason): they run only when the caller goes away mid-wait, who then reads no answer; a peer sees no difference",
    },
    [
      "signal?.removeEventListener('abort', onAbort);",
      'const onAbort = () => {',
      'reject(signal?.reason);',
      "signal?.addEventListener('abort', onAbort, { once: true });",
    ],
  ),

  {
    pairs: PAIRS,
    file: HUB,
    code: 'if (answer.items.length > 0 || answer.gap || waitMs === 0) return answer;',
    column: 50,
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      'a poll with wait_ms=0 and nothing to answer then waits 0 ms and answers `{items: [], cursor: <newest seq>, gap: false}`, what it answers at once',
  },
  {
    pairs: PAIRS,
    file: HUB,
    code: 'const finish = () => {',
    mutators: ['BlockStatement'],
    reason:
      'the cleanup of a settled wait (clearing its timer, dropping its waiter and abort listener): a promise settles once, so a stale waiter woken or a timer firing later changes no answer; only memory a peer cannot see is kept',
  },
  ...sameReason({ pairs: PAIRS, file: HUB, mutators: ['BlockStatement'], reason: HUB_INTERNALS }, [
    'if (!Number.isSafeInteger(value) || value < 1) {',
    'if (!Number.isSafeInteger(value) || value < 0) {',
  ]),
  {
    pairs: PAIRS,
    file: HUB,
    code: "if (result.status === 'appended') publishFromEventLog(this.#hub, event);",
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      'publishing an event the store already held: publishFromEventLog keys each event by its event_id and the hub skips a key it has seen, so no item is published twice',
  },
  {
    pairs: PAIRS,
    file: HUB,
    span: { from: 'clock(communityId: string): Promise<number> {', until: 'count(communityId' },
    reason:
      "PublishingEventStore.clock, a read-through no code of the bundled node calls (appendLocal asks the wrapped store's clock itself)",
  },

  // ---------- subscribe-protocol.ts ----------
  ...sameReason({ pairs: PAIRS, file: SUBSCRIBE, mutators: TEXT_MUTATORS, reason: WORDING }, [
    'if (!known.has(name)) throw new BadRequestError(`unknown query parameter ${name}`);',
    'throw new BadRequestError(`limit must be between 1 and ${MAX_READ_LIMIT}`);',
    'throw new BadRequestError(`${name} must be a non-negative integer, got ${JSON.stringify(text)}`);',
    "throw new UnauthorizedError('the request is for another community');",
    'if (Object.hasOwn(parameters, name)) throw new BadRequestError(`the query repeats ${name}`);',
  ]),
  {
    pairs: PAIRS,
    file: SUBSCRIBE,
    code: 'if (community !== undefined && requestCommunity !== community) {',
    column: 7,
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      'the bundled node serves one community, so `community !== undefined` always holds; only the comparison of the two ids decides',
  },
  {
    pairs: PAIRS,
    file: SUBSCRIBE,
    code: "if (topic === undefined || topic === '') throw new BadRequestError('the query names no topic');",
    column: 70,
    reason: WORDING,
  },
  {
    pairs: PAIRS,
    file: SUBSCRIBE,
    code: 'if (limit !== undefined && (limit < 1 || limit > MAX_READ_LIMIT)) {',
    column: 7,
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      'a query without limit: `undefined < 1` and `undefined > 1000` are both false, so dropping the `limit !== undefined` guard refuses nothing more',
  },
  ...[
    ['ConditionalExpression', 'false'],
    ['EqualityOperator', 'limit >= MAX_READ_LIMIT'],
  ].map(([mutator, replacement]) => ({
    pairs: PAIRS,
    file: SUBSCRIBE,
    code: 'if (limit !== undefined && (limit < 1 || limit > MAX_READ_LIMIT)) {',
    column: 44,
    mutators: [mutator],
    replacement,
    reason:
      'the most items one answer may hold (MAX_READ_LIMIT, 1000), a bound of the SDK beyond the contract, which names no limit parameter',
  })),
  {
    pairs: PAIRS,
    file: SUBSCRIBE,
    span: { from: 'export function formatSubscribeQuery(', until: 'const cursorSchema' },
    reason: CLIENT_ONLY_PUBSUB,
  },
  {
    pairs: PAIRS,
    file: SUBSCRIBE,
    code: 'const cursorSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);',
    reason: CLIENT_ONLY_PUBSUB,
  },
  {
    pairs: PAIRS,
    file: SUBSCRIBE,
    code: 'export const topicReadSchema = z.strictObject({',
    reason: CLIENT_ONLY_PUBSUB,
  },
  {
    pairs: PAIRS,
    file: SUBSCRIBE,
    code: 'items: z.array(z.strictObject({ seq: cursorSchema, topic: z.string(), payload: z.unknown() })),',
    reason: CLIENT_ONLY_PUBSUB,
  },
  {
    pairs: PAIRS,
    file: SUBSCRIBE,
    code: "websocket: Object.freeze({ capability: 'pubsub.ws', version: '1.0' }),",
    reason: WS_ROUTE,
  },
  {
    pairs: PAIRS,
    file: SUBSCRIBE,
    span: { from: 'export function signedRequestHeaders(', until: '/**' },
    reason: CLIENT_ONLY_PUBSUB,
  },
  {
    pairs: PAIRS,
    file: SUBSCRIBE,
    code: 'Object.defineProperty(parameters, name, { value, enumerable: true, writable: true, configurable: true });',
    mutators: ['BooleanLiteral'],
    reason: PARAMETER_OBJECT,
  },
  {
    pairs: PAIRS,
    file: SUBSCRIBE,
    code: "if (value === null || value === '') throw new BadRequestError(`missing ${name} header`);",
    reason: MISSING_HEADER_CODE,
  },
  {
    pairs: PAIRS,
    file: SUBSCRIBE,
    span: { from: 'export function localOnlyTopic(' },
    reason: LOCAL_ONLY_WORDS,
  },
  // Added with the revoked, gap-resume, membership and client-frame cases.
  // ---------- topic-hub.ts ----------
  {
    pairs: PAIRS,
    file: HUB,
    code: 'if (state.items.length > this.#retention) {',
    mutators: ['ConditionalExpression', 'EqualityOperator', 'BlockStatement'],
    reason: RETENTION,
  },
  {
    pairs: PAIRS,
    file: HUB,
    code: 'get(eventId: string): Promise<SignedEvent | undefined> {',
    mutators: ['BlockStatement'],
    reason: GET_READ_THROUGH,
  },

  // ---------- bus-handler.ts ----------
  {
    pairs: PAIRS,
    file: BUS,
    code: "descriptor.streaming !== 'none' && call.streamRequested && validated.input['stream'] !== false;",
    column: 5,
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: NO_STREAM_FLAG_USE,
  },
  {
    pairs: PAIRS,
    file: BUS,
    code: 'revoked: -1,',
    span: { from: 'const rank: {', until: 'export function meetsTrustLevel(' },
    mutators: ['UnaryOperator'],
    reason: REVOKED_RANK,
  },

  // ---------- request-verifier.ts ----------
  {
    pairs: PAIRS,
    file: VERIFIER,
    code: 'if (known !== undefined && known > now) return false;',
    column: 9,
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: UNDEFINED_COMPARE,
  },

  // ---------- sse.ts ----------
  {
    pairs: PAIRS,
    file: SSE,
    code: '[PROGRESS_EVENT, compileSchema(PROGRESS_FRAME_DATA_SCHEMA)],',
    mutators: ['ArrayDeclaration'],
    reason: WIDE_FRAMES_UNUSED,
  },
  {
    pairs: PAIRS,
    file: SSE,
    code: '[ERROR_EVENT, compileSchema(ERROR_FRAME_DATA_SCHEMA)],',
    mutators: ['ArrayDeclaration'],
    reason: WIDE_FRAMES_UNUSED,
  },
  {
    pairs: PAIRS,
    file: SSE,
    code: 'if (!result.success) throw invalid(capability, frame.event, result.error.issues[0]?.message);',
    mutators: ['OptionalChaining'],
    reason: FRAME_WORDS,
  },
  {
    pairs: PAIRS,
    file: SSE,
    code: 'throw invalid(capability, frame.event, `${result.issues[0]?.path}: ${result.issues[0]?.message}`);',
    mutators: ['StringLiteral', 'OptionalChaining'],
    reason: FRAME_WORDS,
  },
  {
    pairs: PAIRS,
    file: SSE,
    code: "{ details: { reason: 'invalid_frame' } },",
    span: { from: 'function invalid(capability: string', until: 'export const DEFAULT_ACK_WINDOW' },
    mutators: ['ObjectLiteral', 'StringLiteral'],
    reason: FRAME_WORDS,
  },
];
