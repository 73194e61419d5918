import { parseStrictJsonBytes } from '../canonical-json/strict-json.js';
import { errorFromBody } from '../capabilities/error-body.js';
import { InvalidSignatureError, PartitionError, TimeoutError } from '../capabilities/hearthnet-errors.js';
import type { KeyPair } from '../crypto/index.js';
import { HearthNetLocalError } from '../errors.js';
import { type PeerClientOptions, readPeerClientOptions } from '../wire/client/peer-client-options.js';
import { verifyResponseEnvelope } from '../wire/envelope.js';
import { WIRE_HEADERS } from '../wire/headers.js';
import { checkDeliveredPayload } from './delivery-check.js';
import { PUBSUB_ROUTES, signedRequestHeaders } from './signed-request.js';
import {
  DEFAULT_WAIT_MS,
  formatSubscribeQuery,
  PUBSUB_SUBSCRIBE_PATH,
  type SubscribeQuery,
  topicReadSchema,
} from './subscribe-protocol.js';
import {
  type ConnectionOutput,
  type RetryOptions,
  resumingSubscription,
  type Subscription,
} from './subscription.js';
import type { TopicRead } from './topic-hub.js';
import { type ResolvedTopic, resolveWireTopic } from './topics.js';

/** How much longer than `wait_ms` the client waits for an answer before it calls the poll timed out. */
const ANSWER_GRACE_MS = 10_000;

/** Options of {@link createPubSubClient}. */
export interface PubSubClientOptions extends PeerClientOptions {
  /** Verify the signature of every answer (contract §5.2). Default `true`. */
  readonly verifyResponses?: boolean;
  /** Verify the signature of every delivered event envelope. Default `true`. */
  readonly verifyEvents?: boolean;
  /** Reconnect timing. */
  readonly retry?: RetryOptions;
  /** The clock, epoch ms. Default `Date.now`. */
  readonly now?: () => number;
}

/** Options of one subscription. */
export interface SubscribeOptions {
  /** Resume after this cursor (from an earlier subscription's `cursor`). Default: from now on. */
  readonly cursor?: number;
  /** Ends the subscription: the iterator finishes and the open poll is cancelled. */
  readonly signal?: AbortSignal;
  /** The `wait_ms` of each poll (the node may grant less). Default {@link DEFAULT_WAIT_MS}. */
  readonly waitMs?: number;
  /** The `limit` of each poll. Default: the node's. */
  readonly limit?: number;
}

/** A long-poll pub-sub client of one node. */
export interface PubSubClient {
  /**
   * Subscribes to a topic: an async iterator of its items (and of gaps) that polls
   * `GET /pubsub/v1/subscribe`, resumes from its cursor after a failure, and ends on abort.
   *
   * @throws {HearthNetLocalError} `unknown_topic` or `local_only_topic` at once; the iterator throws the
   *   non-retryable errors (`unauthorized`, `revoked`, …, a `pubsub_protocol` `HearthNetLocalError`).
   */
  subscribe(topic: string, options?: SubscribeOptions): Subscription;
}

/**
 * A client for the long-poll pub-sub endpoint of contract §8. Requests are signed as bus calls are
 * (§5.1, see `SignedParameters`); answers are signature-checked (§5.2) and every item is validated
 * against its topic, event envelopes also against their author's signature.
 *
 * @example
 * const client = createPubSubClient({ identity, community, node: 'http://127.0.0.1:7080' });
 * const controller = new AbortController();
 * const subscription = client.subscribe('marketplace.post.created', { signal: controller.signal });
 * for await (const event of subscription) {
 *   if (event.kind === 'gap') await resync();
 *   else show(event.payload);
 * }
 * saveCursor(subscription.cursor);
 */
export function createPubSubClient(options: PubSubClientOptions): PubSubClient {
  const settings = readOptions(options);
  return {
    subscribe(topic, subscribeOptions = {}) {
      const resolved = resolveWireTopic(topic, 'subscribe to');
      const signal = subscribeOptions.signal ?? new AbortController().signal;
      const connect = (cursor: number | undefined, connectionSignal: AbortSignal) =>
        poll(settings, resolved, cursor, subscribeOptions, connectionSignal);
      return resumingSubscription(connect, subscribeOptions.cursor, signal, settings.retry);
    },
  };
}

interface Settings {
  readonly identity: KeyPair;
  readonly community: string;
  readonly url: URL;
  readonly peer: string | undefined;
  readonly fetch: typeof fetch;
  readonly verifyResponses: boolean;
  readonly verifyEvents: boolean;
  readonly retry: RetryOptions;
  readonly now: () => number;
}

function readOptions(options: PubSubClientOptions): Settings {
  const peer = readPeerClientOptions(
    options,
    (message, cause) =>
      new HearthNetLocalError('invalid_pubsub_options', message, cause === undefined ? undefined : { cause }),
  );
  return {
    identity: peer.identity,
    community: peer.community,
    url: new URL(PUBSUB_SUBSCRIBE_PATH, peer.node),
    peer: peer.peer,
    fetch: peer.fetch,
    verifyResponses: options.verifyResponses !== false,
    verifyEvents: options.verifyEvents !== false,
    retry: options.retry ?? {},
    now: options.now ?? Date.now,
  };
}

/** One long poll: the items after `cursor`, a gap if there is one, then the cursor to go on from. */
async function* poll(
  settings: Settings,
  topic: ResolvedTopic,
  cursor: number | undefined,
  options: SubscribeOptions,
  signal: AbortSignal,
): AsyncGenerator<ConnectionOutput, void, undefined> {
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const query: SubscribeQuery = { topic: topic.topic, cursor, waitMs, limit: options.limit };
  const parameters = formatSubscribeQuery(query);
  const url = new URL(settings.url);
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  const headers = signedRequestHeaders(settings, PUBSUB_ROUTES.subscribe, parameters);
  const answer = await fetchAnswer(settings, url, headers, waitMs + ANSWER_GRACE_MS, signal);
  const read = checkAnswer(settings, topic, cursor, answer);
  if (read.gap) yield { kind: 'gap', topic: topic.topic, after: cursor ?? 0, cursor: read.cursor };
  for (const item of read.items) yield { kind: 'item', ...item };
  yield { kind: 'cursor', cursor: read.cursor };
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
  readonly requestId: string;
}

async function fetchAnswer(
  settings: Settings,
  url: URL,
  headers: Record<string, string>,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<Answer> {
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new TimeoutError(`no answer from ${url.origin} within ${timeoutMs} ms`)),
    timeoutMs,
  );
  try {
    const response = await settings.fetch(url, {
      method: 'GET',
      headers: { ...headers, Accept: 'application/json' },
      signal: AbortSignal.any([signal, deadline.signal]),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    // Items of event topics carry signed events: read as strictly as any signed body (no repeated
    // keys, UTF-8 only).
    const read = bytes.length === 0 ? { ok: true as const, value: {} } : parseStrictJsonBytes(bytes);
    let body: unknown = {};
    if (read.ok) body = read.value;
    else if (read.problem !== 'syntax')
      throw new HearthNetLocalError('pubsub_protocol', `the node's answer holds a ${read.message}`);
    else if (response.ok) {
      throw new HearthNetLocalError('pubsub_protocol', 'the node answered with a body that is not JSON', {
        cause: read.cause,
      });
    }
    return {
      status: response.status,
      headers: response.headers,
      body,
      requestId: headers[WIRE_HEADERS.requestId] ?? '',
    };
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (deadline.signal.aborted) throw deadline.signal.reason;
    if (error instanceof HearthNetLocalError && error.code === 'pubsub_protocol') throw error;
    throw new PartitionError(`could not reach ${url.origin}: ${(error as Error).message}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

function checkAnswer(
  settings: Settings,
  topic: ResolvedTopic,
  cursor: number | undefined,
  answer: Answer,
): TopicRead {
  // Error answers are not signature-checked: a forged one could only end or delay the subscription,
  // which anyone on the path can do anyway, and proxies answer unsigned errors.
  if (answer.status < 200 || answer.status > 299) throw errorFromBody(answer.body, answer.status);
  if (settings.verifyResponses) checkSignature(settings, answer);
  const parsed = topicReadSchema.safeParse(answer.body);
  if (!parsed.success)
    throw new HearthNetLocalError(
      'pubsub_protocol',
      'the node answered with a body that is not {items, cursor, gap}',
    );
  const read = parsed.data;
  let previous = read.gap ? read.cursor : (cursor ?? 0);
  for (const item of read.items) {
    if (item.topic !== topic.topic)
      throw new HearthNetLocalError('pubsub_protocol', `the node delivered an item of ${item.topic}`);
    if (item.seq <= previous)
      throw new HearthNetLocalError('pubsub_protocol', 'the node delivered items out of cursor order');
    checkDeliveredPayload(topic, item.payload, settings.verifyEvents);
    previous = item.seq;
  }
  if (read.cursor < previous)
    throw new HearthNetLocalError('pubsub_protocol', 'the node answered a cursor behind its items');
  return read;
}

function checkSignature(settings: Settings, answer: Answer): void {
  const signature = answer.headers.get(WIRE_HEADERS.signature);
  if (signature === null) throw new InvalidSignatureError('the pub-sub answer is not signed (contract §5.2)');
  const from = answer.headers.get(WIRE_HEADERS.from) ?? '';
  if (settings.peer !== undefined && from !== settings.peer) {
    throw new InvalidSignatureError(`the answer comes from ${from}, not from ${settings.peer}`);
  }
  const verdict = verifyResponseEnvelope(
    {
      ...PUBSUB_ROUTES.subscribe,
      requestId: answer.requestId,
      from,
      timestamp: answer.headers.get(WIRE_HEADERS.timestamp) ?? '',
      status: answer.status,
      body: answer.body,
    },
    signature,
  );
  if (!verdict.valid)
    throw new InvalidSignatureError(`the pub-sub answer signature is invalid (${verdict.reason})`);
}
