import { asHearthNetError } from '../capabilities/error-body.js';
import {
  BadRequestError,
  CapacityExceededError,
  InternalError,
  NotFoundError,
  RevokedError,
  UnauthorizedError,
} from '../capabilities/hearthnet-errors.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { HearthNetLocalError } from '../errors.js';
import { isTrustStatus, meetsTrustLevel, type TrustPolicy, type TrustStatus } from '../wire/bus-handler.js';
import { errorResponse, jsonResponse, type ResponseContext } from '../wire/call-streams.js';
import { WIRE_HEADERS } from '../wire/envelope.js';
import { RequestVerifier, type RequestVerifierOptions } from '../wire/request-verifier.js';
import { MAX_TIMER_MS } from '../wire/sse.js';
import {
  authenticateRequest,
  DEFAULT_WAIT_MS,
  MAX_WAIT_MS,
  PUBSUB_ROUTES,
  PUBSUB_SUBSCRIBE_PATH,
  parseSubscribeQuery,
  queryParameters,
} from './subscribe-protocol.js';
import type { TopicHub } from './topic-hub.js';
import { type ResolvedTopic, resolveWireTopic } from './topics.js';

/** Options of {@link createPubSubHandler}. */
export interface PubSubHandlerOptions extends PubSubServerOptions {
  /** The wait when the request names no `wait_ms`. Default `DEFAULT_WAIT_MS`. */
  readonly defaultWaitMs?: number;
  /** The longest wait granted; larger `wait_ms` values are lowered to it. Default `MAX_WAIT_MS`. */
  readonly maxWaitMs?: number;
}

/**
 * The long-poll endpoint of contract §8, `GET /pubsub/v1/subscribe?topic=…&cursor=…&wait_ms=…`, as a
 * web-standard handler (serve it with `@agentwire/hearthnet/node-http`). For each request it:
 * 1. authenticates the signed headers as the bus handler does (§5.1; the envelope's `capability` is
 *    `pubsub.subscribe`, its `body` the query parameters, see `SignedParameters`) → `bad_request`,
 *    `invalid_signature`, `expired`, `unauthorized` (other community);
 * 2. authorises the topic (`authoriseSubscriber`) → `revoked`, `not_found`, `bad_request`
 *    (local-only topic), `unauthorized` (someone else's chat, non-member);
 * 3. takes one of the caller's `maxSubscriptionsPerCaller` slots (and one of `maxSubscriptions`) →
 *    `capacity_exceeded` (429, `retry_after_ms`) past either bound;
 * 4. reads the hub after `cursor`, waiting up to `wait_ms` (bounded by `maxWaitMs`) for a new item,
 *    and answers the signed JSON `{items, cursor, gap}` (§5.2); the wait ends, and its slot and hub
 *    waiter are freed, when the client goes away.
 *
 * The client asks again with the returned `cursor`.
 *
 * @example
 * const hub = new TopicHub();
 * const store = new PublishingEventStore(new InMemoryEventStore(), hub);
 * const node = await serveBusHandler(createPubSubHandler({ identity, hub, trust, community }), { port: 7081 });
 */
export function createPubSubHandler(options: PubSubHandlerOptions): (request: Request) => Promise<Response> {
  const settings = readOptions(options);
  const slots = new SubscriptionSlots(settings);
  const verifier = new RequestVerifier({
    now: settings.now,
    ...(options.clockSkewMs === undefined ? {} : { clockSkewMs: options.clockSkewMs }),
    ...(options.seenRequestIds === undefined ? {} : { seenRequestIds: options.seenRequestIds }),
  });
  return async (request) => {
    const responder: ResponseContext = {
      identity: settings.identity,
      ...PUBSUB_ROUTES.subscribe,
      requestId: request.headers.get(WIRE_HEADERS.requestId) ?? '',
      signResponses: true,
      now: settings.now,
    };
    try {
      const url = new URL(request.url);
      if (url.pathname !== PUBSUB_SUBSCRIBE_PATH) {
        throw new NotFoundError(`no pub-sub endpoint at ${url.pathname}`);
      }
      if (request.method !== 'GET') {
        const response = errorResponse(responder, new BadRequestError('subscribe with GET'), 405);
        response.headers.set('Allow', 'GET');
        return response;
      }
      const parameters = queryParameters(url);
      const query = parseSubscribeQuery(parameters);
      const caller = await authenticateRequest(
        request.headers,
        PUBSUB_ROUTES.subscribe,
        parameters,
        verifier,
        settings.community,
      );
      const topic = await authoriseSubscriber(settings.trust, caller, query.topic);
      const release = slots.acquire(caller);
      try {
        const answer = await settings.hub.read(topic.topic, query.cursor, {
          waitMs: Math.min(query.waitMs ?? settings.defaultWaitMs, settings.maxWaitMs),
          signal: request.signal,
          ...(query.limit === undefined ? {} : { limit: query.limit }),
        });
        return jsonResponse(responder, 200, answer);
      } finally {
        release();
      }
    } catch (error) {
      // An aborted wait means the client went away: nobody reads this answer.
      if (request.signal.aborted) return errorResponse(responder, new InternalError('the client went away'));
      return errorResponse(responder, asHearthNetError(error));
    }
  };
}

interface Settings extends PubSubServerSettings {
  readonly defaultWaitMs: number;
  readonly maxWaitMs: number;
}

function readOptions(options: PubSubHandlerOptions): Settings {
  const shared = readPubSubServerOptions(options);
  const maxWaitMs = options.maxWaitMs ?? MAX_WAIT_MS;
  const defaultWaitMs = options.defaultWaitMs ?? Math.min(DEFAULT_WAIT_MS, maxWaitMs);
  for (const [name, value] of [
    ['maxWaitMs', maxWaitMs],
    ['defaultWaitMs', defaultWaitMs],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0 || value > MAX_TIMER_MS) {
      throw new HearthNetLocalError(
        'invalid_pubsub_options',
        `${name} must be a non-negative integer (ms), got ${String(value)}`,
      );
    }
  }
  return { ...shared, defaultWaitMs, maxWaitMs };
}

/** What every pub-sub transport's server side is given (long-poll handler, WebSocket endpoint). */
export interface PubSubServerOptions extends Pick<RequestVerifierOptions, 'clockSkewMs' | 'seenRequestIds'> {
  /** This node's key pair: it answers as `X-HearthNet-From` and signs what it answers. */
  readonly identity: KeyPair;
  /** The hub served. */
  readonly hub: TopicHub;
  /** The callers' trust status (the same policy as the bus handler's). */
  readonly trust: TrustPolicy;
  /** The community served; a request for another community is `unauthorized`. Default: not checked. */
  readonly community?: string;
  /** The clock, epoch ms. Default `Date.now`. */
  readonly now?: () => number;
  /**
   * The most subscriptions one caller (node id) may hold open at once on this transport (waiting long
   * polls, or WebSocket connections); one more is refused with `capacity_exceeded` (429,
   * `retry_after_ms` 1000) until one ends. Default `DEFAULT_MAX_SUBSCRIPTIONS_PER_CALLER` (32).
   */
  readonly maxSubscriptionsPerCaller?: number;
  /**
   * The most subscriptions of all callers open at once on this transport; one more is refused like
   * above. Default `DEFAULT_MAX_SUBSCRIPTIONS` (4096).
   */
  readonly maxSubscriptions?: number;
}

/** The default `maxSubscriptionsPerCaller`: room for every wire topic of §8, several times over. */
export const DEFAULT_MAX_SUBSCRIPTIONS_PER_CALLER = 32;
/** The default `maxSubscriptions` of one transport. */
export const DEFAULT_MAX_SUBSCRIPTIONS = 4096;

/** {@link PubSubServerOptions} checked, with the clock and the limits defaulted. */
export interface PubSubServerSettings {
  readonly identity: KeyPair;
  readonly hub: TopicHub;
  readonly trust: TrustPolicy;
  readonly community: string | undefined;
  readonly now: () => number;
  readonly maxSubscriptionsPerCaller: number;
  readonly maxSubscriptions: number;
}

/**
 * Checks the options both pub-sub server transports share.
 *
 * @throws {HearthNetLocalError} `invalid_pubsub_options` naming the unusable option.
 */
export function readPubSubServerOptions(options: PubSubServerOptions): PubSubServerSettings {
  if (options === null || typeof options !== 'object') {
    throw new HearthNetLocalError('invalid_pubsub_options', 'options are required');
  }
  const { identity, hub, trust } = options;
  if (identity === null || typeof identity !== 'object' || typeof identity.nodeId !== 'string') {
    throw new HearthNetLocalError('invalid_pubsub_options', 'identity must be a KeyPair');
  }
  if (hub === null || typeof hub !== 'object' || typeof hub.read !== 'function') {
    throw new HearthNetLocalError('invalid_pubsub_options', 'hub must be a TopicHub');
  }
  if (trust === null || typeof trust !== 'object' || typeof trust.trustOf !== 'function') {
    throw new HearthNetLocalError(
      'invalid_pubsub_options',
      'trust must be a TrustPolicy with trustOf(nodeId)',
    );
  }
  const maxSubscriptionsPerCaller = options.maxSubscriptionsPerCaller ?? DEFAULT_MAX_SUBSCRIPTIONS_PER_CALLER;
  const maxSubscriptions = options.maxSubscriptions ?? DEFAULT_MAX_SUBSCRIPTIONS;
  for (const [name, value] of [
    ['maxSubscriptionsPerCaller', maxSubscriptionsPerCaller],
    ['maxSubscriptions', maxSubscriptions],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new HearthNetLocalError(
        'invalid_pubsub_options',
        `${name} must be a positive integer, got ${String(value)}`,
      );
    }
  }
  return {
    identity,
    hub,
    trust,
    community: options.community,
    now: options.now ?? Date.now,
    maxSubscriptionsPerCaller,
    maxSubscriptions,
  };
}

/** The `retry_after_ms` of a subscription refused for {@link SubscriptionSlots}. */
const SUBSCRIPTION_RETRY_AFTER_MS = 1000;

/**
 * The open subscriptions of one transport, counted per caller and in all, so that a peer opening
 * thousands of long polls or sockets costs a bounded number of waiters.
 */
export class SubscriptionSlots {
  readonly #perCaller = new Map<string, number>();
  readonly #maxPerCaller: number;
  readonly #max: number;
  #open = 0;

  constructor(settings: Pick<PubSubServerSettings, 'maxSubscriptionsPerCaller' | 'maxSubscriptions'>) {
    this.#maxPerCaller = settings.maxSubscriptionsPerCaller;
    this.#max = settings.maxSubscriptions;
  }

  /**
   * Takes a slot for `caller`.
   *
   * @returns its release (calling it again does nothing).
   * @throws {CapacityExceededError} (429, `retry_after_ms` 1000) when the caller or the transport is at its
   *   limit.
   */
  acquire(caller: string): () => void {
    const held = this.#perCaller.get(caller) ?? 0;
    if (held >= this.#maxPerCaller || this.#open >= this.#max) {
      throw new CapacityExceededError(
        held >= this.#maxPerCaller
          ? `node ${caller} already holds ${held} subscriptions (maxSubscriptionsPerCaller)`
          : `${this.#open} subscriptions are open (maxSubscriptions)`,
        { retryAfterMs: SUBSCRIPTION_RETRY_AFTER_MS },
      );
    }
    this.#perCaller.set(caller, held + 1);
    this.#open += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#open -= 1;
      const left = (this.#perCaller.get(caller) ?? 1) - 1;
      if (left === 0) this.#perCaller.delete(caller);
      else this.#perCaller.set(caller, left);
    };
  }
}

/**
 * Decides whether an authenticated caller may subscribe to a topic over the wire (contract §8
 * "Subscriber"), in this order:
 * 1. a revoked caller → `revoked` (403);
 * 2. a topic outside the catalogue → `not_found` (404); a local-only topic → `bad_request` (400);
 * 3. `members` topics need member trust, `anchors` topics anchor trust, and a
 *    `chat.message.<recipient>` topic member trust and the caller being `<recipient>` → otherwise
 *    `unauthorized` (401, the status contract §5.5 gives the code).
 *
 * @returns the resolved topic.
 */
export async function authoriseSubscriber(
  trust: TrustPolicy,
  caller: string,
  topic: unknown,
): Promise<ResolvedTopic> {
  const status = await trustStatusOf(trust, caller);
  if (status === 'revoked') throw new RevokedError(`node ${caller} is revoked`);
  let resolved: ResolvedTopic;
  try {
    resolved = resolveWireTopic(topic, 'subscribe to');
  } catch (error) {
    if (error instanceof HearthNetLocalError && error.code === 'unknown_topic') {
      throw new NotFoundError(error.message, { cause: error });
    }
    if (error instanceof HearthNetLocalError && error.code === 'local_only_topic') {
      throw new BadRequestError(error.message, { cause: error });
    }
    throw error;
  }
  const { audience } = resolved.definition;
  if (!meetsTrustLevel(status, 'member')) {
    throw new UnauthorizedError(`${resolved.topic} is for community members; the caller is ${status}`);
  }
  if (audience === 'anchors' && status !== 'anchor') {
    throw new UnauthorizedError(`${resolved.topic} is for anchors; the caller is ${status}`);
  }
  if (audience === 'recipient' && resolved.recipient !== caller) {
    throw new UnauthorizedError(`${resolved.topic} is for its recipient only`);
  }
  return resolved;
}

/** The caller's trust status, checked to be one (a policy answering anything else is a server bug). */
export async function trustStatusOf(trust: TrustPolicy, caller: string): Promise<TrustStatus> {
  const status = await trust.trustOf(caller);
  if (!isTrustStatus(status)) throw new InternalError(`the trust policy answered ${JSON.stringify(status)}`);
  return status;
}
