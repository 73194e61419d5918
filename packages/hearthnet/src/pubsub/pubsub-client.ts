import { messageWithCause } from '@agentwire/internal';
import { parseStrictJsonBytes } from '../canonical-json/strict-json.js';
import { errorFromBody } from '../capabilities/error-body.js';
import {
  HearthNetError,
  InvalidSignatureError,
  PartitionError,
  retryPolicyForErrorCode,
  TimeoutError,
} from '../capabilities/hearthnet-errors.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { HearthNetLocalError } from '../errors.js';
import { verifyEvent } from '../events/event.js';
import { verifyResponseEnvelope, WIRE_HEADERS } from '../wire/envelope.js';
import { type PeerClientOptions, readPeerClientOptions } from '../wire/hearthnet-client.js';
import {
  DEFAULT_WAIT_MS,
  formatSubscribeQuery,
  PUBSUB_ROUTES,
  PUBSUB_SUBSCRIBE_PATH,
  type SubscribeQuery,
  signedRequestHeaders,
  topicReadSchema,
} from './subscribe-protocol.js';
import type { TopicItem, TopicRead } from './topic-hub.js';
import { type ResolvedTopic, resolveWireTopic, validateTopicPayload } from './topics.js';

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
  /** The `wait_ms` of each poll (the node may grant less). Default `DEFAULT_WAIT_MS`. */
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
    throw new PartitionError(`could not reach ${url.origin}: ${messageWithCause(error)}`, { cause: error });
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

/** An item delivered by a subscription. */
export interface DeliveredItem<P = unknown> extends TopicItem<P> {
  readonly kind: 'item';
}

/**
 * Items were lost between `after` and `cursor` (they fell out of the node's retention, or the cursor
 * was from an earlier run of the node): the subscription goes on from `cursor`, the oldest position
 * the node still holds. Re-read whatever state the lost items would have changed (e.g. sync the log).
 */
export interface CursorGap {
  readonly kind: 'gap';
  readonly topic: string;
  /** The cursor the subscription asked with. */
  readonly after: number;
  /** Where it resumes. */
  readonly cursor: number;
}

/** What a subscription yields: items in order, and a {@link CursorGap} wherever items were lost. */
export type SubscriptionEvent<P = unknown> = DeliveredItem<P> | CursorGap;

/** A running subscription: iterate it; it ends when its signal aborts. */
export interface Subscription<P = unknown> extends AsyncIterable<SubscriptionEvent<P>> {
  /** The position after the last event yielded (what to resubscribe with); `undefined` until the node told it. */
  readonly cursor: number | undefined;
}

/** How a subscription retries (injectable for tests). */
export interface RetryOptions {
  /** The delay before each reconnect. Default {@link exponentialBackoff} with its defaults. */
  readonly backoff?: BackoffPolicy;
  /** How to wait. Default `setTimeout`. */
  readonly sleep?: Sleep;
  /** Sees each failure that is retried (for logging); it must not throw. */
  readonly onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
}

/** What one connection produces: events to yield, and cursor moves that yield nothing. */
export type ConnectionOutput = SubscriptionEvent | { readonly kind: 'cursor'; readonly cursor: number };

/** Opens one connection (a long poll, a socket) that delivers after `cursor` until it ends or fails. */
export type Connect = (cursor: number | undefined, signal: AbortSignal) => AsyncIterable<ConnectionOutput>;

/**
 * Whether a subscription retries after `error`: the contract §9 errors that may be retried
 * (`timeout`, `partition` — which is what a network failure or a dropped connection becomes —
 * `capacity_exceeded`, `rate_limited`, `internal_error`). The others (`unauthorized`, `revoked`,
 * `invalid_signature`, `bad_request`, `not_found`, …) and anything that is not a `HearthNetError`
 * (a `pubsub_protocol` `HearthNetLocalError`) would fail again: they end the subscription with that error.
 */
export function isRetryableFailure(error: unknown): boolean {
  return error instanceof HearthNetError && retryPolicyForErrorCode(error.code) !== 'never';
}

/**
 * Drives `connect` until `signal` aborts: yields what each connection delivers, keeps the cursor,
 * and after a retryable failure waits (backoff with jitter) and reconnects from the cursor; the
 * backoff starts again once a connection delivers. Non-retryable failures end it with the error.
 */
export function resumingSubscription(
  connect: Connect,
  start: number | undefined,
  signal: AbortSignal,
  retry: RetryOptions,
): Subscription {
  const backoff = retry.backoff ?? exponentialBackoff();
  const wait = retry.sleep ?? sleep;
  let cursor = start;
  async function* run(): AsyncGenerator<SubscriptionEvent, void, undefined> {
    let attempt = 0;
    while (!signal.aborted) {
      try {
        for await (const output of connect(cursor, signal)) {
          attempt = 0;
          cursor = output.kind === 'item' ? output.seq : output.cursor;
          if (output.kind !== 'cursor') yield output;
        }
      } catch (error) {
        if (signal.aborted) return;
        if (!isRetryableFailure(error)) throw error;
        // `rate_limited` and `capacity_exceeded` may name how long to wait at least.
        const delayMs = Math.max(backoff(attempt), (error as HearthNetError).retryAfterMs ?? 0);
        retry.onRetry?.(error, attempt, delayMs);
        attempt += 1;
        try {
          await wait(delayMs, signal);
        } catch {
          return;
        }
      }
    }
  }
  const events = run();
  return {
    get cursor() {
      return cursor;
    },
    [Symbol.asyncIterator]: () => events,
  };
}

/** The delay before reconnect attempt `attempt` (0 for the first retry after a failure), in ms. */
export type BackoffPolicy = (attempt: number) => number;

/** Options of {@link exponentialBackoff}. */
export interface ExponentialBackoffOptions {
  /** The ceiling of the first delay. Default 250 ms. */
  readonly initialMs?: number;
  /** The largest ceiling. Default 30 000 ms. */
  readonly maxMs?: number;
  /** How much the ceiling grows per attempt. Default 2. */
  readonly factor?: number;
  /** A number in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
}

/**
 * Exponential backoff with full jitter: attempt `n` waits a uniformly random time below
 * `min(maxMs, initialMs × factor^n)`, so that clients cut off together do not reconnect together.
 *
 * @example
 * const backoff = exponentialBackoff({ initialMs: 100, maxMs: 10_000 });
 * backoff(0); // somewhere in [0, 100)
 * backoff(5); // somewhere in [0, 3200)
 */
export function exponentialBackoff(options: ExponentialBackoffOptions = {}): BackoffPolicy {
  const { initialMs = 250, maxMs = 30_000, factor = 2, random = Math.random } = options;
  for (const [name, value] of [
    ['initialMs', initialMs],
    ['maxMs', maxMs],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new HearthNetLocalError(
        'invalid_pubsub_options',
        `${name} must be a non-negative integer, got ${String(value)}`,
      );
    }
  }
  if (!Number.isFinite(factor) || factor < 1) {
    throw new HearthNetLocalError(
      'invalid_pubsub_options',
      `factor must be a number >= 1, got ${String(factor)}`,
    );
  }
  return (attempt) => {
    const ceiling = Math.min(maxMs, initialMs * factor ** Math.max(0, attempt));
    return Math.floor(random() * ceiling);
  };
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** A {@link Sleep} on `setTimeout`. */
export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Checks a payload a node delivered on `topic`: it must match the topic (`validateTopicPayload`)
 * and, when `verifyEvents` is set, an event envelope's signature must verify under its author
 * (`verifyEvent`), so a relaying node cannot forge or alter events.
 *
 * @throws {HearthNetLocalError} `pubsub_protocol` naming what is wrong.
 */
export function checkDeliveredPayload(topic: ResolvedTopic, payload: unknown, verifyEvents: boolean): void {
  try {
    validateTopicPayload(topic, payload);
  } catch (error) {
    if (error instanceof HearthNetLocalError && error.code === 'invalid_topic_payload') {
      throw new HearthNetLocalError(
        'pubsub_protocol',
        `the node delivered an invalid payload: ${error.message}`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
  if (verifyEvents && topic.definition.payload === 'event_envelope') {
    const verdict = verifyEvent(payload);
    if (!verdict.valid) {
      throw new HearthNetLocalError(
        'pubsub_protocol',
        `the node delivered an event on ${topic.topic} that fails verification: ${verdict.message}`,
      );
    }
  }
}
