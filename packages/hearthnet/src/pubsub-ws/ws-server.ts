import type { IncomingMessage, Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { asHearthNetError, toErrorBody } from '../capabilities/error-body.js';
import { BadRequestError, RevokedError } from '../capabilities/hearthnet-errors.js';
import { InvalidPubSubOptionsError } from '../pubsub/errors.js';
import { type PubSubServerOptions, readPubSubServerOptions } from '../pubsub/server-options.js';
import {
  authenticateRequest,
  PUBSUB_ROUTES,
  queryParameters,
  type SignedParameters,
} from '../pubsub/signed-request.js';
import { integerParameter, MAX_WAIT_MS } from '../pubsub/subscribe-protocol.js';
import { authoriseSubscriber, trustStatusOf } from '../pubsub/subscriber-access.js';
import type { TopicHub } from '../pubsub/topic-hub.js';
import type { ResolvedTopic } from '../pubsub/topics.js';
import type { TrustPolicy } from '../wire/handler/trust.js';
import { RequestVerifier } from '../wire/request-verifier.js';
import { AckWindow, DEFAULT_ACK_WINDOW } from '../wire/sse/ack-window.js';
import { ackUpto, PUBSUB_WS_PATH_PREFIX, type ServerFrame, WS_EVENTS } from './ws-frames.js';

/** Options of {@link attachPubSubWebSocket}. */
export interface PubSubWebSocketOptions extends PubSubServerOptions {
  /** The most frames sent and not yet acknowledged. Default {@link DEFAULT_ACK_WINDOW} (16). */
  readonly window?: number;
  /**
   * The largest message a subscriber may send, in bytes; a larger one closes its connection (1009).
   * Subscribers only send acks, so the default is {@link DEFAULT_SUBSCRIBER_MAX_PAYLOAD} (64 KiB).
   */
  readonly maxPayload?: number;
}

/** The default `maxPayload` of {@link attachPubSubWebSocket}: far above any ack. */
export const DEFAULT_SUBSCRIBER_MAX_PAYLOAD = 64 * 1024;

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
    throw new InvalidPubSubOptionsError(`maxPayload must be a positive integer, got ${String(maxPayload)}`);
  }
  const sockets = new WebSocketServer({ noServer: true, maxPayload });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (!url.pathname.startsWith(PUBSUB_WS_PATH_PREFIX)) return;
    void accept(request, url)
      .then((subscription) => {
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
}

interface Accepted {
  readonly caller: string;
  readonly topic: ResolvedTopic;
  readonly cursor: number | undefined;
}

function readOptions(options: PubSubWebSocketOptions): Settings {
  const { hub, trust, community, now } = readPubSubServerOptions(options);
  const window = options.window ?? DEFAULT_ACK_WINDOW;
  if (!Number.isSafeInteger(window) || window < 1) {
    throw new InvalidPubSubOptionsError(`window must be a positive integer, got ${String(window)}`);
  }
  return { hub, trust, community, window, now };
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

/** Streams the topic to one connection until it closes. */
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
  const send = async (frame: ServerFrame) => {
    await credit.reserve(closed.signal);
    unacknowledged.push(frame.seq);
    connection.send(JSON.stringify(frame));
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
    connection.send(
      JSON.stringify({ event: WS_EVENTS.error, data: toErrorBody(asHearthNetError(error)), seq: cursor }),
    );
    connection.close(1008, asHearthNetError(error).code);
  }
}
