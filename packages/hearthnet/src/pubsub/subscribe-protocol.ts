import { z } from 'zod';
import { BadRequestError, UnauthorizedError } from '../capabilities/hearthnet-errors.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { HearthNetLocalError } from '../errors.js';
import { formatWireTimestamp, newRequestId, signRequestEnvelope, WIRE_HEADERS } from '../wire/envelope.js';
import type { RequestVerifier } from '../wire/request-verifier.js';

/** The long-poll endpoint of contract §8: `GET /pubsub/v1/subscribe?topic=…&cursor=…&wait_ms=…&limit=…`. */
export const PUBSUB_SUBSCRIBE_PATH = '/pubsub/v1/subscribe';
/** How long a long poll waits for an item when the request names no `wait_ms`: 25 s. */
export const DEFAULT_WAIT_MS = 25_000;
/** The longest wait a server grants; a larger `wait_ms` is lowered to it: 60 s. */
export const MAX_WAIT_MS = 60_000;
/** The most items one answer holds. */
export const MAX_READ_LIMIT = 1000;

/** The parameters of one long-poll request, parsed. */
export interface SubscribeQuery {
  readonly topic: string;
  /** `undefined`: from now on. */
  readonly cursor: number | undefined;
  readonly waitMs: number | undefined;
  readonly limit: number | undefined;
}

const known = new Set(['topic', 'cursor', 'wait_ms', 'limit']);

/**
 * Parses the query of a subscribe request: `topic` (required), `cursor`, `wait_ms` and `limit`
 * (decimal non-negative integers; `limit` at least 1 and at most {@link MAX_READ_LIMIT}).
 *
 * @throws `BadRequestError` for a missing topic, an unknown parameter or a malformed number.
 */
export function parseSubscribeQuery(parameters: SignedParameters): SubscribeQuery {
  for (const name of Object.keys(parameters)) {
    if (!known.has(name)) throw new BadRequestError(`unknown query parameter ${name}`);
  }
  const topic = parameters['topic'];
  if (topic === undefined || topic === '') throw new BadRequestError('the query names no topic');
  const limit = integerParameter(parameters, 'limit');
  if (limit !== undefined && (limit < 1 || limit > MAX_READ_LIMIT)) {
    throw new BadRequestError(`limit must be between 1 and ${MAX_READ_LIMIT}`);
  }
  return {
    topic,
    cursor: integerParameter(parameters, 'cursor'),
    waitMs: integerParameter(parameters, 'wait_ms'),
    limit,
  };
}

/** The query of a subscribe request, as the client sends and signs it. */
export function formatSubscribeQuery(query: SubscribeQuery): Record<string, string> {
  return {
    topic: query.topic,
    ...(query.cursor === undefined ? {} : { cursor: String(query.cursor) }),
    ...(query.waitMs === undefined ? {} : { wait_ms: String(query.waitMs) }),
    ...(query.limit === undefined ? {} : { limit: String(query.limit) }),
  };
}

const cursorSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** The JSON body of a successful subscribe response (a `TopicRead`). */
export const topicReadSchema = z.strictObject({
  items: z.array(z.strictObject({ seq: cursorSchema, topic: z.string(), payload: z.unknown() })),
  cursor: cursorSchema,
  gap: z.boolean(),
});

/** Parses a decimal non-negative integer parameter; `undefined` when absent. */
export function integerParameter(parameters: SignedParameters, name: string): number | undefined {
  const text = parameters[name];
  if (text === undefined) return undefined;
  const value = /^(0|[1-9][0-9]{0,15})$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value)) {
    throw new BadRequestError(`${name} must be a non-negative integer, got ${JSON.stringify(text)}`);
  }
  return value;
}

/**
 * The `capability` and `version` a pub-sub request signs in place of a capability's (contract §5.1
 * envelope). They are fixed per endpoint and never taken from the request, so a signature made for a
 * bus call or for the other endpoint does not verify here.
 */
export interface SignedRoute {
  readonly capability: string;
  readonly version: string;
}

/** The routes of `GET /pubsub/v1/subscribe` and of the WebSocket upgrade `GET /pubsub/v1/ws/{topic}`. */
export const PUBSUB_ROUTES = Object.freeze({
  subscribe: Object.freeze({ capability: 'pubsub.subscribe', version: '1.0' }),
  websocket: Object.freeze({ capability: 'pubsub.ws', version: '1.0' }),
} satisfies Record<string, SignedRoute>);

/**
 * The request parameters a pub-sub request signs as the envelope's `body`: a GET has no body, so
 * the contract's `body` is the object of its parameters, every value a string as it travels (for
 * the WebSocket upgrade, the topic from the path plus the query). Signing them — rather than `{}` —
 * binds the signature to the topic and cursor, so a captured request cannot be pointed elsewhere.
 */
export type SignedParameters = Readonly<Record<string, string>>;

/** What a pub-sub client needs to sign its requests. */
export interface RequestSigner {
  readonly identity: KeyPair;
  readonly community: string;
  readonly now: () => number;
}

/**
 * The `X-HearthNet-*` headers of a signed pub-sub request (contract §5.1): a fresh request id, the
 * timestamp, and the signature over the envelope of `route` and `parameters`.
 */
export function signedRequestHeaders(
  signer: RequestSigner,
  route: SignedRoute,
  parameters: SignedParameters,
): Record<string, string> {
  const requestId = newRequestId(signer.now());
  const timestamp = formatWireTimestamp(signer.now());
  const { signature } = signRequestEnvelope(
    {
      ...route,
      requestId,
      from: signer.identity.nodeId,
      community: signer.community,
      timestamp,
      body: parameters,
    },
    signer.identity,
  );
  return {
    [WIRE_HEADERS.capability]: route.capability,
    [WIRE_HEADERS.capabilityVersion]: route.version,
    [WIRE_HEADERS.requestId]: requestId,
    [WIRE_HEADERS.from]: signer.identity.nodeId,
    [WIRE_HEADERS.community]: signer.community,
    [WIRE_HEADERS.timestamp]: timestamp,
    [WIRE_HEADERS.signature]: signature,
  };
}

/**
 * Authenticates a signed pub-sub request as the bus handler does a call: the §5.1 envelope of
 * `route` and `parameters` must verify under `X-HearthNet-From`, with a fresh timestamp and an unseen
 * request id (`RequestVerifier`), and name the served community when one is given.
 *
 * @returns the caller's node id.
 * @throws `BadRequestError` for a missing header; `InvalidSignatureError`, `ExpiredError`;
 *   `UnauthorizedError` for another community.
 */
export async function authenticateRequest(
  headers: Headers,
  route: SignedRoute,
  parameters: SignedParameters,
  verifier: RequestVerifier,
  community: string | undefined,
): Promise<string> {
  const from = requiredHeader(headers, WIRE_HEADERS.from);
  const requestCommunity = requiredHeader(headers, WIRE_HEADERS.community);
  await verifier.verify(
    {
      ...route,
      requestId: requiredHeader(headers, WIRE_HEADERS.requestId),
      from,
      community: requestCommunity,
      timestamp: requiredHeader(headers, WIRE_HEADERS.timestamp),
      body: parameters,
    },
    headers.get(WIRE_HEADERS.signature),
  );
  if (community !== undefined && requestCommunity !== community) {
    throw new UnauthorizedError('the request is for another community');
  }
  return from;
}

/**
 * The parameters of a URL's query as an object of strings.
 *
 * @throws `BadRequestError` when a parameter is repeated (its signed value would be ambiguous).
 */
export function queryParameters(url: URL): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (Object.hasOwn(parameters, name)) throw new BadRequestError(`the query repeats ${name}`);
    Object.defineProperty(parameters, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return parameters;
}

function requiredHeader(headers: Headers, name: string): string {
  const value = headers.get(name);
  if (value === null || value === '') throw new BadRequestError(`missing ${name} header`);
  return value;
}

/**
 * The `local_only_topic` error: a local-only topic (`emergency.mode.changed`, `capability.registered`,
 * `capability.deregistered`: contract §8 "never on the wire") subscribed to or published over the wire,
 * or published into a hub as coming from a peer.
 */
export function localOnlyTopic(
  topic: string,
  action: 'subscribe to' | 'publish',
  options?: ErrorOptions,
): HearthNetLocalError {
  return new HearthNetLocalError(
    'local_only_topic',
    `${topic} is a local-only topic (contract §8): it cannot be ${action === 'publish' ? 'published' : 'subscribed to'} over the wire`,
    { ...options, details: { topic } },
  );
}
