import { isPythonTruthy } from '@agentwire/internal';
import { parseStrictJsonBytes } from '../canonical-json/strict-json.js';
import { parseCapabilityVersion } from '../capabilities/capability-name.js';
import type { CapabilityRegistration } from '../capabilities/capability-registry.js';
import type { TrustLevel } from '../capabilities/descriptor.js';
import { toErrorBody } from '../capabilities/error-body.js';
import {
  asHearthNetError,
  BadRequestError,
  type CapabilityDescriptor,
  type CapabilityRegistry,
  CapacityExceededError,
  type HearthNetError,
  InternalError,
  InvalidSignatureError,
  NotFoundError,
  RevokedError,
  SchemaMismatchError,
  UnauthorizedError,
} from '../capabilities/index.js';
import { encodeReferenceSseFrame } from '../compat/reference-json.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { verifyPayload } from '../crypto/payload-signature.js';
import { HearthNetLocalError } from '../errors.js';
import {
  type ClientStream,
  errorResponse,
  frameStream,
  jsonResponse,
  openClientStream,
  type ResponseContext,
  readBodyWithin,
  validatedFrames,
} from './call-streams.js';
import {
  ACK_WINDOW_HEADER,
  accepts,
  BUS_CALL_PATH,
  EVENT_STREAM_CONTENT_TYPE,
  isAcceptableRequestId,
  isMediaType,
  JSON_CONTENT_TYPE,
  WIRE_HEADERS,
  type WireMode,
  wireModeOf,
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
   * `contract` (default) or `reference`: the Python reference nodes' dialect (docs/hearthnet.md,
   * "Reference-compat mode").
   */
  readonly wire?: WireMode;
  /**
   * Accept calls without `X-HearthNet-Signature` (their caller is `undefined` for the trust policy).
   * Reference nodes' own transport signs nothing (note §6). Default `false`.
   */
  readonly acceptUnsigned?: boolean;
  /**
   * Sign JSON responses (contract §5.2: servers SHOULD). Default `true`. On the reference wire answers
   * are never signed and are written as plain JSON, numbers unnormalised, as a reference node writes them.
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
 * 1. reads the routing (`X-HearthNet-*` headers, or the body on the reference wire) → `bad_request`;
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
  readonly mode: WireMode;
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
    mode: wireModeOf(options.wire),
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
    plainJson: settings.mode === 'reference',
  };
  // On the reference wire, errors raised by the capability itself travel in-band with 200, the
  // bus's own with 500 (note §6); only a malformed request keeps its 4xx status.
  let inCapability = false;
  let referenceStream = false;
  let clientStream: ClientStream | undefined;
  let credit: AckWindow | undefined;
  try {
    if (settings.path !== null && new URL(request.url).pathname !== settings.path) {
      return errorResponse(
        responder,
        new NotFoundError(`no bus endpoint at ${new URL(request.url).pathname}`),
      );
    }
    if (request.method !== 'POST') {
      const response = errorResponse(
        responder,
        new BadRequestError('capability calls are POST requests'),
        405,
      );
      response.headers.set('Allow', 'POST');
      return response;
    }
    let body: unknown;
    if (isMediaType(request.headers.get('Content-Type'), EVENT_STREAM_CONTENT_TYPE)) {
      if (settings.mode === 'reference') {
        throw new BadRequestError('the reference wire has no client streams');
      }
      credit = ackWindowOf(request.headers.get(ACK_WINDOW_HEADER));
      const window = credit;
      clientStream = await openClientStream(request.body, {
        // Characters, not bytes: the first frame is the JSON body a plain call sends.
        maxRequestLength: settings.maxBodyBytes,
        maxEventLength: 16 * 1024 * 1024,
        onAck: (upto) => window?.acknowledge(upto),
        capacity: CLIENT_FRAMES_READ_AHEAD,
      });
      body = clientStream.body;
    } else {
      body = await readJsonBody(request, settings.maxBodyBytes);
    }
    const call = readIncomingCall(request.headers, body, settings.mode);
    referenceStream = call.streamRequested === true;
    responder = {
      ...responder,
      capability: call.capability,
      version: call.version,
      requestId: call.requestId,
    };
    const caller = await authenticate(call, settings, verifier);
    const trust = await trustOf(settings.trust, caller);
    if (trust === 'revoked') throw new RevokedError(`node ${caller ?? '(unsigned)'} is revoked`);
    const registration = resolve(settings.registry, call);
    if (!meetsTrustLevel(trust, registration.descriptor.trust.level)) {
      throw new UnauthorizedError(
        `${registration.descriptor.name} requires trust level ${registration.descriptor.trust.level}; the caller is ${trust}`,
      );
    }
    inCapability = true;
    const validated = registration.validators.request.parse(call.request) as Parameters<CapabilityHandler>[0];
    const release = registration.tryAcquire();
    if (release === undefined) {
      inCapability = false;
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
    const converted = asHearthNetError(error);
    reportUnexpected(settings, error, responder);
    if (settings.mode === 'reference') {
      return referenceErrorResponse(responder, converted, { inCapability, stream: referenceStream });
    }
    return errorResponse(responder, converted);
  }
}

/**
 * What a reference node answers for an error (note §6, §19): an error from the capability comes back
 * in-band with 200 and `_routed_via: "local"` (the bus stamps every result), as the one `data:` frame of
 * a stream when one was asked for; the bus's own refusals keep their reference answer, or 500 (400 for
 * a malformed call), and once the call asked for a stream, a 500 becomes a stream with one `error` frame.
 */
function referenceErrorResponse(
  responder: ResponseContext,
  error: HearthNetError,
  { inCapability, stream }: { readonly inCapability: boolean; readonly stream: boolean },
): Response {
  if (inCapability) {
    const answer = { ...toErrorBody(error), _routed_via: 'local' };
    return stream
      ? referenceOneFrameStream(answer, responder.requestId, responder.identity.nodeId)
      : jsonResponse(responder, 200, answer);
  }
  const reference = referenceAnswerOf(error);
  const status = reference?.status ?? (error.code === 'bad_request' ? 400 : 500);
  const body = reference?.body ?? toErrorBody(error);
  if (stream && status === 500) {
    return referenceStreamResponse(
      encodeReferenceSseFrame(body, 'error'),
      responder.requestId,
      responder.identity.nodeId,
    );
  }
  return jsonResponse(responder, status, body);
}

/** Hands an exception that is about to become an anonymous `internal_error` to `onInternalError`. */
function reportUnexpected(settings: Settings, error: unknown, responder: ResponseContext): void {
  if (asHearthNetError(error).code !== 'internal_error' || error instanceof InternalError) return;
  settings.onInternalError?.(error, { capability: responder.capability, requestId: responder.requestId });
}

/** The reference's stream of a result that is not a stream: one untyped `data:` frame, then `done`. */
function referenceOneFrameStream(answer: unknown, requestId: string, nodeId: string): Response {
  return referenceStreamResponse(
    encodeReferenceSseFrame(answer) + encodeReferenceSseFrame({ done: true }, 'done'),
    requestId,
    nodeId,
  );
}

/** A reference node's `text/event-stream` response holding `text`. */
function referenceStreamResponse(text: string, requestId: string, nodeId: string): Response {
  const headers = new Headers({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    [WIRE_HEADERS.from]: nodeId,
  });
  if (requestId !== '') headers.set(WIRE_HEADERS.requestId, requestId);
  return new Response(text, { status: 200, headers });
}

/**
 * The request body as JSON. A body with a repeated key or a number `JSON.parse` cannot read as written
 * is `bad_request` on either wire, signed or not: the signature is checked against the parsed value, so
 * such a body would verify while a proxy or log that reads the bytes otherwise sees another request.
 */
async function readJsonBody(request: Request, maxBodyBytes: number): Promise<unknown> {
  const bytes = await readBodyWithin(request, maxBodyBytes);
  const read = parseStrictJsonBytes(bytes);
  if (read.ok) return read.value;
  if (read.problem !== 'syntax') throw new BadRequestError(`the request body holds a ${read.message}`);
  // A reference node answers FastAPI's shape here.
  throw withReferenceAnswer(
    new BadRequestError('the request body is not UTF-8 JSON', { cause: read.cause }),
    {
      status: 400,
      body: { detail: 'invalid_json' },
    },
  );
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
  if (settings.mode === 'reference') {
    // The reference signs the body only (note §6): no timestamp window, no replay protection.
    if (call.signature === undefined || call.from === undefined) {
      throw new UnauthorizedError('the call carries no X-HearthNet-Signature and X-HearthNet-From');
    }
    const verdict = verifyPayload({ ...(call.signedBody as object), signature: call.signature }, call.from, {
      lenientEncoding: true,
    });
    if (!verdict.valid) throw new InvalidSignatureError(`request signature rejected (${verdict.reason})`);
    return call.from;
  }
  const from = requiredHeader(call.from, WIRE_HEADERS.from);
  const community = requiredHeader(call.community, WIRE_HEADERS.community);
  await verifier.verify(
    {
      capability: call.capability,
      version: call.version,
      requestId: call.requestId,
      from,
      community,
      timestamp: requiredHeader(call.timestamp, WIRE_HEADERS.timestamp),
      body: call.signedBody,
    },
    call.signature,
  );
  if (settings.community !== undefined && community !== settings.community) {
    throw new UnauthorizedError('the call is for another community');
  }
  return from;
}

function requiredHeader(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new BadRequestError(`missing ${name} header`);
  return value;
}

async function trustOf(policy: TrustPolicy, caller: string | undefined): Promise<TrustStatus> {
  const status = await policy.trustOf(caller);
  if (!isTrustStatus(status)) throw new InternalError(`the trust policy answered ${JSON.stringify(status)}`);
  return status;
}

/** The registration serving the call (contract §2.1), or the §9 error saying why there is none. */
function resolve(registry: BusRegistry, call: IncomingCall): CapabilityRegistration<CapabilityHandler> {
  // What a reference node answers when no provider serves the call: an unknown or malformed capability
  // name, a version not offered or one no capability can have (a negative number).
  const [major, minor] = call.version.split('.');
  const noProvider = {
    status: 500,
    body: { error: 'call_error', message: `no provider for ${call.capability}@(${major}, ${minor})` },
  };
  let registration: CapabilityRegistration<CapabilityHandler> | undefined;
  try {
    parseCapabilityVersion(call.version);
    registration = registry.resolve(`${call.capability}@>=${call.version}`);
  } catch (error) {
    throw withReferenceAnswer(
      new BadRequestError(`malformed capability or version: ${(error as Error).message}`, {
        cause: error,
      }),
      noProvider,
    );
  }
  if (registration !== undefined) return registration;
  const offered = registry.offeredVersions(call.capability);
  const highest = offered.at(-1);
  if (highest === undefined) {
    throw withReferenceAnswer(
      new NotFoundError(`capability ${call.capability} is not offered here`),
      noProvider,
    );
  }
  const expected = registry.get(call.capability, highest);
  throw withReferenceAnswer(
    new SchemaMismatchError(
      `${call.capability}@${call.version} is not offered; offered: ${offered.join(', ')}`,
      {
        altCapabilities: offered.map((version) => `${call.capability}@${version}`),
        ...(expected === undefined ? {} : { schemaHashExpected: expected.schemaHash }),
      },
    ),
    noProvider,
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
    descriptor.streaming !== 'none' &&
    (settings.mode === 'reference'
      ? call.streamRequested === true
      : accepts(request.headers.get('Accept'), EVENT_STREAM_CONTENT_TYPE)) &&
    validated.input['stream'] !== false;
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
        : validatedFrames(clientStream.frames, streamFrameValidator(descriptor)),
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
    if (settings.mode !== 'reference') return jsonResponse(responder, 200, body.value);
    // A reference node stamps where the call ran, and answers `stream: true` on a capability that does
    // not stream with the whole result as one frame, then `done` (note §6, §7, §19).
    const answer = { ...(body.value as object), _routed_via: 'local' };
    return call.streamRequested === true
      ? referenceOneFrameStream(answer, call.requestId, settings.identity.nodeId)
      : jsonResponse(responder, 200, answer);
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
   * Whether the caller takes an event stream: the capability streams, the request accepts
   * `text/event-stream` (reference wire: `stream: true` in the body), and `input.stream` is not
   * `false`. Return frames only when it is `true`.
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

// What a reference node answers for the bus's own refusals (note §6, §19), which a node serving the
// reference wire mirrors: FastAPI's `{"detail": …}` for a body that is not JSON, `missing_capability`
// and `invalid_version` with 400, and `call_error` with 500 when no provider serves the call.

/** The status and body a reference node answers instead of the contract's §5.4 body. */
export interface ReferenceAnswer {
  readonly status: number;
  readonly body: { readonly [key: string]: string };
}

const answers = new WeakMap<HearthNetError, ReferenceAnswer>();

/** Marks `error` as answered, on the reference wire, with `answer`; returns the error. */
export function withReferenceAnswer<E extends HearthNetError>(error: E, answer: ReferenceAnswer): E {
  answers.set(error, answer);
  return error;
}

/** The reference answer `error` was marked with, if any. */
export function referenceAnswerOf(error: HearthNetError): ReferenceAnswer | undefined {
  return answers.get(error);
}

/** Python's `str.isspace()` characters, which `int()` strips around a number. */
const PYTHON_SPACE = /^[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*/u;
const PYTHON_SPACE_END = /[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/u;
/** Python `int()` digits: any Unicode decimal digit, single underscores between them, an optional sign. */
const PYTHON_INT = /^[+-]?\p{Nd}+(?:_\p{Nd}+)*$/u;
const DECIMAL_DIGIT = /^\p{Nd}$/u;

/**
 * A reference node's reading of `version` (`_parse_version`: `"major.minor"` through Python `int()`,
 * extra parts ignored, a missing minor read as 0): `"1"` and `"1.0.5"` are 1.0, `" 1 . 0 "`, `"01.00"`,
 * `"1_0.0"` and Arabic-Indic digits are read as Python reads them, and negative numbers are taken
 * (no provider serves them). The result is `{ version: "M.m" }`, or `{ refused }` with the
 * `ValueError` text Python gives for the first part it cannot read.
 *
 * @example
 * referenceVersion('1'); // { version: '1.0' }
 * referenceVersion('1.x'); // { refused: "invalid literal for int() with base 10: 'x'" }
 */
export function referenceVersion(
  version: string,
): { readonly version: string } | { readonly refused: string } {
  const [major = '', minor = '0'] = version.split('.');
  const parsedMajor = pythonInt(major);
  if (parsedMajor === undefined) return { refused: intRefusal(major) };
  const parsedMinor = pythonInt(minor);
  if (parsedMinor === undefined) return { refused: intRefusal(minor) };
  return { version: `${parsedMajor}.${parsedMinor}` };
}

/** Python `int(text)` as decimal text (exact, any size), or `undefined` where Python raises. */
function pythonInt(text: string): string | undefined {
  const trimmed = text.replace(PYTHON_SPACE, '').replace(PYTHON_SPACE_END, '');
  if (!PYTHON_INT.test(trimmed)) return undefined;
  const negative = trimmed.startsWith('-');
  let digits = '';
  for (const character of trimmed.replace(/^[+-]/, '').replaceAll('_', '')) {
    digits += String(decimalDigitValue(character));
  }
  const magnitude = BigInt(digits);
  return (negative && magnitude !== 0n ? -magnitude : magnitude).toString();
}

/**
 * The value of a Unicode decimal digit: digits come in runs of ten from zero upwards (several runs
 * may follow one another, as the mathematical digits do).
 */
function decimalDigitValue(character: string): number {
  const codePoint = character.codePointAt(0) as number;
  let start = codePoint;
  while (DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start -= 1;
  return (codePoint - start) % 10;
}

/** Python's `ValueError` text for `int(text)`. */
function intRefusal(text: string): string {
  return `invalid literal for int() with base 10: ${pythonRepr(text)}`;
}

/**
 * Python's `repr()` of a string for the printable-ASCII cases, and its escapes for control characters;
 * other characters are kept as they are (Python escapes the non-printable ones among them too).
 */
function pythonRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const character of text) {
    const code = character.codePointAt(0) as number;
    if (character === '\\' || character === quote) out += `\\${character}`;
    else if (character === '\n') out += '\\n';
    else if (character === '\r') out += '\\r';
    else if (character === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += character;
  }
  return out + quote;
}

/** A call as read off the wire, before any check beyond its shape. */
export interface IncomingCall {
  readonly capability: string;
  readonly version: string;
  readonly requestId: string;
  /** `X-HearthNet-From`, when sent. */
  readonly from: string | undefined;
  /** `X-HearthNet-Community`, when sent. */
  readonly community: string | undefined;
  /** `X-HearthNet-Timestamp`, when sent. */
  readonly timestamp: string | undefined;
  /** `X-HearthNet-Signature`, when sent. */
  readonly signature: string | undefined;
  /** The whole parsed JSON body: what a contract signature covers as `body`, a reference signature as a whole. */
  readonly signedBody: unknown;
  /** `{params, input}` for the capability's request validator. */
  readonly request: unknown;
  /** The reference wire's `stream` in the body, read as Python truthiness; `undefined` on the contract wire. */
  readonly streamRequested: boolean | undefined;
}

/**
 * Reads the routing of a call: from the `X-HearthNet-*` headers and a `{params, input}` body
 * (contract §5.1), or from a `{capability, version, params, input, stream}` body (reference wire,
 * note §6; `version` defaults to `1.0`, `params` and `input` to `{}`).
 *
 * @throws {BadRequestError} when a required header or field is missing or malformed.
 */
export function readIncomingCall(headers: Headers, body: unknown, mode: WireMode): IncomingCall {
  const header = (name: string) => headers.get(name) ?? undefined;
  const requestId = header(WIRE_HEADERS.requestId);
  const common = {
    from: header(WIRE_HEADERS.from),
    community: header(WIRE_HEADERS.community),
    timestamp: header(WIRE_HEADERS.timestamp),
    signature: header(WIRE_HEADERS.signature),
    signedBody: body,
  };
  if (mode === 'contract') {
    const capability = required(header(WIRE_HEADERS.capability), WIRE_HEADERS.capability);
    const version = required(header(WIRE_HEADERS.capabilityVersion), WIRE_HEADERS.capabilityVersion);
    return {
      ...common,
      capability,
      version,
      requestId: checkedRequestId(required(requestId, WIRE_HEADERS.requestId)),
      request: body,
      streamRequested: undefined,
    };
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new BadRequestError('the request body must be a JSON object');
  }
  const fields = body as Record<string, unknown>;
  const capability = fields['capability'];
  if (typeof capability !== 'string' || capability === '') {
    throw withReferenceAnswer(new BadRequestError('missing capability'), {
      status: 400,
      body: { error: 'missing_capability', message: 'capability field required' },
    });
  }
  const sent = fields['version'] ?? '1.0';
  if (typeof sent !== 'string') throw new BadRequestError('version must be a "major.minor" string');
  const version = referenceVersion(sent);
  if ('refused' in version) {
    throw withReferenceAnswer(new BadRequestError(`invalid version ${JSON.stringify(sent)}`), {
      status: 400,
      body: { error: 'invalid_version', message: version.refused },
    });
  }
  return {
    ...common,
    capability,
    version: version.version,
    // The reference client sends 16 hex characters, its node transport none; a reference node reads
    // no header, so one we would refuse is ignored here.
    requestId: requestId !== undefined && isAcceptableRequestId(requestId) ? requestId : '',
    request: { params: fields['params'] ?? {}, input: fields['input'] ?? {} },
    streamRequested: isPythonTruthy(fields['stream']),
  };
}

function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new BadRequestError(`missing ${name} header`);
  return value;
}

function checkedRequestId(value: string): string {
  if (!isAcceptableRequestId(value)) throw new BadRequestError('malformed X-HearthNet-Request-Id');
  return value;
}
