import type { IncomingMessage, Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { asHearthNetError, toErrorBody } from '../capabilities/error-body.js';
import { BadRequestError, RevokedError, TimeoutError } from '../capabilities/hearthnet-errors.js';
import { HearthNetLocalError } from '../errors.js';
import {
  authoriseSubscriber,
  type PubSubServerOptions,
  readPubSubServerOptions,
  SubscriptionSlots,
  trustStatusOf,
} from '../pubsub/pubsub-handler.js';
import {
  authenticateRequest,
  integerParameter,
  MAX_WAIT_MS,
  PUBSUB_ROUTES,
  queryParameters,
  type SignedParameters,
} from '../pubsub/subscribe-protocol.js';
import type { TopicHub } from '../pubsub/topic-hub.js';
import type { ResolvedTopic } from '../pubsub/topics.js';
import type { TrustPolicy } from '../wire/bus-handler.js';
import { RequestVerifier } from '../wire/request-verifier.js';
import {
  AckWindow,
  DEFAULT_ACK_TIMEOUT_MS,
  DEFAULT_ACK_WINDOW,
  DEFAULT_DRAIN_TIMEOUT_MS,
  MAX_TIMER_MS,
  progressWithin,
  SLOW_CONSUMER_CLOSE_CODE,
} from '../wire/sse.js';
import { ackUpto, PUBSUB_WS_PATH_PREFIX, type ServerFrame, WS_EVENTS } from './ws-frames.js';

/** Options of {@link attachPubSubWebSocket}. */
export interface PubSubWebSocketOptions extends PubSubServerOptions {
  /** The most frames sent and not yet acknowledged. Default `DEFAULT_ACK_WINDOW` (16). */
  readonly window?: number;
  /**
   * The largest message a subscriber may send, in bytes; a larger one closes its connection (1009).
   * Subscribers only send acks, so the default is `DEFAULT_SUBSCRIBER_MAX_PAYLOAD` (64 KiB).
   */
  readonly maxPayload?: number;
  /**
   * The most bytes queued to one subscriber and not yet handed to the OS (`ws.bufferedAmount`): above
   * it nothing more is sent until the queue has drained, so a subscriber never costs more than this
   * plus one frame. Default `DEFAULT_SUBSCRIBER_MAX_BUFFERED` (1 MiB).
   */
  readonly maxBufferedAmount?: number;
  /**
   * How long (ms) a queue above `maxBufferedAmount` may take to drain before the subscriber is dropped
   * as not reading its socket: close 1008, reason `drain_timeout`, then the TCP connection at once.
   * Default `DEFAULT_DRAIN_TIMEOUT_MS` (60 s).
   */
  readonly drainTimeoutMs?: number;
  /**
   * How long (ms) the ack window may stay full before the subscriber is dropped as not acknowledging:
   * an `error` frame (`timeout`), then close 1008, reason `ack_timeout`. Default
   * `DEFAULT_ACK_TIMEOUT_MS` (60 s).
   */
  readonly ackTimeoutMs?: number;
  /**
   * Sees each subscriber dropped for passing `drainTimeoutMs` or `ackTimeoutMs` (for logging and
   * metrics); it must not throw.
   */
  readonly onSlowSubscriber?: (
    error: HearthNetLocalError,
    subscriber: { readonly caller: string; readonly topic: string },
  ) => void;
}

/** The default `maxPayload` of {@link attachPubSubWebSocket}: far above any ack. */
export const DEFAULT_SUBSCRIBER_MAX_PAYLOAD = 64 * 1024;
/** The default `maxBufferedAmount` of {@link attachPubSubWebSocket}: 1 MiB, as the relay server's. */
export const DEFAULT_SUBSCRIBER_MAX_BUFFERED = 1024 * 1024;

/** A WebSocket pub-sub endpoint attached to a server. */
export interface PubSubWebSocketAttachment {
  /** How many subscriber connections are open. */
  readonly connections: number;
  /** Stops answering upgrades and closes every subscriber connection. */
  close(): Promise<void>;
}

/**
 * The WebSocket transport of contract §8 (Phase 2) on a `node:http` server: upgrades at
 * `/pubsub/v1/ws/{topic}?cursor=N` (the reference's path) are authenticated like the long poll —
 * signed `X-HearthNet-*` headers on the upgrade request, the envelope's `capability` `pubsub.ws` and
 * its `body` `{topic, …query}` — and authorised by `authoriseSubscriber`; a refused upgrade is
 * answered with the §5.4 error body and its §5.5 status. An accepted connection receives a `ready`
 * frame, then the topic's items after the cursor as `{"event": topic, "data": payload, "seq": cursor}`
 * frames, `gap` frames where items were lost, and at most `window` frames the client has not
 * acknowledged (`AckWindow`); a caller revoked meanwhile gets an `error` frame and the connection
 * closes. Other upgrade paths are left to other listeners.
 *
 * A subscriber that does not keep up costs bounded memory and is dropped with a typed reason (see a
 * `slow_consumer` `HearthNetLocalError`, reported to `onSlowSubscriber`): at most `maxBufferedAmount` bytes
 * plus one frame are queued to it; a queue that does not drain within `drainTimeoutMs` closes the connection
 * with 1008 `drain_timeout`, a window left full for `ackTimeoutMs` with 1008 `ack_timeout`. One caller holds
 * at most `maxSubscriptionsPerCaller` connections (all callers `maxSubscriptions`); one more upgrade is
 * refused with 429 `capacity_exceeded`.
 *
 * @example
 * const served = await serveBusHandler(createPubSubHandler(options));
 * const ws = attachPubSubWebSocket(served.server, options);
 * // …
 * await ws.close();
 * await served.close();
 */
export function attachPubSubWebSocket(
  server: Server,
  options: PubSubWebSocketOptions,
): PubSubWebSocketAttachment {
  const settings = readOptions(options);
  const verifier = new RequestVerifier({
    now: settings.now,
    ...(options.clockSkewMs === undefined ? {} : { clockSkewMs: options.clockSkewMs }),
    ...(options.seenRequestIds === undefined ? {} : { seenRequestIds: options.seenRequestIds }),
  });
  const maxPayload = options.maxPayload ?? DEFAULT_SUBSCRIBER_MAX_PAYLOAD;
  if (!Number.isSafeInteger(maxPayload) || maxPayload < 1) {
    throw new HearthNetLocalError(
      'invalid_pubsub_options',
      `maxPayload must be a positive integer, got ${String(maxPayload)}`,
    );
  }
  const sockets = new WebSocketServer({ noServer: true, maxPayload });
  const slots = new SubscriptionSlots(settings);
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (!url.pathname.startsWith(PUBSUB_WS_PATH_PREFIX)) return;
    void accept(request, url)
      .then((subscription) => {
        const release = slots.acquire(subscription.caller);
        // The slot is the socket's, upgraded or not: `close` comes once it is gone, whichever way.
        if (socket.destroyed) {
          release();
          return;
        }
        socket.once('close', release);
        sockets.handleUpgrade(request, socket, head, (connection) => {
          void serveConnection(connection, subscription, settings);
        });
      })
      .catch((error: unknown) => refuse(socket, error));
  };
  async function accept(request: IncomingMessage, url: URL): Promise<Accepted> {
    let topic: string;
    try {
      topic = decodeURIComponent(url.pathname.slice(PUBSUB_WS_PATH_PREFIX.length));
    } catch (error) {
      throw new BadRequestError('the topic in the path is not URI-encoded UTF-8', { cause: error });
    }
    const query = queryParameters(url);
    for (const name of Object.keys(query)) {
      if (name !== 'cursor') throw new BadRequestError(`unknown query parameter ${name}`);
    }
    if (Object.hasOwn(query, 'topic')) throw new BadRequestError('the topic goes in the path');
    const parameters: SignedParameters = { topic, ...query };
    const caller = await authenticateRequest(
      webHeaders(request),
      PUBSUB_ROUTES.websocket,
      parameters,
      verifier,
      settings.community,
    );
    const resolved = await authoriseSubscriber(settings.trust, caller, topic);
    return { caller, topic: resolved, cursor: integerParameter(query, 'cursor') };
  }
  server.on('upgrade', onUpgrade);
  return {
    get connections() {
      return sockets.clients.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.off('upgrade', onUpgrade);
        for (const client of sockets.clients) client.terminate();
        sockets.close(() => resolve());
      }),
  };
}

interface Settings {
  readonly hub: TopicHub;
  readonly trust: TrustPolicy;
  readonly community: string | undefined;
  readonly window: number;
  readonly now: () => number;
  readonly maxSubscriptionsPerCaller: number;
  readonly maxSubscriptions: number;
  readonly maxBufferedAmount: number;
  readonly drainTimeoutMs: number;
  readonly ackTimeoutMs: number;
  readonly onSlowSubscriber: PubSubWebSocketOptions['onSlowSubscriber'];
}

interface Accepted {
  readonly caller: string;
  readonly topic: ResolvedTopic;
  readonly cursor: number | undefined;
}

function readOptions(options: PubSubWebSocketOptions): Settings {
  const { hub, trust, community, now, maxSubscriptionsPerCaller, maxSubscriptions } =
    readPubSubServerOptions(options);
  const window = options.window ?? DEFAULT_ACK_WINDOW;
  const maxBufferedAmount = options.maxBufferedAmount ?? DEFAULT_SUBSCRIBER_MAX_BUFFERED;
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  const ackTimeoutMs = options.ackTimeoutMs ?? DEFAULT_ACK_TIMEOUT_MS;
  for (const [name, value, max] of [
    ['window', window, Number.MAX_SAFE_INTEGER],
    ['maxBufferedAmount', maxBufferedAmount, Number.MAX_SAFE_INTEGER],
    ['drainTimeoutMs', drainTimeoutMs, MAX_TIMER_MS],
    ['ackTimeoutMs', ackTimeoutMs, MAX_TIMER_MS],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1 || value > max) {
      throw new HearthNetLocalError(
        'invalid_pubsub_options',
        `${name} must be a positive integer${max === MAX_TIMER_MS ? ` (ms, at most ${MAX_TIMER_MS})` : ''}, got ${String(value)}`,
      );
    }
  }
  if (options.onSlowSubscriber !== undefined && typeof options.onSlowSubscriber !== 'function') {
    throw new HearthNetLocalError('invalid_pubsub_options', 'onSlowSubscriber must be a function');
  }
  return {
    hub,
    trust,
    community,
    window,
    now,
    maxSubscriptionsPerCaller,
    maxSubscriptions,
    maxBufferedAmount,
    drainTimeoutMs,
    ackTimeoutMs,
    onSlowSubscriber: options.onSlowSubscriber,
  };
}

function webHeaders(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) {
    headers.append(request.rawHeaders[i] as string, request.rawHeaders[i + 1] as string);
  }
  return headers;
}

/** Answers a refused upgrade with the contract §5.4 body and its status, then closes the socket. */
function refuse(socket: Duplex, error: unknown): void {
  const converted = asHearthNetError(error);
  const body = JSON.stringify(toErrorBody(converted));
  socket.end(
    `HTTP/1.1 ${converted.status} ${STATUS_CODES[converted.status] ?? 'Error'}\r\n` +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/**
 * Streams the topic to one connection until it closes. Each frame waits for room in the ack window
 * (at most `ackTimeoutMs`) and, while more than `maxBufferedAmount` bytes are queued, for the queue to
 * drain (at most `drainTimeoutMs`); past either deadline the subscriber is dropped.
 */
async function serveConnection(connection: WebSocket, accepted: Accepted, settings: Settings): Promise<void> {
  const closed = new AbortController();
  connection.on('close', () => closed.abort(new DOMException('the subscriber went away', 'AbortError')));
  // A protocol error (an oversized or malformed message) or a reset socket: `ws` closes the connection
  // (1009, 1002 …) after emitting it; without a listener it would be an uncaught exception.
  connection.on('error', () => connection.terminate());
  const credit = new AckWindow(settings.window);
  // The seq of each frame sent and not yet acknowledged, in sending order.
  const unacknowledged: number[] = [];
  connection.on('message', (raw) => {
    let upto: number | undefined;
    try {
      upto = ackUpto(JSON.parse(String(raw)));
    } catch {
      return;
    }
    if (upto === undefined) return;
    let count = 0;
    while (count < unacknowledged.length && (unacknowledged[count] as number) <= upto) count += 1;
    unacknowledged.splice(0, count);
    credit.acknowledge(credit.acknowledged + count);
  });
  // Settles once every frame sent so far has been handed to the OS (or failed: the socket is gone).
  let flushed: Promise<void> = Promise.resolve();
  const write = (frame: ServerFrame) => {
    flushed = new Promise((resolve) => connection.send(JSON.stringify(frame), () => resolve()));
  };
  const send = async (frame: ServerFrame) => {
    await credit.reserve(closed.signal, settings.ackTimeoutMs);
    if (connection.bufferedAmount > settings.maxBufferedAmount) {
      await progressWithin(
        flushed,
        settings.drainTimeoutMs,
        'drain_timeout',
        () =>
          `${connection.bufferedAmount} bytes still queued after ${settings.drainTimeoutMs} ms (limit ${settings.maxBufferedAmount})`,
      );
      closed.signal.throwIfAborted();
    }
    unacknowledged.push(frame.seq);
    write(frame);
  };
  const { topic } = accepted;
  let cursor = accepted.cursor ?? settings.hub.lastSeq;
  try {
    await send({ event: WS_EVENTS.ready, data: { cursor }, seq: cursor });
    while (!closed.signal.aborted) {
      if ((await trustStatusOf(settings.trust, accepted.caller)) === 'revoked') {
        throw new RevokedError(`node ${accepted.caller} is revoked`);
      }
      const read = await settings.hub.read(topic.topic, cursor, {
        waitMs: MAX_WAIT_MS,
        limit: settings.window,
        signal: closed.signal,
      });
      if (read.gap) {
        await send({ event: WS_EVENTS.gap, data: { after: cursor, cursor: read.cursor }, seq: read.cursor });
      }
      for (const item of read.items) {
        await send({ event: topic.topic, data: item.payload, seq: item.seq });
      }
      cursor = read.cursor;
    }
  } catch (error) {
    if (closed.signal.aborted) return;
    if (error instanceof HearthNetLocalError && error.code === 'slow_consumer') {
      dropSlowSubscriber(connection, error, cursor, settings.drainTimeoutMs);
      try {
        settings.onSlowSubscriber?.(error, { caller: accepted.caller, topic: topic.topic });
      } catch {
        // A throwing observer must not turn a dropped subscriber into an unhandled rejection.
      }
      return;
    }
    connection.send(
      JSON.stringify({ event: WS_EVENTS.error, data: toErrorBody(asHearthNetError(error)), seq: cursor }),
    );
    connection.close(1008, asHearthNetError(error).code);
  }
}

/**
 * Drops a subscriber that passed a bound. One that does not read gets a close frame (1008, the limit)
 * queued and its TCP connection closed at once, which frees what it left unread. One that does not
 * acknowledge may still read: it gets an `error` frame (`timeout`) and the close frame, and
 * `drainTimeoutMs` to answer the close before its connection is closed all the same.
 */
function dropSlowSubscriber(
  connection: WebSocket,
  error: HearthNetLocalError,
  cursor: number,
  drainTimeoutMs: number,
): void {
  const limit = error.details?.limit ?? 'drain_timeout';
  if (limit === 'drain_timeout') {
    connection.close(SLOW_CONSUMER_CLOSE_CODE, limit);
    connection.terminate();
    return;
  }
  const body = toErrorBody(new TimeoutError(error.message));
  connection.send(JSON.stringify({ event: WS_EVENTS.error, data: body, seq: cursor }));
  connection.close(SLOW_CONSUMER_CLOSE_CODE, limit);
  const timer = setTimeout(() => connection.terminate(), drainTimeoutMs);
  timer.unref();
  connection.once('close', () => clearTimeout(timer));
}
