// The wire's strategy seam: what the bus handler and the client do differently from one wire dialect to
// another, and the contract's own dialect. Other dialects (the Python reference nodes' wire) live in
// `compat/` and are handed in through the `wire` option; `wire/` never imports them.

import type { CapabilityDescriptor } from '../capabilities/descriptor.js';
import { errorFromBody } from '../capabilities/error-body.js';
import { BadRequestError, type HearthNetError, UnauthorizedError } from '../capabilities/index.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { HearthNetLocalError } from '../errors.js';
import { errorResponse, jsonResponse, type ResponseContext } from './call-streams.js';
import {
  accepts,
  EVENT_STREAM_CONTENT_TYPE,
  isAcceptableRequestId,
  type RequestEnvelopeFields,
  signRequestEnvelope,
  WIRE_HEADERS,
} from './envelope.js';

/**
 * Which response signatures the client checks (contract §5.2): `mutating` (the contract dialect's
 * default) requires and verifies them for `*.post`, `*.invite`, `*.revoke`, `*.ingest`, `*.expire` and
 * `chat.send` and verifies any other that is present; `all` requires them on every JSON response;
 * `none` (the reference dialect's default, whose nodes never sign) ignores them.
 */
export type ResponseVerification = 'mutating' | 'all' | 'none';

/** A call body `{params, input}` of a capability outside the catalogue. */
export interface CapabilityCallBody {
  readonly params: Readonly<Record<string, unknown>>;
  readonly input: Readonly<Record<string, unknown>>;
}

/** A call as read off the wire by {@link WireDialect.readCall}, before any check beyond its shape. */
export interface IncomingCall {
  readonly capability: string;
  /** The version asked for, `major.minor`. */
  readonly version: string;
  /** The request id (`''` where the dialect carries none). */
  readonly requestId: string;
  /** `X-HearthNet-From`, when sent. */
  readonly from: string | undefined;
  /** `X-HearthNet-Community`, when sent. */
  readonly community: string | undefined;
  /** `X-HearthNet-Timestamp`, when sent. */
  readonly timestamp: string | undefined;
  /** `X-HearthNet-Signature`, when sent; the handler lets a call without one through when `acceptUnsigned`. */
  readonly signature: string | undefined;
  /** The whole parsed JSON body: what a contract signature covers as `body`, a reference signature as a whole. */
  readonly signedBody: unknown;
  /** `{params, input}` for the capability's request validator. */
  readonly request: unknown;
  /** Whether the caller asked for an event stream (it gets one when the capability streams). */
  readonly streamRequested: boolean;
}

/** What the handler lends {@link WireDialect.verifyCaller}. */
export interface CallerCheck {
  /** The community the handler serves (`BusHandlerOptions.community`), when set. */
  readonly community: string | undefined;
  /**
   * Checks a §5.1 request envelope with the handler's clock, clock skew and seen request ids: the
   * signature, the timestamp window and replays → `invalid_signature`, `expired`, `bad_request`.
   */
  readonly verifyEnvelope: (fields: RequestEnvelopeFields, signature: string | undefined) => Promise<void>;
}

/**
 * What refused a call, in the order the handler works:
 * - `endpoint` — the request is not a bus call at all (another path, a method other than POST);
 * - `json_syntax` — the body is not UTF-8 JSON text;
 * - `bus` — the bus refused the call: its routing, signature, caller, trust level or capacity;
 * - `no_provider` — no capability registered here serves the name and version asked for;
 * - `capability` — the capability refused it: its request schema, its handler, or the handler's answer.
 */
export type RefusalOrigin = 'endpoint' | 'json_syntax' | 'bus' | 'no_provider' | 'capability';

/** A refused call, as the handler hands it to {@link WireDialect.writeRefusal}. */
export interface CallRefusal {
  readonly error: HearthNetError;
  readonly origin: RefusalOrigin;
  /** A status the handler chose over the error's own: 405 for a method other than POST. */
  readonly status: number | undefined;
  /** Whether the call asked for an event stream (`false` when its routing could not be read). */
  readonly streamRequested: boolean;
}

/** A call the client is about to send, for {@link WireDialect.writeCall}. */
export interface OutgoingCall {
  readonly capability: string;
  readonly version: string;
  /** `X-HearthNet-Request-Id`, already set on the headers. */
  readonly requestId: string;
  /** `X-HearthNet-Timestamp`, already set on the headers. */
  readonly timestamp: string;
  /** The community, already set on the headers as `X-HearthNet-Community`. */
  readonly community: string;
  /** The caller's key pair, which signs the call. */
  readonly identity: KeyPair;
  /** The request body, already validated against the capability's request schema. */
  readonly request: CapabilityCallBody;
  /** Whether the caller asks for an event stream. */
  readonly stream: boolean;
}

/**
 * A wire dialect: how the bus handler and the client read and write calls and answers on one kind of
 * wire. {@link contractWire} is contract §5 and the default; `referenceWire` from
 * `@agentwire/hearthnet/compat` is what the Python reference nodes speak. Pass one as the `wire`
 * option of `createBusHandler` and `createHearthNetClient`.
 *
 * The handler keeps the order of its checks (see `createBusHandler`) and its limits in every dialect;
 * a dialect decides where the routing is, what a signature covers, and how answers and refusals look
 * on the wire.
 *
 * @example
 * import { referenceWire } from '@agentwire/hearthnet/compat';
 * const handler = createBusHandler({ identity, registry, trust, wire: referenceWire });
 * const client = createHearthNetClient({ identity, community, node, wire: referenceWire });
 */
export interface WireDialect {
  /** The dialect's name in messages: `contract`, `reference`. */
  readonly name: string;
  /** Whether calls may stream frames to the server (`duplex`, `X-HearthNet-Ack-Window`). */
  readonly clientStreams: boolean;
  /**
   * Handler: reads the routing of a call from its headers and parsed JSON body.
   *
   * @throws {HearthNetError} (`bad_request`) when the routing is missing or malformed.
   */
  readCall(headers: Headers, body: unknown): IncomingCall;
  /**
   * Handler: checks the signature of a signed call (one without a signature reaches this only when the
   * handler does not accept unsigned calls) and resolves with the verified caller's node id.
   *
   * @throws {HearthNetError} `invalid_signature`, `expired`, `unauthorized`, `bad_request`.
   */
  verifyCaller(call: IncomingCall, check: CallerCheck): Promise<string>;
  /**
   * Handler: the request body `{params, input}` as the serving capability is to read it, before it is
   * checked against the capability's schema; `published` is what the registration publishes as its
   * `params` (the manifest's). Without it, the body as the call carried it.
   */
  readonly readRequest?: (
    request: IncomingCall['request'],
    capability: {
      readonly descriptor: CapabilityDescriptor;
      readonly published: Readonly<Record<string, unknown>>;
    },
  ) => IncomingCall['request'];
  /** Handler: the response carrying a capability's JSON answer `{output, meta}`, already schema-checked. */
  writeAnswer(responder: ResponseContext, call: IncomingCall, body: unknown): Response;
  /** Handler: the response carrying a refusal. */
  writeRefusal(responder: ResponseContext, refusal: CallRefusal): Response;
  /** Client: which response signatures are checked when `verifyResponses` is not given. */
  readonly responseVerification: ResponseVerification;
  /**
   * Client: puts the routing and the signature of a call on `headers` (which already hold the request id,
   * `X-HearthNet-From`, `-Community` and `-Timestamp`) and returns the JSON body to send.
   */
  writeCall(call: OutgoingCall, headers: Headers): unknown;
  /** Client: the error a JSON answer carries, or `undefined` when it is a result. */
  readError(status: number, body: unknown): HearthNetError | undefined;
  /**
   * Client: a result, already checked against the response schema of the capability's descriptor, in
   * the contract's shape where the dialect's answers have one.
   */
  readAnswer(capability: string, body: unknown): unknown;
  /**
   * Client: the descriptor a call is checked with (request and response schemas) when the caller gives
   * no `descriptorOf`: the dialect's peers' own schemas. Without it, the contract catalogue's.
   */
  readonly descriptorOf?: (capability: string, version: string) => CapabilityDescriptor | undefined;
  /**
   * Client: the event-stream text that a plain JSON answer to a stream call stands for, when the
   * dialect's peers may answer so (a reference Space ignores `stream`). Without it, such an answer is
   * refused (`unexpected_response`).
   */
  readonly streamOfAnswer?: (body: unknown) => string;
  /** Client: whether stream frames are typed and checked against the capability's stream schema. */
  readonly typedStreamFrames: boolean;
}

/**
 * The contract's wire (§5): routing in `X-HearthNet-*` headers, body `{params, input}`, the request
 * signature over the synthetic envelope with a timestamp window and replay protection (§5.1), signed
 * responses (§5.2), typed SSE frames (§5.3), and §5.4 error bodies with their §5.5 status. The default
 * `wire` of `createBusHandler` and `createHearthNetClient`.
 *
 * @example
 * const client = createHearthNetClient({ identity, community, node, wire: contractWire });
 */
export const contractWire: WireDialect = /* @__PURE__ */ Object.freeze({
  name: 'contract',
  clientStreams: true,
  readCall: readContractCall,
  verifyCaller: verifyContractCaller,
  writeAnswer: (responder: ResponseContext, _call: IncomingCall, body: unknown) =>
    jsonResponse(responder, 200, body),
  writeRefusal: (responder: ResponseContext, { error, status }: CallRefusal) =>
    errorResponse(responder, error, status),
  responseVerification: 'mutating',
  writeCall: writeContractCall,
  readError: (status: number, body: unknown) =>
    status >= 200 && status <= 299 ? undefined : errorFromBody(body, status),
  readAnswer: (_capability: string, body: unknown) => body,
  typedStreamFrames: true,
});

const DIALECT_HOOKS = [
  'readCall',
  'verifyCaller',
  'writeAnswer',
  'writeRefusal',
  'writeCall',
  'readError',
  'readAnswer',
];

/**
 * The `wire` option checked: {@link contractWire} when absent.
 *
 * @throws {HearthNetLocalError} `invalid_wire_options` when it is not a {@link WireDialect}.
 */
export function wireDialectOf(value: unknown): WireDialect {
  if (value === undefined) return contractWire;
  if (typeof value === 'string') {
    throw new HearthNetLocalError(
      'invalid_wire_options',
      `wire takes a WireDialect, not a name: pass contractWire (the default) or referenceWire from @agentwire/hearthnet/compat, got ${JSON.stringify(value)}`,
    );
  }
  const dialect = value as Partial<Record<string, unknown>> | null;
  if (
    dialect === null ||
    typeof dialect !== 'object' ||
    typeof dialect['name'] !== 'string' ||
    DIALECT_HOOKS.some((hook) => typeof dialect[hook] !== 'function')
  ) {
    throw new HearthNetLocalError(
      'invalid_wire_options',
      `wire must be a WireDialect (contractWire, referenceWire), got ${value === null ? 'null' : typeof value}`,
    );
  }
  return value as WireDialect;
}

function readContractCall(headers: Headers, body: unknown): IncomingCall {
  const header = (name: string) => headers.get(name) ?? undefined;
  // In this order, so a call missing several headers is told about the first of them.
  const capability = required(header(WIRE_HEADERS.capability), WIRE_HEADERS.capability);
  const version = required(header(WIRE_HEADERS.capabilityVersion), WIRE_HEADERS.capabilityVersion);
  const requestId = required(header(WIRE_HEADERS.requestId), WIRE_HEADERS.requestId);
  if (!isAcceptableRequestId(requestId)) throw new BadRequestError('malformed X-HearthNet-Request-Id');
  return {
    capability,
    version,
    requestId,
    from: header(WIRE_HEADERS.from),
    community: header(WIRE_HEADERS.community),
    timestamp: header(WIRE_HEADERS.timestamp),
    signature: header(WIRE_HEADERS.signature),
    signedBody: body,
    request: body,
    streamRequested: accepts(headers.get('Accept'), EVENT_STREAM_CONTENT_TYPE),
  };
}

async function verifyContractCaller(call: IncomingCall, check: CallerCheck): Promise<string> {
  const from = required(call.from, WIRE_HEADERS.from);
  const community = required(call.community, WIRE_HEADERS.community);
  await check.verifyEnvelope(
    {
      capability: call.capability,
      version: call.version,
      requestId: call.requestId,
      from,
      community,
      timestamp: required(call.timestamp, WIRE_HEADERS.timestamp),
      body: call.signedBody,
    },
    call.signature,
  );
  if (check.community !== undefined && community !== check.community) {
    throw new UnauthorizedError('the call is for another community');
  }
  return from;
}

function writeContractCall(call: OutgoingCall, headers: Headers): unknown {
  headers.set(WIRE_HEADERS.capability, call.capability);
  headers.set(WIRE_HEADERS.capabilityVersion, call.version);
  const signed = signRequestEnvelope(
    {
      capability: call.capability,
      version: call.version,
      requestId: call.requestId,
      from: call.identity.nodeId,
      community: call.community,
      timestamp: call.timestamp,
      body: call.request,
    },
    call.identity,
  );
  headers.set(WIRE_HEADERS.signature, signed.signature);
  return signed.body;
}

function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new BadRequestError(`missing ${name} header`);
  return value;
}
