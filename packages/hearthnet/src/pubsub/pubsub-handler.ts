import { asHearthNetError } from '../capabilities/error-body.js';
import { BadRequestError, InternalError, NotFoundError } from '../capabilities/hearthnet-errors.js';
import { HearthNetLocalError } from '../errors.js';
import { errorResponse, jsonResponse, type ResponseContext } from '../wire/handler/response-writer.js';
import { WIRE_HEADERS } from '../wire/headers.js';
import { RequestVerifier } from '../wire/request-verifier.js';
import { MAX_TIMER_MS } from '../wire/sse/slow-consumer.js';
import {
  type PubSubServerOptions,
  type PubSubServerSettings,
  readPubSubServerOptions,
  SubscriptionSlots,
} from './server-options.js';
import { authenticateRequest, PUBSUB_ROUTES, queryParameters } from './signed-request.js';
import {
  DEFAULT_WAIT_MS,
  MAX_WAIT_MS,
  PUBSUB_SUBSCRIBE_PATH,
  parseSubscribeQuery,
} from './subscribe-protocol.js';
import { authoriseSubscriber } from './subscriber-access.js';

/** Options of {@link createPubSubHandler}. */
export interface PubSubHandlerOptions extends PubSubServerOptions {
  /** The wait when the request names no `wait_ms`. Default {@link DEFAULT_WAIT_MS}. */
  readonly defaultWaitMs?: number;
  /** The longest wait granted; larger `wait_ms` values are lowered to it. Default {@link MAX_WAIT_MS}. */
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
