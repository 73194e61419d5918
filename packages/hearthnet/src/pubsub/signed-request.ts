import { BadRequestError, UnauthorizedError } from '../capabilities/hearthnet-errors.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { signRequestEnvelope } from '../wire/envelope.js';
import { WIRE_HEADERS } from '../wire/headers.js';
import { newRequestId } from '../wire/request-id.js';
import type { RequestVerifier } from '../wire/request-verifier.js';
import { formatWireTimestamp } from '../wire/timestamp.js';

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
