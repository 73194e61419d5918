import { parseStrictJsonBytes } from '../canonical-json/strict-json.js';
import { parseCapabilityVersion } from '../capabilities/capability-name.js';
import type { CapabilityRegistration } from '../capabilities/capability-registry.js';
import { FILE_PUT } from '../capabilities/catalogue/catalogue.js';
import type { TrustLevel } from '../capabilities/descriptor.js';
import { toErrorBody } from '../capabilities/error-body.js';
import {
  asHearthNetError,
  BadRequestError,
  type CapabilityDescriptor,
  type CapabilityRegistry,
  CapacityExceededError,
  InternalError,
  NotFoundError,
  RevokedError,
  SchemaMismatchError,
  UnauthorizedError,
} from '../capabilities/index.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { HearthNetLocalError } from '../errors.js';
import {
  type ClientStream,
  frameStream,
  openClientStream,
  type ResponseContext,
  readBodyWithin,
  validatedFrames,
} from './call-streams.js';
import { filePutChunkFromBytes } from './chunk-frame.js';
import { type IncomingCall, type RefusalOrigin, type WireDialect, wireDialectOf } from './dialect.js';
import {
  ACK_WINDOW_HEADER,
  BUS_CALL_PATH,
  EVENT_STREAM_CONTENT_TYPE,
  isMediaType,
  JSON_CONTENT_TYPE,
  WIRE_HEADERS,
} from './envelope.js';
import { RequestVerifier, type RequestVerifierOptions } from './request-verifier.js';
import { AckWindow, MAX_TIMER_MS, type SseFrame, streamFrameValidator } from './sse.js';

/** How long a stream stays silent before the handler writes a `: keepalive` comment, by default. */
export const DEFAULT_KEEPALIVE_MS = 15_000;
/** The largest `X-HearthNet-Ack-Window` a client may ask for. */
export const MAX_ACK_WINDOW = 1024;
/** How many client-stream frames are read ahead of the capability handler. */
const CLIENT_FRAMES_READ_AHEAD = 4;

/** A web-standard request handler: runs on Node (see `@agentwire/hearthnet/node-http`), Bun, Deno, workers. */
export type BusHandler = (request: Request) => Promise<Response>;

/** Options of {@link createBusHandler}. */
export interface BusHandlerOptions extends Pick<RequestVerifierOptions, 'clockSkewMs' | 'seenRequestIds'> {
  /** This node's key pair: its node id answers as `X-HearthNet-From` and signs responses. */
  readonly identity: KeyPair;
  /** The capabilities served, with their handlers and `max_concurrent`. */
  readonly registry: BusRegistry;
  /** The caller's trust status, checked against each capability's required level (contract §3.2). */
  readonly trust: TrustPolicy;
  /** The community served; a contract call for another community is `unauthorized`. Default: not checked. */
  readonly community?: string;
  /**
   * The wire dialect spoken: where the routing is, what a signature covers, how answers and refusals
   * look. Default `contractWire` (contract §5); `referenceWire` from `@agentwire/hearthnet/compat` is
   * the Python reference nodes' dialect (docs/hearthnet.md, "Reference-compat mode").
   */
  readonly wire?: WireDialect;
  /**
   * Accept calls without `X-HearthNet-Signature` (their caller is `undefined` for the trust policy).
   * Reference nodes' own transport signs nothing (note §6). Default `false`.
   */
  readonly acceptUnsigned?: boolean;
  /**
   * Sign JSON responses (contract §5.2: servers SHOULD). Default `true`. `referenceWire` never signs:
   * it writes answers as plain JSON, numbers unnormalised, as a reference node writes them.
   */
  readonly signResponses?: boolean;
  /** `retry_after_ms` sent with `capacity_exceeded`. Default 1000. */
  readonly retryAfterMs?: number;
  /**
   * How long a stream may stay silent before a `: keepalive` comment line is written (SSE comments
   * are skipped by readers; they keep proxies and idle-timeouts from closing the connection while a
   * handler works on its next frame). Milliseconds; `0` sends none. Default 15 000.
   */
  readonly keepaliveMs?: number;
  /** The largest request body accepted, in bytes. Default 10 MiB (the reference's limit). */
  readonly maxBodyBytes?: number;
  /** The path served; other paths answer `not_found`. Default `/bus/v1/call`; `null` serves any path. */
  readonly path?: string | null;
  /** The clock, epoch ms. Default `Date.now`. */
  readonly now?: () => number;
  /** Sees every exception that became `internal_error` (for logging); it must not throw. */
  readonly onInternalError?: (
    error: unknown,
    call: { readonly capability: string; readonly requestId: string },
  ) => void;
}

/**
 * A handler that serves this node's capabilities over the signed wire (contract §5): a web `Request`
 * in, a `Response` out. For each call it, in order:
 * 1. reads the routing (`X-HearthNet-*` headers; where the `wire` dialect says) → `bad_request`;
 * 2. verifies the signature, timestamp window and request id (§5.1) → `invalid_signature`, `expired`;
 *    and the community → `unauthorized`;
 * 3. asks the trust policy → `revoked`;
 * 4. resolves the capability (§2.1: same major, highest minor) → `not_found`, or `schema_mismatch`
 *    with `alt_capabilities` and `schema_hash_expected` when only another major is offered;
 * 5. checks the trust level the capability requires (§3.2) → `unauthorized`;
 * 6. validates the request body → `bad_request`;
 * 7. takes a `max_concurrent` slot → `capacity_exceeded` with `retry_after_ms`;
 * 8. runs the handler with an abort signal that fires when the client goes away (§4.1), and answers
 *    with the signed JSON body (§5.2), an SSE stream (§5.3), or the §5.4 error body with its §5.5
 *    status.
 *
 * Conditions beyond the level (`market.expire` own posts only, `chat.history` self only, invite rights,
 * `community.revoke` co-signers) are the capability handler's to check, with `context.caller`.
 *
 * @example
 * const registry = new CapabilityRegistry<CapabilityHandler>();
 * registry.register(catalogueDescriptor('market.post'), async ({ input }) => ({ output: await post(input), meta: { ms: 1 } }), { maxConcurrent: 4 });
 * const handler = createBusHandler({ identity, registry, community, trust: staticTrust({ [peer]: 'member' }) });
 * const response = await handler(request);
 */
export function createBusHandler(options: BusHandlerOptions): BusHandler {
  const settings = readOptions(options);
  const verifier = new RequestVerifier({
    now: settings.now,
    ...(options.clockSkewMs === undefined ? {} : { clockSkewMs: options.clockSkewMs }),
    ...(options.seenRequestIds === undefined ? {} : { seenRequestIds: options.seenRequestIds }),
  });
  return (request) => handleCall(request, settings, verifier);
}

interface Settings {
  readonly identity: KeyPair;
  readonly registry: BusRegistry;
  readonly trust: TrustPolicy;
  readonly community: string | undefined;
  readonly wire: WireDialect;
  readonly acceptUnsigned: boolean;
  readonly signResponses: boolean;
  readonly retryAfterMs: number;
  readonly keepaliveMs: number;
  readonly maxBodyBytes: number;
  readonly path: string | null;
  readonly now: () => number;
  readonly onInternalError: BusHandlerOptions['onInternalError'];
}

function readOptions(options: BusHandlerOptions): Settings {
  if (options === null || typeof options !== 'object')
    throw new HearthNetLocalError('invalid_wire_options', 'options are required');
  const { identity, registry, trust } = options;
  if (identity === null || typeof identity !== 'object' || typeof identity.nodeId !== 'string') {
    throw new HearthNetLocalError('invalid_wire_options', 'identity must be a KeyPair');
  }
  if (registry === null || typeof registry !== 'object' || typeof registry.resolve !== 'function') {
    throw new HearthNetLocalError('invalid_wire_options', 'registry must be a CapabilityRegistry');
  }
  if (trust === null || typeof trust !== 'object' || typeof trust.trustOf !== 'function') {
    throw new HearthNetLocalError('invalid_wire_options', 'trust must be a TrustPolicy with trustOf(nodeId)');
  }
  const retryAfterMs = options.retryAfterMs ?? 1000;
  const maxBodyBytes = options.maxBodyBytes ?? 10 * 1024 * 1024;
  const keepaliveMs = options.keepaliveMs ?? DEFAULT_KEEPALIVE_MS;
  for (const [name, value] of [
    ['retryAfterMs', retryAfterMs],
    ['maxBodyBytes', maxBodyBytes],
    ['keepaliveMs', keepaliveMs],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new HearthNetLocalError(
        'invalid_wire_options',
        `${name} must be a non-negative integer, got ${String(value)}`,
      );
    }
  }
  if (keepaliveMs > MAX_TIMER_MS) {
    throw new HearthNetLocalError(
      'invalid_wire_options',
      `keepaliveMs must be at most ${MAX_TIMER_MS}, got ${keepaliveMs}`,
    );
  }
  return {
    identity,
    registry,
    trust,
    community: options.community,
    wire: wireDialectOf(options.wire),
    acceptUnsigned: options.acceptUnsigned === true,
    signResponses: options.signResponses !== false,
    retryAfterMs,
    keepaliveMs,
    maxBodyBytes,
    path: options.path === undefined ? BUS_CALL_PATH : options.path,
    now: options.now ?? Date.now,
    onInternalError: options.onInternalError,
  };
}

async function handleCall(
  request: Request,
  settings: Settings,
  verifier: RequestVerifier,
): Promise<Response> {
  let responder: ResponseContext = {
    identity: settings.identity,
    capability: request.headers.get(WIRE_HEADERS.capability) ?? '',
    version: request.headers.get(WIRE_HEADERS.capabilityVersion) ?? '',
    requestId: request.headers.get(WIRE_HEADERS.requestId) ?? '',
    signResponses: settings.signResponses,
    now: settings.now,
  };
  // What would refuse the call at this point, for the dialect's refusal: some dialects answer a
  // capability's own errors, or a call no provider serves, otherwise than the bus's other refusals.
  let origin: RefusalOrigin = 'bus';
  let streamRequested = false;
  let clientStream: ClientStream | undefined;
  let credit: AckWindow | undefined;
  try {
    if (settings.path !== null && new URL(request.url).pathname !== settings.path) {
      return settings.wire.writeRefusal(responder, {
        error: new NotFoundError(`no bus endpoint at ${new URL(request.url).pathname}`),
        origin: 'endpoint',
        status: undefined,
        streamRequested,
      });
    }
    if (request.method !== 'POST') {
      const response = settings.wire.writeRefusal(responder, {
        error: new BadRequestError('capability calls are POST requests'),
        origin: 'endpoint',
        status: 405,
        streamRequested,
      });
      response.headers.set('Allow', 'POST');
      return response;
    }
    let body: unknown;
    if (isMediaType(request.headers.get('Content-Type'), EVENT_STREAM_CONTENT_TYPE)) {
      if (!settings.wire.clientStreams) {
        throw new BadRequestError(`the ${settings.wire.name} wire has no client streams`);
      }
      credit = ackWindowOf(request.headers.get(ACK_WINDOW_HEADER));
      const window = credit;
      clientStream = await openClientStream(request.body, {
        // The first frame's text, in characters (the JSON body a plain call sends); later events in bytes.
        maxRequestLength: settings.maxBodyBytes,
        maxEventLength: 16 * 1024 * 1024,
        onAck: (upto) => window?.acknowledge(upto),
        capacity: CLIENT_FRAMES_READ_AHEAD,
        // `file.put` chunks are read from their bytes; whether its schema is the catalogue's is checked
        // with the registration (validatedFrames).
        ...(request.headers.get(WIRE_HEADERS.capability) === FILE_PUT.name
          ? { fromBytes: filePutChunkFromBytes }
          : {}),
      });
      body = clientStream.body;
    } else {
      const read = await readJsonBody(request, settings.maxBodyBytes);
      if (!read.ok) {
        origin = 'json_syntax';
        throw read.error;
      }
      body = read.value;
    }
    const call = settings.wire.readCall(request.headers, body);
    streamRequested = call.streamRequested;
    responder = {
      ...responder,
      capability: call.capability,
      version: call.version,
      requestId: call.requestId,
    };
    const caller = await authenticate(call, settings, verifier);
    const trust = await trustOf(settings.trust, caller);
    if (trust === 'revoked') throw new RevokedError(`node ${caller ?? '(unsigned)'} is revoked`);
    origin = 'no_provider';
    const registration = resolve(settings.registry, call);
    origin = 'bus';
    if (!meetsTrustLevel(trust, registration.descriptor.trust.level)) {
      throw new UnauthorizedError(
        `${registration.descriptor.name} requires trust level ${registration.descriptor.trust.level}; the caller is ${trust}`,
      );
    }
    origin = 'capability';
    const callBody = settings.wire.readRequest?.(call.request, {
      descriptor: registration.descriptor,
      published: registration.params,
    });
    const validated = registration.validators.request.parse(
      callBody ?? call.request,
    ) as Parameters<CapabilityHandler>[0];
    const release = registration.tryAcquire();
    if (release === undefined) {
      origin = 'bus';
      throw new CapacityExceededError(
        `${registration.descriptor.name}@${registration.descriptor.version} is at max_concurrent (${registration.maxConcurrent})`,
        { retryAfterMs: settings.retryAfterMs },
      );
    }
    return await dispatch(request, call, registration, validated, {
      caller,
      trust,
      release,
      responder,
      settings,
      clientStream,
      credit,
    });
  } catch (error) {
    clientStream?.close();
    reportUnexpected(settings, error, responder);
    return settings.wire.writeRefusal(responder, {
      error: asHearthNetError(error),
      origin,
      status: undefined,
      streamRequested,
    });
  }
}

/** Hands an exception that is about to become an anonymous `internal_error` to `onInternalError`. */
function reportUnexpected(settings: Settings, error: unknown, responder: ResponseContext): void {
  if (asHearthNetError(error).code !== 'internal_error' || error instanceof InternalError) return;
  settings.onInternalError?.(error, { capability: responder.capability, requestId: responder.requestId });
}

/**
 * The request body as JSON. A body with a repeated key or a number `JSON.parse` cannot read as written
 * is `bad_request` on either wire, signed or not: the signature is checked against the parsed value, so
 * such a body would verify while a proxy or log that reads the bytes otherwise sees another request.
 */
async function readJsonBody(
  request: Request,
  maxBodyBytes: number,
): Promise<
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: BadRequestError }
> {
  const bytes = await readBodyWithin(request, maxBodyBytes);
  const read = parseStrictJsonBytes(bytes);
  if (read.ok) return { ok: true, value: read.value };
  if (read.problem !== 'syntax') throw new BadRequestError(`the request body holds a ${read.message}`);
  // Not JSON text at all: the `json_syntax` refusal, which a dialect may answer in its own form.
  return {
    ok: false,
    error: new BadRequestError('the request body is not UTF-8 JSON', { cause: read.cause }),
  };
}

/** The window a client stream asks for with `X-HearthNet-Ack-Window`, if any. */
function ackWindowOf(header: string | null): AckWindow | undefined {
  if (header === null) return undefined;
  const size = /^[1-9][0-9]{0,3}$/.test(header.trim()) ? Number(header.trim()) : Number.NaN;
  if (!(size <= MAX_ACK_WINDOW)) {
    throw new BadRequestError(`${ACK_WINDOW_HEADER} must be an integer from 1 to ${MAX_ACK_WINDOW}`);
  }
  return new AckWindow(size);
}

/** The verified caller, or `undefined` for an accepted unsigned call. */
async function authenticate(
  call: IncomingCall,
  settings: Settings,
  verifier: RequestVerifier,
): Promise<string | undefined> {
  if (call.signature === undefined && settings.acceptUnsigned) return undefined;
  return settings.wire.verifyCaller(call, {
    community: settings.community,
    verifyEnvelope: (fields, signature) => verifier.verify(fields, signature),
  });
}

async function trustOf(policy: TrustPolicy, caller: string | undefined): Promise<TrustStatus> {
  const status = await policy.trustOf(caller);
  if (!isTrustStatus(status)) throw new InternalError(`the trust policy answered ${JSON.stringify(status)}`);
  return status;
}

/**
 * The registration serving the call (contract §2.1), or the §9 error saying why there is none: a
 * malformed name or version is `bad_request`, an unknown name `not_found`, another major only
 * `schema_mismatch` (the handler hands each to the dialect as a `no_provider` refusal).
 */
function resolve(registry: BusRegistry, call: IncomingCall): CapabilityRegistration<CapabilityHandler> {
  let registration: CapabilityRegistration<CapabilityHandler> | undefined;
  try {
    parseCapabilityVersion(call.version);
    registration = registry.resolve(`${call.capability}@>=${call.version}`);
  } catch (error) {
    throw new BadRequestError(`malformed capability or version: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (registration !== undefined) return registration;
  const offered = registry.offeredVersions(call.capability);
  const highest = offered.at(-1);
  if (highest === undefined) throw new NotFoundError(`capability ${call.capability} is not offered here`);
  const expected = registry.get(call.capability, highest);
  throw new SchemaMismatchError(
    `${call.capability}@${call.version} is not offered; offered: ${offered.join(', ')}`,
    {
      altCapabilities: offered.map((version) => `${call.capability}@${version}`),
      ...(expected === undefined ? {} : { schemaHashExpected: expected.schemaHash }),
    },
  );
}

interface Dispatch {
  readonly clientStream: ClientStream | undefined;
  readonly credit: AckWindow | undefined;
  readonly caller: string | undefined;
  readonly trust: TrustStatus;
  readonly release: () => void;
  readonly responder: ResponseContext;
  readonly settings: Settings;
}

async function dispatch(
  request: Request,
  call: IncomingCall,
  registration: CapabilityRegistration<CapabilityHandler>,
  validated: Parameters<CapabilityHandler>[0],
  { caller, trust, release, responder, settings, clientStream, credit }: Dispatch,
): Promise<Response> {
  const { descriptor } = registration;
  const controller = new AbortController();
  const abort = () => controller.abort(request.signal.reason);
  if (request.signal.aborted) abort();
  else request.signal.addEventListener('abort', abort, { once: true });
  const finish = () => {
    request.signal.removeEventListener('abort', abort);
    clientStream?.close();
    release();
  };
  const wantsStream =
    descriptor.streaming !== 'none' && call.streamRequested && validated.input['stream'] !== false;
  const context: CallContext = {
    caller,
    callerVerified: caller !== undefined,
    trust,
    requestId: call.requestId,
    descriptor,
    requestedVersion: call.version,
    stream: wantsStream,
    signal: controller.signal,
    clientFrames:
      clientStream === undefined
        ? undefined
        : validatedFrames(clientStream.frames, streamFrameValidator(descriptor), descriptor === FILE_PUT),
  };
  let result: unknown;
  try {
    result = await registration.handler(validated, context);
  } catch (error) {
    finish();
    throw error;
  }
  if (!isFrameStream(result)) {
    finish();
    const body = registration.validators.response?.check(result);
    if (body === undefined || !body.ok) {
      throw new InternalError(
        `the ${descriptor.name} handler returned a body that does not match its response schema`,
      );
    }
    return settings.wire.writeAnswer(responder, call, body.value);
  }
  if (!wantsStream) {
    finish();
    throw new InternalError(
      `the ${descriptor.name} handler streamed to a caller that did not ask for a stream`,
    );
  }
  const stream = frameStream(result, {
    validate: streamFrameValidator(descriptor),
    keepaliveMs: settings.keepaliveMs,
    onClose: (reason) => {
      if (reason === 'cancelled') controller.abort(new DOMException('the client went away', 'AbortError'));
      finish();
    },
    onError: (error) => reportUnexpected(settings, error, responder),
    ...(credit === undefined ? {} : { credit }),
  });
  const headers = new Headers({
    'Content-Type': EVENT_STREAM_CONTENT_TYPE,
    'Cache-Control': 'no-cache',
    [WIRE_HEADERS.from]: settings.identity.nodeId,
  });
  if (call.requestId !== '') headers.set(WIRE_HEADERS.requestId, call.requestId);
  return new Response(stream, { status: 200, headers });
}

/** What a capability handler learns about the call besides the request. */
export interface CallContext {
  /** The caller's full node id: verified from the signature, or `undefined` for an accepted unsigned call. */
  readonly caller: string | undefined;
  /** Whether `caller` was proven by a signature. */
  readonly callerVerified: boolean;
  /** The caller's trust status, from the handler's `TrustPolicy`. */
  readonly trust: TrustStatus;
  /** `X-HearthNet-Request-Id`. */
  readonly requestId: string;
  /** The descriptor being served (the highest compatible minor, contract §2.1). */
  readonly descriptor: CapabilityDescriptor;
  /** The version the caller asked for. */
  readonly requestedVersion: string;
  /**
   * Whether the caller takes an event stream: the capability streams, the request asks for one
   * (`Accept: text/event-stream`; `referenceWire`: a truthy `stream` in the body), and `input.stream`
   * is not `false`. Return frames only when it is `true`.
   */
  readonly stream: boolean;
  /**
   * Aborts when the caller goes away (connection closed, stream cancelled) or the handler shuts
   * down. Contract §4.1: a closed connection must cancel generation within 200 ms — pass this signal
   * to the backend, or check it between frames.
   */
  readonly signal: AbortSignal;
  /**
   * The frames the caller sends after its request, when it opened a client stream (`file.put`
   * chunks): validated against the capability's stream schema, ending when the caller ends its
   * request body; a frame that breaks the rules is thrown as `bad_request`. `undefined` for an
   * ordinary call. Iterate it once.
   */
  readonly clientFrames: AsyncIterable<SseFrame> | undefined;
}

/**
 * Serves one capability. It receives the request body `{params, input}` validated by the
 * capability's request schema (defaults filled in) and returns either:
 * - the response body `{output, meta}` (checked against the response schema), sent as JSON; or
 * - when `context.stream` is true, an async iterable of frames `{event, data}` (checked against the
 *   stream schema), sent as SSE. A `done` frame ends the stream (one with data `{}` is added when
 *   the iterable ends without it); throwing ends it with an `error` frame.
 *
 * Throw a `HearthNetError` (`NotFoundError`, `BadRequestError`, …) to answer with that code; any
 * other exception becomes `internal_error` without its message.
 *
 * @example
 * const echo: CapabilityHandler = async ({ input }) => ({ output: { text: String(input.prompt) }, meta: { ms: 0 } });
 */
export type CapabilityHandler = (
  request: { readonly params: Record<string, unknown>; readonly input: Record<string, unknown> },
  context: CallContext,
) => unknown | Promise<unknown>;

/** The registry a bus handler serves: capability descriptors with their {@link CapabilityHandler}s. */
export type BusRegistry = CapabilityRegistry<CapabilityHandler>;

/** Whether a handler result is a stream of frames rather than a JSON body. */
export function isFrameStream(value: unknown): value is AsyncIterable<SseFrame> {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/** A web-standard handler: a `Request` in, a `Response` out. */
export type RequestHandler = (request: Request) => Promise<Response>;

/**
 * One handler for a whole node: each request goes to the handler of the longest matching path prefix
 * (`/bus/v1/call` → the bus handler, `/sync/v1/` → the sync handler, `/pubsub/v1/` → the pub-sub
 * handler …); a path no prefix matches is answered 404 with the §5.4 `not_found` body. A prefix ending
 * in `/` matches everything under it; any other prefix matches that exact path and what lies under
 * `prefix + '/'`.
 *
 * @throws {HearthNetLocalError} `invalid_wire_options` when a prefix does not start with `/` or a handler is
 *   not a function.
 * @example
 * const node = routeByPath({
 *   '/bus/v1/call': createBusHandler(busOptions),
 *   '/sync/v1/': createSyncHandler({ store }),
 *   '/pubsub/v1/subscribe': createPubSubHandler(pubsubOptions),
 * });
 * await serveBusHandler(node, { port: 7080 });
 */
export function routeByPath(routes: Readonly<Record<string, RequestHandler>>): RequestHandler {
  const table = Object.entries(routes).map(([prefix, handler]) => {
    if (!prefix.startsWith('/'))
      throw new HearthNetLocalError(
        'invalid_wire_options',
        `route prefix ${JSON.stringify(prefix)} must start with /`,
      );
    if (typeof handler !== 'function')
      throw new HearthNetLocalError('invalid_wire_options', `the handler of ${prefix} must be a function`);
    return { prefix, handler };
  });
  table.sort((a, b) => b.prefix.length - a.prefix.length);
  return async (request) => {
    const path = new URL(request.url).pathname;
    const route = table.find(
      ({ prefix }) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`),
    );
    if (route !== undefined) return route.handler(request);
    return new Response(JSON.stringify(toErrorBody(new NotFoundError(`nothing is served at ${path}`))), {
      status: 404,
      headers: { 'Content-Type': JSON_CONTENT_TYPE },
    });
  };
}

/**
 * Where a caller stands in the community: `unknown` (not a member), `member`, `trusted`, `anchor`
 * (the levels of the reference's `types.py`), or `revoked`.
 */
export type TrustStatus = 'unknown' | 'member' | 'trusted' | 'anchor' | 'revoked';

/**
 * Tells the bus handler how far it trusts a caller. `nodeId` is the verified caller, or `undefined`
 * for an unsigned request that the handler was told to accept (reference compat).
 */
export interface TrustPolicy {
  trustOf(nodeId: string | undefined): TrustStatus | Promise<TrustStatus>;
}

const rank: { readonly [S in TrustStatus]: number } = {
  revoked: -1,
  unknown: 0,
  member: 1,
  trusted: 2,
  anchor: 3,
};

/** Whether a caller's status meets a capability's required level (anchors are trusted too). */
export function meetsTrustLevel(status: TrustStatus, required: TrustLevel): boolean {
  return rank[status] >= rank[required];
}

/** Whether a value is one of the {@link TrustStatus} names. */
export function isTrustStatus(value: unknown): value is TrustStatus {
  return typeof value === 'string' && Object.hasOwn(rank, value);
}

/**
 * A fixed {@link TrustPolicy}: the status of each listed node id, `fallback` for the rest (and for
 * unsigned callers).
 *
 * @example
 * const trust = staticTrust({ [alice.nodeId]: 'trusted', [bob.nodeId]: 'member' });
 */
export function staticTrust(
  statuses: { readonly [nodeId: string]: TrustStatus },
  fallback: TrustStatus = 'unknown',
): TrustPolicy {
  const table = new Map(Object.entries(statuses));
  return { trustOf: (nodeId) => (nodeId === undefined ? fallback : (table.get(nodeId) ?? fallback)) };
}
