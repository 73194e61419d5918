// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the entries quote source lines, template placeholders included
// Equivalents of the `relay-connector` pair (suite relay.live × agentwire's relay connector, in-process), in the
// format of mutation/equivalents.mjs. The suite plays the Hermes gateway over one WebSocket URL: it dials /relay
// with a bearer token, says hello, sends outbound / inbound_ack / interrupt / going_idle frames and reads what the
// connector writes back. The subject (conformance cli/bundled-suites.ts startRelayConnector) is createRelayServer
// attached to its own HTTP server, with an authenticate that never throws, two echoing adapters (Discord, and
// Telegram for the chat-routing cases) that implement every op and return valid results except on the suite's
// three fault chats (they throw, return `{ message_id: 7 }`, or never settle, so that the 500 ms outbound timeout
// answers), in-memory stores, 250 inbound events buffered before the run, a 500 ms ping interval, small
// per-connection bounds stated as the suite's `limits`, a second gateway of another tenant, and the operator calls
// (deliverInbound, deliverInterrupt, revoke, each platform's recorded calls and interrupts, bindCapability) wired
// for the operator.* cases.
// Each entry below was read against that interface and that subject.
import { sameReason, sameReasonSpans, TEXT_MUTATORS } from './shared.mjs';

const PAIRS = ['relay-connector'];
const SERVER = 'packages/relay/src/server/relay-server.ts';
const CONNECTION = 'packages/relay/src/server/gateway-connection.ts';
const OUTBOUND = 'packages/relay/src/server/outbound.ts';
const RECENT = 'packages/relay/src/server/recent-chats.ts';

const OPERATOR_API =
  "the server's operator API and lifecycle (address, port, connections, start's listen branch for a server it owns, close, the closed-server refusals, the tenant and argument checks of deliverInbound / forwardPassthrough / deliverInterrupt): a gateway cannot call any of it; the subject attaches to its own listening server, passes a valid tenant, and is stopped only after the suite";
const EVENTS_AND_LOGS =
  "the server's events and logging (connection, session, disconnect, rejected, backpressure, warning, error, and the logger fallback): they tell the operator, and nothing of them goes to the gateway";
const OTHER_PATHS =
  'what the server answers an upgrade for another path than /relay (a 404, or leaving it to another listener of an attached server): a gateway dials `<base>/relay` without a query (relay-reference §2.1), the path the suite dials';
const AUTH_FAILURES =
  "an authenticate callback that throws or rejects (1011 'authentication unavailable'), a socket destroyed before the upgrade completes and an upgrade completing while the server closes: the subject's authenticate is synchronous and never throws, and the suite never stops the server";
const CLOSED_BOOKKEEPING =
  "what the server does once a socket is closed (dropping it from its map, stopping the replay pump, aborting running calls, unsubscribing from the bus): the gateway's side of that socket is gone, and the next connection of the gateway gets a fresh GatewayConnection with its own pump and subscription";
const FAST_PATH =
  "orderedResultFast, a fast path that returns an adapter's result in the op schema's key order or leaves it to the schema (op-result.test.ts checks both agree): for the echo adapter's results (plain objects, valid values, success first, no extra key, no `ambiguous`) every variant gives the same JSON values, and the order of an object's keys means nothing to the gateway, which reads a dict; the malformed chat's `{ message_id: 7 }` fails both the `success` check and the `message_id` check, and one mutant removes at most one of them, so it still goes to the schema and is refused";
const ADAPTER_RESULT_CHECKS =
  "the refusal of an adapter result the echo adapter never returns (not an object, not JSON, `ambiguous` set, a non-finite number the line encoder refuses): its results are plain JSON objects without `ambiguous`, the malformed chat's `{ message_id: 7 }` included, and a gateway cannot make an adapter return anything else";
const INVALID_RESULT_WORDING =
  "the text of the failure that answers an adapter result off the op's schema (the malformed chat's): outbound.platform-malformed-refused requires success: false with a non-empty error, and relay-reference §7.2 leaves the text to the connector";
const SAME_FAILURE =
  'both ways answer the frame with success: false; only the error text, which the contract leaves to the connector, differs';
const WORDING =
  'wording of an error text, a RelayError code or a close reason the gateway never reads: relay-reference §7.2 surfaces `error` as free text, and the server closes only with codes the suite checks';
const BUFFERED_LINE_FAST_PATH =
  "bufferedFrameLine's splice of `bufferId` into the stored text of an inbound frame, a fast path whose bytes equal the encoder's (outbound.buffered-frame-line.test.ts): the subject buffers only inbound frames, which both paths write alike";
const MESSAGE_GROUPING =
  "how replayed lines are grouped into WebSocket messages: the gateway's reader concatenates messages and splits them on newlines (relay-reference §2.3), so the same lines in the same order read the same; every variant here still ends a message within the room left under maxBufferedAmount (1 MiB by default, the gateway's own message limit, which framing.messages-within-gateway-limit checks with a replay of about 3 MB)";
const PUMP_FLAGS =
  'a flag of the replay pump that is set again before it is read (`#wokenWhileRunning` at the start of each loop), or a wake-up after stop, whose pass returns at once when stopped: the pump sends the same lines';
const CACHED_DESCRIPTOR =
  'the cache of encoded descriptor lines: a descriptor encoded again is the same line';

const AUTH_CLOSE_CALLER =
  "relayAuthClose's check of its argument and its answer for a valid verification: the server calls it only with a refused verification (upgradeAuth), whose close code and reason the auth cases check; the tokens unit tests check the rest";
const UNKNOWN_REQUEST_ID =
  'an outbound_result for a requestId the gateway never sent (a malformed frame of another type that carries a `requestId`, or one that is not a string): relay-reference §2 has the gateway ignore an unknown requestId, and the Hermes gateway writes a `uuid4().hex` string in every outbound and in nothing else';
const MESSAGE_CUTS =
  "where #drain cuts a received message before the line decoder: every cut hands the decoder the same text in the same order (a Buffer's slice and subarray are the same view), so the same lines are answered once each; a cut only decides how much is decoded before a hold is noticed";
const ABORT_BOOKKEEPING =
  "what a running call's abort tells the platform (its signal, an abort after the call finished, a call started after the connection closed, the aborts at close): the gateway's answer comes from the timeout or was already sent, and the echo platform's hung call never reads its signal";
const TIMER_ARMING =
  'how the timeout timer is armed (one timer for the oldest call, re-armed after each sweep): another timer or an earlier wake-up sweeps the same deadlines, so every call is answered when its own timeout has passed, as outbound.platform-hang-timed-out checks';

const DROP_BOOKKEEPING =
  "what the server does at once when BoundedSocket drops a socket for a limit (closed() before the close event, and the warning): BoundedSocket sends the close frame and tears the socket down itself, the server's close listener calls closed() right after, and meanwhile nothing reaches the gateway (the sender is no longer open); that frames later in the message that passed the limit are still handled (an inbound_ack applied, an interrupt handed to the adapter) is the gateway's own doing, which the contract does not rule on";
const REFUSED_HELLO_WARNING =
  'whether a hello for an unserved platform is reported on the warning event when it is not the line that drops the connection: it is counted the same (limits.refused-lines-drop), and the warning goes to the operator, not the gateway';
const AFTER_DROP =
  'what the caller of #refused does after the connection was dropped (the limit named in the close reason and the warning, and whether it goes on to warn, or to answer a malformed outbound, which #send drops on the closed connection): the gateway reads the close code, 1008, which limits.refused-lines-drop and limits.identities-drop check, and nothing else reaches it';
const UNANSWERED_HOLD =
  "when the server stops reading a connection while more than 1 000 of its acks and interrupts run: the subject's in-memory buffer and the echo adapter's onInterrupt settle each within microtasks of the message that started it, so with that hold, without it, or with one on every such frame (released once they settle), the same lines are read and answered in the same order; limits.unanswered-burst-then-served checks that reading resumes after a burst past the bound. Only a slow store or adapter and a clock could show the hold, and then only as when lines are read, never as what is answered";

const ROUTE_CHAT =
  "the `routeChat` rule, an option of the SDK's server beyond the contract (the pair leaves its method out; chat-routing.test.ts checks it): the subject configures none, so #routeChat answers undefined whether and with what it is asked, and what a route would do never happens";
const ABSENT_LOOKUP =
  'a lookup of a chat or session key that is not a string: the memory is keyed by `<tenant>\n<text>`, so it answers undefined, as the branch it replaces does (no event names a chat or session "undefined")';
const SESSION_FIRST =
  "the chat id taken from the frame even when it is not a string: it feeds only routeChat (not configured) and the chat's platform, which is read only when the session's own platform is unknown — and then both give undefined";
const CHECKED_SOURCE =
  "remember's guards against a source it cannot read: the server hands it only the source of an inbound frame deliverInbound already checked (an object with a string platform and chat_id, which buildSessionKey keys)";
const MEMORY_BOUND =
  'the bound on remembered chats and sessions (10 000 per server, the least recently delivered forgotten first): a case would have to deliver more than 10 000 events; chat-routing.test.ts checks the eviction with a small limit';
const NO_ADAPTER_TO_TELL =
  "an interrupt with no adapter to tell (before any hello; the subject's adapters all have onInterrupt): calling nothing throws a TypeError that the server reports on its error event and the connection serves on, as interrupt.before-hello checks; an adapter's onInterrupt that throws is likewise reported and never reaches the gateway";
const REVOKE_COUNT =
  "the count revoke returns: the operator's, never the gateway's (the revocation cases read the close the gateway gets)";
const TOUCH_SKIP =
  'whether a chat delivered again while it is the newest is left where it is: without the skip it is deleted and set again, the same chat with the same platform; with the skip widened, a chat delivered again stays where it was in the order, which changes only which chat the 10 000 bound forgets first';
const WAKE_UP_COALESCING =
  "how #wakeUp coalesces a tenant's `buffered` wake-ups (publishing at once instead of after the one under way, keeping the state a little longer or dropping it sooner): every variant publishes after each append, only more often; the subject's in-memory buffer and bus settle each append before the first wake-up is delivered, so the overlapping calls of operator.concurrent-inbound-all-arrive get every line once whichever way. (The follow-up publish skipped — `&&=`, or a follow-up that publishes nothing — is a real mistake and is not listed: see docs/conformance.md)";
const PUBLISH_FAILURE =
  "what a failed `buffered` publish does: it is reported on the error event (a throwing error listener cannot stop the tenant's later wake-ups), and nothing of it reaches the gateway; the subject's in-memory bus never refuses a valid message";

/** @type {import('../equivalents.mjs').Equivalent[]} */
export default [
  // The routing of frames without a platform (relay.live 1.2.0 chat-routing.*): what no gateway can tell apart.
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: 'if (platform === undefined || !this.#identities.some((identity) => identity.platform === platform)) {',
    mutators: ['ConditionalExpression'],
    reason:
      '`platform === undefined` alone, made false: the check after it already holds for an unknown platform, since no announced identity has an undefined platform',
  },
  ...sameReason({ pairs: PAIRS, file: CONNECTION, reason: ROUTE_CHAT }, [
    "const route = chatId === undefined || op === 'unknown' ? undefined : await this.#routeChat(chatId, op);",
    "if (typeof route === 'object' && 'failure' in route) return route.failure;",
    'if (route !== undefined) {',
    "({ platform, botId } = typeof route === 'string' ? { platform: route, botId: undefined } : route);",
    "chosen = 'routeChat';",
    ': `routeChat chose platform ${who}, which was not announced in a hello on this connection`;',
  ]),
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: "typeof action.session_key === 'string'",
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: ABSENT_LOOKUP,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: '(chatId === undefined ? undefined : this.#host.recentChats.platformOf(this.tenant, chatId));',
    mutators: ['ConditionalExpression'],
    reason: ABSENT_LOOKUP,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: "const chatId = typeof action.chat_id === 'string' ? action.chat_id : session?.chatId;",
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: SESSION_FIRST,
  },
  ...sameReason(
    {
      pairs: PAIRS,
      file: CONNECTION,
      mutators: [...TEXT_MUTATORS, 'ConditionalExpression', 'EqualityOperator'],
      reason: WORDING,
    },
    [
      "let chosen: 'platform' | 'routeChat' = 'platform';",
      'const who = botId === undefined ? platform : `${platform}/${botId}`;',
      "return chosen === 'platform'",
    ],
  ),
  ...sameReason({ pairs: PAIRS, file: CONNECTION, reason: NO_ADAPTER_TO_TELL }, [
    'if (identity === undefined || onInterrupt === undefined) return;',
    "this.#host.fail(callbackError('onInterrupt', error));",
  ]),
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: 'chatId: ofChat === undefined ? undefined : chat?.chatId,',
    mutators: ['OptionalChaining'],
    reason:
      'ofChat is found only by the platform of a chat that exists, so `chat` is defined wherever it is read',
  },
  ...sameReasonSpans({ pairs: PAIRS, file: RECENT, reason: CHECKED_SOURCE }, [
    { from: '  remember(tenant: string, source: unknown): void {', until: '    const chat: RecentChat =' },
    { from: '    } catch {', until: '    this.#sessions.touch(' },
  ]),
  ...sameReasonSpans({ pairs: PAIRS, file: RECENT, reason: MEMORY_BOUND }, [
    { from: '  constructor(limit: number) {', until: '  touch(key: string' },
    { from: '    if (this.#map.size > this.#limit) {', until: '  get(key: string)' },
  ]),
  { pairs: PAIRS, file: RECENT, code: 'if (key === this.#newest) {', reason: TOUCH_SKIP },
  {
    pairs: PAIRS,
    file: RECENT,
    code: 'if (current?.platform === chat.platform && current.chatId === chat.chatId) return;',
    reason: `${TOUCH_SKIP}. The newest key is always in the map (\`?.\` reads as \`.\`), and its chat id is the one its key names. Made \`true\` (the chat stays on the platform it had), the mutant is one the suite fails when applied by hand — chat-routing.frame-without-platform-to-chat-platform delivers a chat on the second platform and then on the first, and routes to the first — though Stryker's per-case coverage does not credit that case with it`,
  },
  {
    pairs: PAIRS,
    file: SERVER,
    code: "if (frame.type === 'inbound') this.#recentChats.remember(tenant, frame.event['source']);",
    mutators: ['ConditionalExpression'],
    reason:
      'inboundFrame always builds an inbound frame (the check narrows the type of what deliverInbound buffers, which includes passthrough frames)',
  },
  { pairs: PAIRS, file: SERVER, code: 'closed += 1;', reason: REVOKE_COUNT },
  // relay-server.ts: the wake-ups after an append.
  ...sameReason({ pairs: PAIRS, file: SERVER, reason: WAKE_UP_COALESCING }, [
    'if (pending !== undefined) {',
    'void state.running.then(() => {',
    'if (this.#wakeUps.get(tenant) === state && state.next === undefined) this.#wakeUps.delete(tenant);',
  ]),
  {
    pairs: PAIRS,
    file: SERVER,
    code: 'const state = { running: Promise.resolve(), next: undefined as Promise<void> | undefined };',
    mutators: ['ObjectLiteral'],
    reason:
      'the first value of the state: `running` is set on the next line, and an absent `next` reads as the undefined given',
  },
  ...['(error: unknown) => {', 'try {', '} catch {'].map((code) => ({
    pairs: PAIRS,
    file: SERVER,
    span: {
      from: '  #publishWakeUp(tenant: string): Promise<void> {',
      until: '    this.#wakeUps.set(tenant, state);',
    },
    code,
    reason: PUBLISH_FAILURE,
  })),
  // relay-server.ts: the operator's side.
  ...[
    { from: 'address(): AddressInfo {', until: '/** Starts listening' },
    { from: 'close(): Promise<void> {', until: '  async #buffered(' },
    { from: 'function checkTenant(' },
  ].map((span) => ({ pairs: PAIRS, file: SERVER, span, reason: OPERATOR_API })),
  ...[
    'this.#httpServer = options.server ?? createServer((_request, response) => response.writeHead(404).end());',
    'this.#ownsHttpServer = options.server === undefined;',
    'await new Promise<void>((resolve, reject) => {',
    "this.#httpServer.once('error', reject);",
    'this.#httpServer.listen(listen.port, listen.host, () => {',
    "this.#httpServer.off('error', reject);",
    "this.#assertOpen('deliverInbound');",
    "this.#assertOpen('forwardPassthrough');",
    "this.#assertOpen('deliverInterrupt');",
    "this.#assertOpen('bindCapability');",
    "if (typeof sessionKey !== 'string' || typeof chatId !== 'string') {",
    "throw new RelayError('relay_server_invalid_input', 'sessionKey and chatId must be strings', {",
    "path: 'sessionKey',",
    'return { bufferId };',
  ].map((code) => ({ pairs: PAIRS, file: SERVER, code, reason: OPERATOR_API })),
  {
    pairs: PAIRS,
    file: SERVER,
    span: { from: 'export async function createRelayServer', until: 'function requestPath' },
    mutators: ['BlockStatement'],
    reason: OPERATOR_API,
  },
  ...[{ from: '  #warn(error: Error): void {', until: '/**' }].map((span) => ({
    pairs: PAIRS,
    file: SERVER,
    span,
    reason: EVENTS_AND_LOGS,
  })),
  ...[
    "this.emit('rejected', { reason: result.reason, detail: result.detail });",
    "'disconnect',",
    'dropped === undefined',
    "? { ...info, code, reason: reason.toString('utf8') }",
    ': { ...info, code: RELAY_CLOSE_PEER_LIMIT, reason: dropped },',
    "this.emit('connection', info);",
    'activated: (connection) => {',
    'if (identity === undefined) return;',
    "this.emit('session', {",
    'backpressure: ({ connectionId, gatewayId, tenant }, bufferedAmount) =>',
    "this.emit('backpressure', { connectionId, gatewayId, tenant, bufferedAmount }),",
    'warn: (error) => this.#warn(error),',
    'fail: (error) => this.#fail(error),',
    "this.#fail(callbackError('bus.publish', error))",
    "this.#fail(error instanceof Error ? error : callbackError('authenticate', error));",
  ].map((code) => ({ pairs: PAIRS, file: SERVER, code, reason: EVENTS_AND_LOGS })),
  // `ws.on('error', …)` under another event name would leave a socket error unhandled: only the listener's body is a log.
  {
    pairs: PAIRS,
    file: SERVER,
    code: "ws.on('error', (error) => this.#warn(error));",
    mutators: ['ArrowFunction'],
    reason: EVENTS_AND_LOGS,
  },
  ...[
    'if (requestPath(request) !== this.#options.path) {',
    "if (!this.#ownsHttpServer && this.#httpServer.listenerCount('upgrade') > 1) return;",
    "socket.end('HTTP/1.1 404 Not Found\\r\\nConnection: close\\r\\nContent-Length: 0\\r\\n\\r\\n');",
    "const url = request.url ?? '/';",
    'return query < 0 ? url : url.slice(0, query);',
  ].map((code) => ({ pairs: PAIRS, file: SERVER, code, reason: OTHER_PATHS })),
  ...[
    "socket.on('error', () => socket.destroy());",
    'if (socket.destroyed) return;',
    "if (result === undefined) ws.close(1011, 'authentication unavailable');",
    "} else if (this.#closing !== undefined) ws.close(1001, 'server closing');",
  ].map((code) => ({ pairs: PAIRS, file: SERVER, code, reason: AUTH_FAILURES })),
  {
    pairs: PAIRS,
    file: SERVER,
    code: '(error: unknown) => {',
    span: { from: '  #upgrade(request: IncomingMessage', until: '/** Completes the upgrade' },
    reason: AUTH_FAILURES,
  },
  ...["ws.once('close', (code, reason) => {"].map((code) => ({
    pairs: PAIRS,
    file: SERVER,
    code,
    reason: CLOSED_BOOKKEEPING,
  })),

  // gateway-connection.ts
  ...[
    'get phase(): ConnectionPhase {',
    'get bufferedAmount(): number {',
    'get dropped(): PeerLimit | undefined {',
  ].map((code) => ({
    pairs: PAIRS,
    file: CONNECTION,
    code,
    mutators: ['BlockStatement'],
    reason:
      'a getter only the server reads for its operator API and events (connections, disconnect); a gateway sees none of it',
  })),
  ...[
    'closed(): void {',
    "if (this.#phase === 'closed') return;",
    "this.#phase = 'closed';",
    "this.#running.closeAll(new RelayError('relay_server_connection_closed', 'the gateway connection closed'));",
    '#unsubscribe(): void {',
    '?.then((subscription) => subscription?.unsubscribe())',
    ".catch((error: unknown) => this.#host.fail(callbackError('bus.unsubscribe', error)));",
    "if (this.#phase !== 'closed') this.#sender.send(line);",
  ].map((code) => ({ pairs: PAIRS, file: CONNECTION, code, reason: CLOSED_BOOKKEEPING })),
  ...[
    "this.#host.fail(callbackError('buffer.ack', error));",
    "onError: (error) => host.fail(callbackError('buffer.read', error)),",
    "this.#host.fail(callbackError('bus.subscribe', error));",
    "this.#host.fail(callbackError('bus.publish', error));",
  ].map((code) => ({ pairs: PAIRS, file: CONNECTION, code, reason: EVENTS_AND_LOGS })),
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: 'if (line === undefined) {',
    reason: CACHED_DESCRIPTOR,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: 'if (chunk.length === 0) return;',
    reason:
      'an empty WebSocket message holds no line: queued, it is decoded to nothing, and the next message is handled as before',
  },
  ...[
    `\`no platform adapter for hello platform \${JSON.stringify(hello.platform)}\`,`,
    "{ path: 'platform', details: { platform: hello.platform } },",
    "'relay_server_unknown_platform',",
  ].map((code) => ({ pairs: PAIRS, file: CONNECTION, code, mutators: TEXT_MUTATORS, reason: WORDING })),

  {
    pairs: PAIRS,
    file: CONNECTION,
    code: 'this.#host.buffer.ack(this.tenant, frame.bufferId).catch((error: unknown) => {',
    mutators: ['BlockStatement'],
    reason: EVENTS_AND_LOGS,
  },
  // The two `.catch` handlers of #activate (bus.subscribe, bus.publish) only log.
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: '.catch((error: unknown) => {',
    span: { from: '  async #activate(): Promise<void> {', until: '  #busMessage(' },
    mutators: ['BlockStatement'],
    reason: EVENTS_AND_LOGS,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: 'if (subscription !== undefined) {',
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      'the in-memory bus of the subject never fails a subscription, so `subscription` is always defined and the takeover is always published',
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: 'default:',
    exact: true,
    mutators: ['ConditionalExpression'],
    reason:
      'the default clause is the last one and only returns: emptied, control leaves the switch the same way',
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: 'if (this.#received.length === 1) this.#drain();',
    mutators: ['ConditionalExpression'],
    reason:
      '#drain runs synchronously until the queue is empty unless reading is held, and then returns at once: draining on every message instead of on the first queued one handles the same lines in the same order',
  },
  ...[
    "while (received.length > 0 && this.#sender.reading && this.#phase !== 'closed') {",
    "if (this.#phase === 'closed') received.length = 0;",
  ].map((code) => ({
    pairs: PAIRS,
    file: CONNECTION,
    code,
    column: code.startsWith('while') ? undefined : 9,
    reason: CLOSED_BOOKKEEPING,
  })),
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: "if (this.#phase === 'closed') received.length = 0;",
    mutators: ['StringLiteral'],
    reason: CLOSED_BOOKKEEPING,
  },
  ...['} catch (error) {', 'if (!isFrameError(error)) throw error;'].map((code) => ({
    pairs: PAIRS,
    file: CONNECTION,
    code,
    span: { from: '  #answer(requestId: string', until: '  async #interrupt(' },
    reason: ADAPTER_RESULT_CHECKS,
  })),
  {
    pairs: PAIRS,
    file: CONNECTION,
    span: {
      from: '        chatId: ofChat === undefined ? undefined : chat?.chatId,',
      until: '  #send(line: string)',
    },
    mutators: ['BlockStatement'],
    reason: NO_ADAPTER_TO_TELL,
  },

  // outbound.ts
  // Not a mutant that stops leaving get_chat_info (which has no key table) to the schema: it then crashes.
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'export function orderedResultFast(op: OutboundOp, value: Record<string, unknown>): object | undefined {',
    mutators: ['BlockStatement'],
    reason: FAST_PATH,
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'if (keys === undefined || Object.getPrototypeOf(value) !== Object.prototype) return undefined;',
    column: 29,
    reason: FAST_PATH,
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'if (keys === undefined || Object.getPrototypeOf(value) !== Object.prototype) return undefined;',
    column: 7,
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: FAST_PATH,
  },
  ...[
    "if (Object.hasOwn(value, '__proto__') || !Object.hasOwn(value, 'success')) return undefined;",
    'for (const [key, accepts] of keys) {',
    'if (!Object.hasOwn(value, key)) continue;',
    'if (item === undefined || !accepts(item)) return undefined;',
    "if (key !== 'ambiguous') ordered[key] = item;",
    'for (const key in value) {',
    "if (!Object.hasOwn(value, key) || Object.hasOwn(ordered, key) || key === 'ambiguous') continue;",
    'if (item === undefined) return undefined;',
  ].map((code) => ({ pairs: PAIRS, file: OUTBOUND, code, reason: FAST_PATH })),
  ...[
    'const isBoolean = (value: unknown) => typeof value === ',
    'const isString = (value: unknown) => typeof value === ',
    'const isStringOrNull = (value: unknown) => value === null || typeof value === ',
    'const isAnything = () => true;',
    'const BASE_KEYS: readonly ResultKey[] = [',
    "['success', isBoolean],",
    "['error', isString],",
    "['code', isString],",
    "['raw_response', isAnything],",
    "['ambiguous', isBoolean],",
    "const MESSAGE_KEYS: readonly ResultKey[] = [...BASE_KEYS, ['message_id', isStringOrNull]];",
    'const THREAD_KEYS: readonly ResultKey[] = [',
    "['thread_id', isStringOrNull],",
    "['message_id', isStringOrNull],",
    'const RESULT_KEYS: { readonly [Op in OutboundOp]?: readonly ResultKey[] } = {',
  ].map((code) => ({ pairs: PAIRS, file: OUTBOUND, code, reason: FAST_PATH })),
  // normalizeOpResult: only narrowing the refusal of a non-object is unseen (the echo adapter returns objects).
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: "if (value === null || typeof value !== 'object' || Array.isArray(value)) {",
    mutators: ['ConditionalExpression', 'LogicalOperator'],
    replacement: 'false',
    reason: ADAPTER_RESULT_CHECKS,
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: "if (value === null || typeof value !== 'object' || Array.isArray(value)) {",
    mutators: ['LogicalOperator'],
    reason: ADAPTER_RESULT_CHECKS,
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'return failureResult(`${op}: the platform adapter returned no result object`);',
    reason: ADAPTER_RESULT_CHECKS,
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'return ordered === undefined ? normalizeBySchema(op, value) : plainResult(op, ordered);',
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: FAST_PATH,
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'if (!parsed.success) {',
    mutators: ['ConditionalExpression', 'BlockStatement'],
    reason:
      "a valid result parses, so only an invalid one (the malformed chat's) goes on: plainResult of the failed parse's undefined data is refused as not JSON, or the delete after it throws and executeOutbound's rejection handler answers the error: either way success: false with a non-empty error text, only its wording differs",
  },
  // Not the template of that text: emptied, the error is '' and the fault case requires a non-empty one.
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'const where = jsonPath(issue?.path ?? []);',
    reason: INVALID_RESULT_WORDING,
  },
  ...[
    "delete result['ambiguous'];",
    '`${op}: the platform adapter returned a result that is not JSON (${copy.refusal.message})`,',
  ].map((code) => ({ pairs: PAIRS, file: OUTBOUND, code, reason: ADAPTER_RESULT_CHECKS })),
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'if (copy.ok) return copy.value as Record<string, unknown>;',
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: ADAPTER_RESULT_CHECKS,
  },
  // executeOutbound: an unknown op and an op the adapter lacks both give success: false.
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: "if (action.op === 'unknown') {",
    mutators: ['ConditionalExpression', 'StringLiteral', 'BlockStatement'],
    reason: `an unknown op then reaches the check of the adapter's ops, which has no 'unknown' op: ${SAME_FAILURE}`,
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'return Promise.resolve(failureResult(`unsupported op ${JSON.stringify(action.rawOp ?? null)}`));',
    reason: WORDING,
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: "if (typeof platform.adapter[op] !== 'function') {",
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      'the echo adapter implements every op (and the server advertises only the ops its adapter implements, which are all the gateway sends besides an unknown op, refused before)',
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'return Promise.resolve(failureResult(`op ${op} is not supported by platform ${platform.name}`));',
    reason: WORDING,
  },
  ...[
    'await adapter.send?.(action, context)',
    'await adapter.edit?.(action, context)',
    'await adapter.typing?.(action, context)',
    'await adapter.get_chat_info?.(action, context)',
    'await adapter.send_media?.(action, context)',
    'await adapter.prompt?.(action, context)',
    'await adapter.react?.(action, context)',
    'await adapter.thread_create?.(action, context)',
    'await adapter.thread_rename?.(action, context)',
    'await adapter.follow_up?.(action, { ...context, credential: lookup.credential })',
  ].map((code) => ({
    pairs: PAIRS,
    file: OUTBOUND,
    code,
    mutators: ['OptionalChaining'],
    reason:
      'executeOutbound calls runAdapter only after checking that the adapter has the op as a function, so `?.` and `.` behave alike',
  })),
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: "if (Object.hasOwn(result, '__proto__')) return encodeFrame({ type: 'outbound_result', requestId, result });",
    reason:
      "outboundResultLine's direct writing of the line equals encodeFrame's bytes for a result the server built (outbound.outbound-result-line.test.ts), and the echo adapter's results hold no own `__proto__` key",
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'const MAX_BATCH_MESSAGE_LENGTH = 64 * 1024;',
    reason: MESSAGE_GROUPING,
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'return line.head.length - (line.dropsClosingBrace ? 1 : 0) + line.tail.length;',
    mutators: ['ArithmeticOperator'],
    reason: MESSAGE_GROUPING,
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'const room = Math.min(MAX_BATCH_MESSAGE_LENGTH, maxBufferedAmount - sender.backlog);',
    reason: MESSAGE_GROUPING,
  },
  { pairs: PAIRS, file: OUTBOUND, code: '#wokenWhileRunning = false;', exact: true, reason: PUMP_FLAGS },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'if (this.#stopped) return;',
    exact: true,
    mutators: ['ConditionalExpression'],
    reason: PUMP_FLAGS,
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'const INBOUND_PREFIX = \'{"type":"inbound","event":\';',
    reason: BUFFERED_LINE_FAST_PATH,
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: "if (frameJson.startsWith(INBOUND_PREFIX) && frameJson.endsWith('}')) {",
    reason: BUFFERED_LINE_FAST_PATH,
  },
  // Added with relay.live's platformCalls, follow_up binding, going-idle and timing cases.
  {
    pairs: PAIRS,
    file: 'packages/relay/src/auth.ts',
    span: { from: 'export function relayAuthClose(result: RelayTokenVerification)', until: '  return {' },
    reason: AUTH_CLOSE_CALLER,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: 'this.#decoder = new FrameDecoder({ decode: decodeGatewayFrame, maxLineBytes: host.options.maxPayload });',
    mutators: ['ObjectLiteral'],
    reason:
      "FrameDecoder's defaults: decodeFrame reads every gateway frame as decodeGatewayFrame does (they differ only on connector-side frame types, which #dispatch ignores either way), and its default line bound (1 MiB) is maxPayload's default, which the subject keeps",
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: 'if (this.#ws.readyState !== this.#ws.OPEN) return;',
    mutators: ['ConditionalExpression'],
    reason:
      'a heartbeat that finds its socket closing: the server drops a connection from its map when its socket closes, so only a tick landing between a close frame and the close event reaches the ping, a moment no gateway can arrange',
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: "const newline = chunk.indexOf('\\n', this.#receivedOffset);",
    mutators: ['StringLiteral'],
    reason: MESSAGE_CUTS,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: 'const end = newline === -1 ? chunk.length : newline + 1;',
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: MESSAGE_CUTS,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: 'start === 0 && end === chunk.length',
    exact: true,
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason: MESSAGE_CUTS,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: ": typeof chunk === 'string'",
    mutators: ['ConditionalExpression'],
    reason: MESSAGE_CUTS,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: "if (error.code !== 'invalid_frame' || error.details?.frameType !== 'outbound') return;",
    reason: UNKNOWN_REQUEST_ID,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: "const requestId = error.details.raw?.['requestId'];",
    mutators: ['OptionalChaining'],
    reason:
      'every invalid_frame error of the frame decoder carries the raw object it refused, so `?.` and `.` read the same',
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: "if (typeof requestId === 'string')",
    exact: true,
    reason: UNKNOWN_REQUEST_ID,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: "this.close(1000, 'replaced');",
    mutators: ['StringLiteral'],
    reason: WORDING,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: "if (this.#phase !== 'active') return;",
    exact: true,
    reason:
      'a bus message for a connection that is no longer active: going idle or closing drops its subscription before anything the gateway does next can publish, so nothing reaches the check (operator.going-idle-holds-events delivers an event and an interrupt after going_idle_ack and sees neither)',
  },
  { pairs: PAIRS, file: OUTBOUND, code: 'get signal() {', reason: ABORT_BOOKKEEPING },
  { pairs: PAIRS, file: OUTBOUND, code: 'if (controller === undefined) {', reason: ABORT_BOOKKEEPING },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'if (abortedWith !== undefined) controller.abort(abortedWith);',
    reason: ABORT_BOOKKEEPING,
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'if (this.#closedWith !== undefined) entry.abort(this.#closedWith);',
    reason: ABORT_BOOKKEEPING,
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'closeAll(reason: RelayError): void {',
    mutators: ['BlockStatement'],
    reason: ABORT_BOOKKEEPING,
  },
  { pairs: PAIRS, file: OUTBOUND, code: 'if (this.#timer !== undefined) return;', reason: TIMER_ARMING },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'this.#timer = setTimeout(this.#sweep, Math.max(0, oldest.value.deadline - performance.now()));',
    mutators: ['MethodExpression'],
    reason: TIMER_ARMING,
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'if (entry.deadline > now) break;',
    mutators: ['EqualityOperator'],
    replacement: '>=',
    reason: TIMER_ARMING,
  },
  ...[
    "'relay_server_outbound_timeout',",
    '`${entry.op} did not complete within ${this.#timeoutMs} ms`,',
    'details: { op: entry.op, timeoutMs: this.#timeoutMs },',
  ].map((code) => ({ pairs: PAIRS, file: OUTBOUND, code, mutators: TEXT_MUTATORS, reason: WORDING })),
  {
    pairs: PAIRS,
    file: OUTBOUND,
    span: { from: 'export function lineText(', until: '/**' },
    reason:
      'lineText is not called by the server (replay writes lines with utf8Lines); it is a helper of the unit tests',
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: "return { head: JSON.stringify(wire), dropsClosingBrace: false, tail: '\\n' };",
    reason: BUFFERED_LINE_FAST_PATH,
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'const wire = frameToWireObject({ ...decodeBufferedFrame(frameJson), bufferId });',
    reason: BUFFERED_LINE_FAST_PATH,
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'if (end > start && length + lineLength(line) > room) break;',
    column: 26,
    reason: MESSAGE_GROUPING,
  },
  {
    pairs: PAIRS,
    file: SERVER,
    code: 'if (listen !== undefined && !this.#httpServer.listening) {',
    reason: OPERATOR_API,
  },
  {
    pairs: PAIRS,
    file: SERVER,
    code: 'if (interval > 0 && this.#heartbeat === undefined) {',
    mutators: ['ConditionalExpression', 'LogicalOperator', 'EqualityOperator'],
    reason:
      "start runs once (createRelayServer), with the subject's interval of 500 ms: the timer is started exactly when the original starts it; stopping at an interval of 0 (which the subject does not use) is the other half, and connection.unanswered-pings-dropped kills the mutants that never start it",
  },
  {
    pairs: PAIRS,
    file: SERVER,
    span: { from: '  async forwardPassthrough(', until: '  /**' },
    reason: OPERATOR_API,
  },
  {
    pairs: PAIRS,
    file: SERVER,
    code: 'return { delivered: (await this.#stores.bus.publish(tenant, message)) > 0 };',
    reason: OPERATOR_API,
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: '`${op}: the platform adapter returned an invalid result (${issue?.message} at ${where})`,',
    mutators: ['OptionalChaining'],
    reason: 'a failed parse has at least one issue, so `?.` and `.` read the same',
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: "if (value === null || typeof value !== 'object' || Array.isArray(value)) {",
    mutators: ['BlockStatement'],
    reason: ADAPTER_RESULT_CHECKS,
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: "if (typeof platform.adapter[op] !== 'function') {",
    mutators: ['BlockStatement'],
    reason:
      'the echo adapter implements every op, so the refusal of an op the adapter lacks is never reached',
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: '{',
    exact: true,
    span: { from: '  readonly #sweep = () => {', until: '  constructor(timeoutMs' },
    mutators: ['ObjectLiteral'],
    reason: WORDING,
  },
  ...[
    'if (this.#stopped) return false;',
    'if (!(await this.#roomToSend())) return false;',
    'if (sent === 0) return false;',
  ].map((code) => ({
    pairs: PAIRS,
    file: OUTBOUND,
    code,
    reason:
      "the pump's exits for a pass that finds itself stopped or its socket closed: a held gateway's going_idle is read only once the backlog has drained (the server does not read it meanwhile), when the pump no longer waits, and a closed socket sends nothing whatever the pass does next",
  })),
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: '} catch (error) {',
    span: { from: '  async #run(): Promise<void> {', until: '  /** Sends one batch' },
    reason: EVENTS_AND_LOGS,
  },
  // The per-connection limits (relay.live's `limits` cases).
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: '{ onDrop: (error) => this.#dropped(error), onResume: () => this.#drain() },',
    column: 17,
    mutators: ['ArrowFunction'],
    reason: DROP_BOOKKEEPING,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: '#dropped(error: RelayError): void {',
    mutators: ['BlockStatement'],
    reason: DROP_BOOKKEEPING,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: 'if (!this.#refused())',
    mutators: ['BooleanLiteral'],
    reason: REFUSED_HELLO_WARNING,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: "this.#sender.drop('bad_frames', `more than ${MAX_REFUSED_LINES} lines refused on one connection`);",
    mutators: ['StringLiteral'],
    reason: AFTER_DROP,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: 'return true;',
    span: { from: '#refused(): boolean {', until: '#hello(hello: HelloFrame): void {' },
    mutators: ['BooleanLiteral'],
    reason: AFTER_DROP,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: "this.#sender.drop('identities', `more than ${maxIdentities} identities said hello on one connection`);",
    mutators: ['StringLiteral'],
    reason: AFTER_DROP,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: '#unanswered(work: Promise<unknown>): void {',
    mutators: ['BlockStatement'],
    reason: UNANSWERED_HOLD,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: 'this.#unansweredCount += 1;',
    mutators: ['AssignmentOperator'],
    reason: UNANSWERED_HOLD,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: "if (this.#unansweredCount > MAX_UNANSWERED) this.#sender.hold('unanswered');",
    mutators: ['ConditionalExpression', 'EqualityOperator'],
    reason: UNANSWERED_HOLD,
  },
  // Released on every settled frame, or only below the bound: it is still released once all settle.
  // (Never released, `false` or `>`, leaves the connection unread: limits.unanswered-burst-then-served.)
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: "if (this.#unansweredCount <= MAX_UNANSWERED) this.#sender.release('unanswered');",
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: UNANSWERED_HOLD,
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: "if (this.#unansweredCount <= MAX_UNANSWERED) this.#sender.release('unanswered');",
    mutators: ['EqualityOperator'],
    replacement: '< MAX_UNANSWERED',
    reason: UNANSWERED_HOLD,
  },
  // Left after the rerun of the survivors' lines.
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: '(identity) => identity.platform === hello.platform && identity.botId === hello.botId,',
    column: 21,
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      "the platform test of a repeated hello (the other mutant of this kind, the whole test made true, is killed by limits.identities-drop): the subject serves one platform and no fallback, so a hello for another platform is refused before the test and every identity it compares has the hello's platform",
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: "if (this.#phase === 'handshaking' || this.#phase === 'active') {",
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      'going idle again on a connection already idle: stopping a stopped pump and dropping a subscription already dropped change nothing, and the going_idle_ack is sent either way',
  },
  {
    pairs: PAIRS,
    file: CONNECTION,
    code: "this.#phase = 'idle';",
    mutators: ['StringLiteral'],
    reason:
      "the name of the idle phase: the connection only ever compares its phase with 'handshaking', 'active' and 'closed', so any other value behaves as 'idle' (the phase getter is the operator's)",
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'while (!this.#stopped && sender.open && sender.backlog > maxBufferedAmount) {',
    column: 12,
    mutators: ['ConditionalExpression', 'LogicalOperator'],
    reason:
      'a stopped pump that goes on waiting for the backlog to drain while the socket is open (the other mutants of this kind, which never wait or wait for ever, are killed by the flow.* cases): once the wait ends it returns false for a stopped pump all the same and sends nothing',
  },
  {
    pairs: PAIRS,
    file: OUTBOUND,
    code: 'while (!this.#stopped && sender.open && sender.backlog > maxBufferedAmount) {',
    mutators: ['EqualityOperator'],
    replacement: '>=',
    reason:
      'waiting also at a backlog of exactly maxBufferedAmount bytes: one byte of difference in when replay pauses, which no gateway can arrange or see',
  },
];
