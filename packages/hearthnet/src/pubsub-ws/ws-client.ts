import { isJsonObject } from '@agentwire/internal';
import { WebSocket } from 'ws';
import { readStrictJson } from '../canonical-json/strict-json.js';
import { errorFromBody } from '../capabilities/error-body.js';
import { type HearthNetError, PartitionError, UnauthorizedError } from '../capabilities/hearthnet-errors.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { HearthNetLocalError } from '../errors.js';
import {
  type ConnectionOutput,
  checkDeliveredPayload,
  type RetryOptions,
  resumingSubscription,
  type Subscription,
} from '../pubsub/pubsub-client.js';
import { PUBSUB_ROUTES, signedRequestHeaders } from '../pubsub/subscribe-protocol.js';
import { type ResolvedTopic, resolveWireTopic } from '../pubsub/topics.js';
import { type PeerClientOptions, readPeerClientOptions } from '../wire/hearthnet-client.js';
import {
  ackFrame,
  gapDataSchema,
  readyDataSchema,
  type ServerFrame,
  serverFrameSchema,
  WS_EVENTS,
  webSocketPath,
} from './ws-frames.js';

/** Options of {@link createPubSubWebSocketClient}. */
export interface PubSubWebSocketClientOptions extends Pick<PeerClientOptions, 'identity' | 'community'> {
  /** The base URL of the node, `http(s)://…` or `ws(s)://…`. */
  readonly node: string | URL;
  /** Verify the signature of every delivered event envelope. Default `true`. */
  readonly verifyEvents?: boolean;
  /** Reconnect timing. */
  readonly retry?: RetryOptions;
  /** The clock, epoch ms. Default `Date.now`. */
  readonly now?: () => number;
}

/** Options of one WebSocket subscription. */
export interface WebSocketSubscribeOptions {
  /** Resume after this cursor. Default: from now on. */
  readonly cursor?: number;
  /** Ends the subscription: the iterator finishes and the socket closes. */
  readonly signal?: AbortSignal;
}

/** A WebSocket pub-sub client of one node: the same iterator API as the long-poll client. */
export interface PubSubWebSocketClient {
  /**
   * Subscribes to a topic over `/pubsub/v1/ws/{topic}`: yields its items (and gaps), acknowledges
   * each frame once the iterator has handed it out (so the node never runs more than its window
   * ahead of the consumer), reconnects from its cursor after a failure, and ends on abort.
   *
   * @throws {HearthNetLocalError} `unknown_topic` or `local_only_topic` at once; the iterator throws the
   *   non-retryable errors.
   */
  subscribe(topic: string, options?: WebSocketSubscribeOptions): Subscription;
}

/**
 * A client for the WebSocket pub-sub transport (`@agentwire/hearthnet/pubsub-ws`).
 *
 * @example
 * const client = createPubSubWebSocketClient({ identity, community, node: 'http://127.0.0.1:7080' });
 * for await (const event of client.subscribe('marketplace.post.created', { signal })) console.log(event);
 */
export function createPubSubWebSocketClient(options: PubSubWebSocketClientOptions): PubSubWebSocketClient {
  const settings = readOptions(options);
  return {
    subscribe(topic, subscribeOptions = {}) {
      const resolved = resolveWireTopic(topic, 'subscribe to');
      const signal = subscribeOptions.signal ?? new AbortController().signal;
      return resumingSubscription(
        (cursor, connectionSignal) => connect(settings, resolved, cursor, connectionSignal),
        subscribeOptions.cursor,
        signal,
        settings.retry,
      );
    },
  };
}

interface Settings {
  readonly identity: KeyPair;
  readonly community: string;
  readonly base: URL;
  readonly verifyEvents: boolean;
  readonly retry: RetryOptions;
  readonly now: () => number;
}

function readOptions(options: PubSubWebSocketClientOptions): Settings {
  const {
    identity,
    community,
    node: base,
  } = readPeerClientOptions(
    options,
    (message, cause) =>
      new HearthNetLocalError('invalid_pubsub_options', message, cause === undefined ? undefined : { cause }),
  );
  const protocols: Record<string, string> = {
    'http:': 'ws:',
    'https:': 'wss:',
    'ws:': 'ws:',
    'wss:': 'wss:',
  };
  const protocol = protocols[base.protocol];
  if (protocol === undefined)
    throw new HearthNetLocalError('invalid_pubsub_options', `node must be an http(s) or ws(s) URL`);
  base.protocol = protocol;
  return {
    identity,
    community,
    base,
    verifyEvents: options.verifyEvents !== false,
    retry: options.retry ?? {},
    now: options.now ?? Date.now,
  };
}

type Incoming = { readonly frame: unknown } | { readonly end: unknown };

/** One socket: everything it delivers after `cursor`, until it closes (a `PartitionError`) or fails. */
async function* connect(
  settings: Settings,
  topic: ResolvedTopic,
  cursor: number | undefined,
  signal: AbortSignal,
): AsyncGenerator<ConnectionOutput, void, undefined> {
  const url = new URL(webSocketPath(topic.topic), settings.base);
  const parameters: Record<string, string> = { topic: topic.topic };
  if (cursor !== undefined) {
    url.searchParams.set('cursor', String(cursor));
    parameters['cursor'] = String(cursor);
  }
  const socket = new WebSocket(url, {
    headers: signedRequestHeaders(settings, PUBSUB_ROUTES.websocket, parameters),
  });
  const inbox: Incoming[] = [];
  let wake: (() => void) | undefined;
  const deliver = (entry: Incoming) => {
    inbox.push(entry);
    wake?.();
  };
  socket.on('message', (raw) => {
    // Frames of event topics carry signed events: read as strictly as any signed body (parseStrictJson).
    try {
      const frame = readStrictJson(
        String(raw),
        'a frame the node sent',
        (message, options) => new HearthNetLocalError('pubsub_protocol', message, options),
      );
      deliver({ frame });
    } catch (error) {
      deliver({ end: error as HearthNetLocalError });
    }
  });
  socket.on('unexpected-response', (_request, response) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => {
      let body: unknown = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // An upgrade refused without a §5.4 body: the status alone decides.
      }
      deliver({ end: upgradeRefusal(body, response.statusCode ?? 500) });
      socket.terminate();
    });
  });
  socket.on('error', (error) =>
    deliver({
      end: new PartitionError(`WebSocket to ${url.origin} failed: ${error.message}`, { cause: error }),
    }),
  );
  // A server drops a subscriber that does not keep up with 1008 and the limit as reason (drain_timeout, ack_timeout).
  socket.on('close', (code, reason) =>
    deliver({
      end: new PartitionError(
        `the WebSocket to ${url.origin} closed (${code}${reason.length > 0 ? ` ${String(reason)}` : ''})`,
      ),
    }),
  );
  const onAbort = () => {
    socket.terminate();
    wake?.();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  let position = cursor;
  try {
    while (true) {
      const entry = inbox.shift();
      if (entry === undefined) {
        if (signal.aborted) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
        continue;
      }
      if ('end' in entry) throw entry.end;
      const frame = parseFrame(entry.frame);
      const output = interpret(settings, topic, position, frame);
      if (output.kind === 'error') throw output.error;
      position = output.kind === 'item' ? output.seq : output.cursor;
      yield output;
      if (socket.readyState === WebSocket.OPEN) socket.send(ackFrame(frame.seq));
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    socket.terminate();
  }
}

function parseFrame(value: unknown): ServerFrame {
  const parsed = serverFrameSchema.safeParse(value);
  if (!parsed.success)
    throw new HearthNetLocalError('pubsub_protocol', 'the node sent a frame that is not {event, data, seq}');
  return parsed.data;
}

function interpret(
  settings: Settings,
  topic: ResolvedTopic,
  position: number | undefined,
  frame: ServerFrame,
): ConnectionOutput | { readonly kind: 'error'; readonly error: Error } {
  switch (frame.event) {
    case WS_EVENTS.ready: {
      const data = readyDataSchema.safeParse(frame.data);
      if (!data.success) throw new HearthNetLocalError('pubsub_protocol', 'malformed ready frame');
      return { kind: 'cursor', cursor: data.data.cursor };
    }
    case WS_EVENTS.gap: {
      const data = gapDataSchema.safeParse(frame.data);
      if (!data.success) throw new HearthNetLocalError('pubsub_protocol', 'malformed gap frame');
      return { kind: 'gap', topic: topic.topic, after: data.data.after, cursor: data.data.cursor };
    }
    case WS_EVENTS.error:
      return { kind: 'error', error: errorFromBody(frame.data) };
    case topic.topic:
      if (position !== undefined && frame.seq <= position) {
        throw new HearthNetLocalError('pubsub_protocol', 'the node sent items out of cursor order');
      }
      checkDeliveredPayload(topic, frame.data, settings.verifyEvents);
      return { kind: 'item', seq: frame.seq, topic: topic.topic, payload: frame.data };
    default:
      throw new HearthNetLocalError(
        'pubsub_protocol',
        `the node sent a frame of ${frame.event} on ${topic.topic}`,
      );
  }
}

/**
 * The error of a refused WebSocket upgrade: what its §5.4 body says, else what its status says — except a
 * bare 403, which proves no revocation (a reference node refuses every upgrade so): `unauthorized`.
 */
function upgradeRefusal(body: unknown, status: number): HearthNetError {
  const said = isJsonObject(body) && typeof body['error'] === 'string';
  if (!said && status === 403) {
    return new UnauthorizedError(
      'the WebSocket upgrade was refused with HTTP 403 and no HearthNet error body',
    );
  }
  return errorFromBody(body, status);
}
