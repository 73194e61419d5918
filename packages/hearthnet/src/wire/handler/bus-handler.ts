import { parseStrictJsonBytes } from '../../canonical-json/strict-json.js';
import {
  asHearthNetError,
  BadRequestError,
  type CapabilityRegistration,
  CapacityExceededError,
  type HearthNetError,
  InternalError,
  InvalidSignatureError,
  NotFoundError,
  parseCapabilityVersion,
  RevokedError,
  SchemaMismatchError,
  toErrorBody,
  UnauthorizedError,
} from '../../capabilities/index.js';
import { encodeReferenceSseFrame } from '../../compat/reference-sse-frame.js';
import { type KeyPair, verifyPayload } from '../../crypto/index.js';
import { HearthNetLocalError } from '../../errors.js';
import {
  ACK_WINDOW_HEADER,
  accepts,
  BUS_CALL_PATH,
  EVENT_STREAM_CONTENT_TYPE,
  isMediaType,
  WIRE_HEADERS,
} from '../headers.js';
import { RequestVerifier, type RequestVerifierOptions } from '../request-verifier.js';
import { AckWindow } from '../sse/ack-window.js';
import { MAX_TIMER_MS } from '../sse/slow-consumer.js';
import { streamFrameValidator } from '../sse/wire-frame-schemas.js';
import { type WireMode, wireModeOf } from '../wire-mode.js';
import {
  type BusRegistry,
  type CallContext,
  type CapabilityHandler,
  isFrameStream,
} from './capability-handler.js';
import { type ClientStream, openClientStream, validatedFrames } from './client-stream.js';
import { frameStream } from './frame-stream.js';
import { type IncomingCall, readIncomingCall } from './incoming-call.js';
import { readBodyWithin } from './read-body-within.js';
import { referenceAnswerOf, withReferenceAnswer } from './reference-answers.js';
import { errorResponse, jsonResponse, type ResponseContext } from './response-writer.js';
import { isTrustStatus, meetsTrustLevel, type TrustPolicy, type TrustStatus } from './trust.js';

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
  /** `contract` (default) or `reference` (see {@link WireMode}). */
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
 * registry.register(MARKET_POST, async ({ input }) => ({ output: await post(input), meta: { ms: 1 } }), { maxConcurrent: 4 });
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
