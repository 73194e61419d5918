import { asHearthNetError } from '../capabilities/error-body.js';
import { BadRequestError, InternalError, NotFoundError } from '../capabilities/hearthnet-errors.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { errorResponse, jsonResponse, type ResponseContext } from '../wire/handler/response-writer.js';
import type { TrustPolicy } from '../wire/handler/trust.js';
import { WIRE_HEADERS } from '../wire/headers.js';
import { RequestVerifier, type RequestVerifierOptions } from '../wire/request-verifier.js';
import { InvalidPubSubOptionsError } from './errors.js';
import { authenticateRequest, PUBSUB_ROUTES, queryParameters } from './signed-request.js';
import {
  DEFAULT_WAIT_MS,
  MAX_WAIT_MS,
  PUBSUB_SUBSCRIBE_PATH,
  parseSubscribeQuery,
} from './subscribe-protocol.js';
import { authoriseSubscriber } from './subscriber-access.js';
import type { TopicHub } from './topic-hub.js';

/** Options of {@link createPubSubHandler}. */
export interface PubSubHandlerOptions extends Pick<RequestVerifierOptions, 'clockSkewMs' | 'seenRequestIds'> {
  /** This node's key pair: it answers as `X-HearthNet-From` and signs the responses. */
  readonly identity: KeyPair;
  /** The hub served. */
  readonly hub: TopicHub;
  /** The callers' trust status (the same policy as the bus handler's). */
  readonly trust: TrustPolicy;
  /** The community served; a request for another community is `unauthorized`. Default: not checked. */
  readonly community?: string;
  /** The wait when the request names no `wait_ms`. Default {@link DEFAULT_WAIT_MS}. */
  readonly defaultWaitMs?: number;
  /** The longest wait granted; larger `wait_ms` values are lowered to it. Default {@link MAX_WAIT_MS}. */
  readonly maxWaitMs?: number;
  /** The clock, epoch ms. Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * The long-poll endpoint of contract §8, `GET /pubsub/v1/subscribe?topic=…&cursor=…&wait_ms=…`, as a
 * web-standard handler (serve it with `@agentwire/hearthnet/node-http`). For each request it:
 * 1. authenticates the signed headers as the bus handler does (§5.1; the envelope's `capability` is
 *    `pubsub.subscribe`, its `body` the query parameters, see `SignedParameters`) → `bad_request`,
 *    `invalid_signature`, `expired`, `unauthorized` (other community);
 * 2. authorises the topic (`authoriseSubscriber`) → `revoked`, `not_found`, `bad_request`
 *    (local-only topic), `unauthorized` (someone else's chat, non-member);
 * 3. reads the hub after `cursor`, waiting up to `wait_ms` (bounded by `maxWaitMs`) for a new item,
 *    and answers the signed JSON `{items, cursor, gap}` (§5.2); the wait ends when the client goes away.
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
      const answer = await settings.hub.read(topic.topic, query.cursor, {
        waitMs: Math.min(query.waitMs ?? settings.defaultWaitMs, settings.maxWaitMs),
        signal: request.signal,
        ...(query.limit === undefined ? {} : { limit: query.limit }),
      });
      return jsonResponse(responder, 200, answer);
    } catch (error) {
      // An aborted wait means the client went away: nobody reads this answer.
      if (request.signal.aborted) return errorResponse(responder, new InternalError('the client went away'));
      return errorResponse(responder, asHearthNetError(error));
    }
  };
}

interface Settings {
  readonly identity: KeyPair;
  readonly hub: TopicHub;
  readonly trust: TrustPolicy;
  readonly community: string | undefined;
  readonly defaultWaitMs: number;
  readonly maxWaitMs: number;
  readonly now: () => number;
}

function readOptions(options: PubSubHandlerOptions): Settings {
  if (options === null || typeof options !== 'object') {
    throw new InvalidPubSubOptionsError('options are required');
  }
  const { identity, hub, trust } = options;
  if (identity === null || typeof identity !== 'object' || typeof identity.nodeId !== 'string') {
    throw new InvalidPubSubOptionsError('identity must be a KeyPair');
  }
  if (hub === null || typeof hub !== 'object' || typeof hub.read !== 'function') {
    throw new InvalidPubSubOptionsError('hub must be a TopicHub');
  }
  if (trust === null || typeof trust !== 'object' || typeof trust.trustOf !== 'function') {
    throw new InvalidPubSubOptionsError('trust must be a TrustPolicy with trustOf(nodeId)');
  }
  const maxWaitMs = options.maxWaitMs ?? MAX_WAIT_MS;
  const defaultWaitMs = options.defaultWaitMs ?? Math.min(DEFAULT_WAIT_MS, maxWaitMs);
  for (const [name, value] of [
    ['maxWaitMs', maxWaitMs],
    ['defaultWaitMs', defaultWaitMs],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0 || value > 2 ** 31 - 1) {
      throw new InvalidPubSubOptionsError(
        `${name} must be a non-negative integer (ms), got ${String(value)}`,
      );
    }
  }
  return {
    identity,
    hub,
    trust,
    community: options.community,
    defaultWaitMs,
    maxWaitMs,
    now: options.now ?? Date.now,
  };
}
