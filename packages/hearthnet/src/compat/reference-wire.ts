// The Python reference nodes' wire as a WireDialect (hearthnet-reference.md §6, §7, §10, §19): routing
// in the body, a signature over the body alone, plain unsigned JSON answers stamped
// `_routed_via: "local"`, errors in-band, one-frame streams, the reference's market shapes — and what a
// reference node answers for the bus's own refusals, as differential runs against its
// transport/server.py found them.
import { isJsonObject, isPythonTruthy, pythonStringRepr } from '@agentwire/internal';
import type { CapabilityDescriptor } from '../capabilities/descriptor.js';
import { errorFromBody, toErrorBody } from '../capabilities/error-body.js';
import { createHearthNetError } from '../capabilities/hearthnet-errors.js';
import {
  BadRequestError,
  type HearthNetError,
  InvalidSignatureError,
  NotFoundError,
  NotImplementedError,
  UnauthorizedError,
} from '../capabilities/index.js';
import { parseNodeId } from '../crypto/key-pair.js';
import { signPayload, verifyPayload } from '../crypto/payload-signature.js';
import type { ResponseContext } from '../wire/call-streams.js';
import type { CallRefusal, IncomingCall, OutgoingCall, WireDialect } from '../wire/dialect.js';
import {
  formatWireTimestamp,
  isAcceptableRequestId,
  JSON_CONTENT_TYPE,
  WIRE_HEADERS,
} from '../wire/envelope.js';
import {
  contractAnswerOf,
  contractLocation,
  referenceDescriptorOf,
  referenceLocation,
} from './reference-capabilities.js';
import { encodeReferenceSseFrame } from './reference-json.js';

/**
 * The Python reference nodes' wire (docs/hearthnet.md, "Reference-compat mode"): routing in the body
 * `{capability, version, params, input, stream}`, `X-HearthNet-Signature` over the body alone (no
 * timestamp window, no replay protection), answers as unsigned plain JSON stamped
 * `_routed_via: "local"`, errors from the capability in-band with HTTP 200 and the bus's own with 400
 * or 500 in the reference's bodies, a truthy `stream` answered with one untyped frame, no client
 * streams, and market locations as `{lat, lon, label}`. Pass it as the `wire` option of the bus
 * handler and the client.
 *
 * @example
 * import { referenceWire } from '@agentwire/hearthnet/compat';
 * import { createBusHandler, createHearthNetClient } from '@agentwire/hearthnet/wire';
 *
 * const handler = createBusHandler({ identity, registry, trust, wire: referenceWire, acceptUnsigned: true });
 * const client = createHearthNetClient({ identity, community, node: 'http://127.0.0.1:8000', wire: referenceWire });
 */
export const referenceWire: WireDialect = /* @__PURE__ */ Object.freeze({
  name: 'reference',
  clientStreams: false,
  readCall: readReferenceCall,
  readRequest: readReferenceRequest,
  verifyCaller: verifyReferenceCaller,
  writeAnswer: writeReferenceAnswer,
  writeRefusal: writeReferenceRefusal,
  // Reference nodes never sign their answers.
  responseVerification: 'none',
  writeCall: writeReferenceCall,
  readError: (status: number, body: unknown) =>
    status < 200 || status > 299 || isInBandError(body) ? referenceError(body, status) : undefined,
  readAnswer: contractAnswerOf,
  descriptorOf: referenceDescriptorOf,
  // A reference node streams one untyped `message` frame with the whole result, then `{"done": true}`;
  // a reference Space ignores `stream` and answers JSON, which stands for that same stream.
  typedStreamFrames: false,
  streamOfAnswer: (body: unknown) =>
    encodeReferenceSseFrame(body) + encodeReferenceSseFrame({ done: true }, 'done'),
});

// ---------------------------------------------------------------------------------------------------
// Handler side.

/** The status and body a reference node answers instead of the contract's §5.4 body. */
interface ReferenceAnswer {
  readonly status: number;
  readonly body: { readonly [key: string]: string };
}

/** The reference answers of the routing refusals {@link readReferenceCall} throws. */
const routingAnswers = new WeakMap<HearthNetError, ReferenceAnswer>();

function withReferenceAnswer<E extends HearthNetError>(error: E, answer: ReferenceAnswer): E {
  routingAnswers.set(error, answer);
  return error;
}

/**
 * Reads the routing of a call from a `{capability, version, params, input, stream}` body (note §6;
 * `version` defaults to `1.0`, `params` and `input` to `{}`, `stream` is read as Python truthiness).
 *
 * @throws {BadRequestError} when the body is not an object, or its capability or version is missing or
 *   unreadable (answered `missing_capability` and `invalid_version` with 400, as a reference node does).
 */
function readReferenceCall(headers: Headers, body: unknown): IncomingCall {
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
  const requestId = headers.get(WIRE_HEADERS.requestId) ?? undefined;
  const from = headers.get(WIRE_HEADERS.from) ?? undefined;
  // A reference node's own id (`local-…`) is no key: its signature cannot be checked, and a reference
  // node ignores it. The call counts as unsigned (served with `acceptUnsigned`, refused with 401 without).
  const signature =
    from === undefined || isNodeId(from) ? (headers.get(WIRE_HEADERS.signature) ?? undefined) : undefined;
  return {
    capability,
    version: version.version,
    // The reference client sends 16 hex characters, its node transport none; a reference node reads
    // no header, so one we would refuse is ignored here.
    requestId: requestId !== undefined && isAcceptableRequestId(requestId) ? requestId : '',
    from,
    community: headers.get(WIRE_HEADERS.community) ?? undefined,
    timestamp: headers.get(WIRE_HEADERS.timestamp) ?? undefined,
    signature,
    signedBody: body,
    request: { params: fields['params'] ?? {}, input: fields['input'] ?? {} },
    streamRequested: isPythonTruthy(fields['stream']),
  };
}

function isNodeId(value: string): boolean {
  try {
    parseNodeId(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * A reference caller's request as the capability reads it: `params` it leaves out (reference callers
 * send `params: {}`; a reference node picks its own model) are filled from what the capability publishes,
 * for each required parameter the published params hold; an idempotency key they leave out (`client_id`)
 * is a fresh one; a `market.post` location `{lat, lon}` is read as the contract's `{lat, lng}`.
 */
function readReferenceRequest(
  request: unknown,
  {
    descriptor,
    published,
  }: { readonly descriptor: CapabilityDescriptor; readonly published: Readonly<Json> },
): unknown {
  if (!isJsonObject<Json>(request)) return request;
  let { params, input } = request;
  if (isJsonObject<Json>(params)) {
    const given = params;
    const missing = requiredParams(descriptor).filter(
      (name) => !Object.hasOwn(given, name) && Object.hasOwn(published, name),
    );
    if (missing.length > 0) {
      params = { ...Object.fromEntries(missing.map((name) => [name, published[name]])), ...params };
    }
  }
  // Reference callers send no idempotency key (a reference node makes one); without one, no retry is
  // recognised, as on a reference node.
  const { idempotency } = descriptor;
  if (idempotency.kind === 'by_key' && isJsonObject<Json>(input) && !Object.hasOwn(input, idempotency.key)) {
    input = { ...input, [idempotency.key]: `reference-${globalThis.crypto.randomUUID()}` };
  }
  if (
    descriptor.name === 'market.post' &&
    isJsonObject<Json>(input) &&
    isJsonObject<Json>(input['location'])
  ) {
    input = { ...input, location: contractLocation(input['location']) };
  }
  return { ...request, params, input };
}

/** The names a descriptor's request schema requires in `params`. */
function requiredParams(descriptor: CapabilityDescriptor): readonly string[] {
  const schema = descriptor.requestSchema as { readonly properties?: { readonly params?: unknown } };
  const params = schema.properties?.params as { readonly required?: unknown } | undefined;
  return Array.isArray(params?.required) ? params.required.filter((name) => typeof name === 'string') : [];
}

/** The reference signs the body only (note §6): no timestamp window, no replay protection. */
async function verifyReferenceCaller(call: IncomingCall): Promise<string> {
  if (call.from !== undefined && !isNodeId(call.from)) {
    throw new UnauthorizedError(
      `X-HearthNet-From ${JSON.stringify(call.from)} is not a node id, so its signature cannot be checked`,
    );
  }
  if (call.signature === undefined || call.from === undefined) {
    throw new UnauthorizedError('the call carries no X-HearthNet-Signature and X-HearthNet-From');
  }
  const verdict = verifyPayload({ ...(call.signedBody as object), signature: call.signature }, call.from, {
    lenientEncoding: true,
  });
  if (!verdict.valid) throw new InvalidSignatureError(`request signature rejected (${verdict.reason})`);
  return call.from;
}

/**
 * A reference node stamps where the call ran, and answers `stream: true` on a capability that does not
 * stream with the whole result as one frame, then `done` (note §6, §7, §19).
 */
function writeReferenceAnswer(responder: ResponseContext, call: IncomingCall, body: unknown): Response {
  const answer = { ...(referenceMarketAnswer(call.capability, body) as object), _routed_via: 'local' };
  return call.streamRequested ? oneFrameStream(answer, responder) : plainJsonResponse(responder, 200, answer);
}

/**
 * What a reference node answers for an error (note §6, §19): an error from the capability comes back
 * in-band with 200 and `_routed_via: "local"` (the bus stamps every result), as the one `data:` frame of
 * a stream when one was asked for; the bus's own refusals keep their reference answer, or 500 — except a
 * caller's own mistake, answered with its §5.5 4xx (see `busAnswerOf`) — and once the call asked for a
 * stream, a 500 becomes a stream with one `error` frame.
 * A request that is no bus call (another path or method) gets the §5.4 body, unsigned.
 */
function writeReferenceRefusal(
  responder: ResponseContext,
  { error, origin, status, streamRequested }: CallRefusal,
): Response {
  if (origin === 'endpoint') return plainJsonResponse(responder, status ?? error.status, toErrorBody(error));
  if (origin === 'capability') {
    const answer = { ...toErrorBody(error), _routed_via: 'local' };
    return streamRequested ? oneFrameStream(answer, responder) : plainJsonResponse(responder, 200, answer);
  }
  const answer = busAnswerOf(error, origin, responder);
  if (streamRequested && answer.status === 500) {
    return streamResponse(encodeReferenceSseFrame(answer.body, 'error'), responder);
  }
  return plainJsonResponse(responder, answer.status, answer.body);
}

/**
 * A reference node's answer to the bus's own refusals: FastAPI's `{"detail": "invalid_json"}` for a
 * body that is not JSON, `call_error` with 500 when no provider serves the call (an unknown or malformed
 * capability name, a version not offered or one no capability can have), the routing refusals' own
 * answers, and otherwise the error's body with its §5.5 status for a caller's own mistake
 * (`bad_request`, `schema_mismatch`, `invalid_signature`, `unauthorized`, `revoked`), 500 for the rest.
 */
function busAnswerOf(
  error: HearthNetError,
  origin: CallRefusal['origin'],
  responder: ResponseContext,
): { readonly status: number; readonly body: unknown } {
  if (origin === 'json_syntax') return { status: 400, body: { detail: 'invalid_json' } };
  if (origin === 'no_provider') {
    const [major, minor] = responder.version.split('.');
    return {
      status: 500,
      body: { error: 'call_error', message: `no provider for ${responder.capability}@(${major}, ${minor})` },
    };
  }
  // A caller's mistake keeps its §5.5 4xx (a reference node checks no caller, so nothing to copy there);
  // the rest is the 500 FastAPI answers for what the reference bus raises.
  return (
    routingAnswers.get(error) ?? {
      status: CALLER_MISTAKES.has(error.code) ? error.status : 500,
      body: toErrorBody(error),
    }
  );
}

/** The refusals of a caller's own mistake, answered with their §5.5 status instead of the 500. */
const CALLER_MISTAKES: ReadonlySet<string> = new Set([
  'bad_request',
  'schema_mismatch',
  'invalid_signature',
  'unauthorized',
  'revoked',
]);

/**
 * A JSON response as a reference node writes it through FastAPI: plain compact JSON in the answer's
 * key order, numbers as they are, unsigned; the wire headers of the call are kept.
 */
function plainJsonResponse(responder: ResponseContext, status: number, body: unknown): Response {
  const headers = new Headers({ 'Content-Type': JSON_CONTENT_TYPE });
  if (responder.requestId !== '') headers.set(WIRE_HEADERS.requestId, responder.requestId);
  headers.set(WIRE_HEADERS.from, responder.identity.nodeId);
  headers.set(WIRE_HEADERS.timestamp, formatWireTimestamp(responder.now()));
  return new Response(JSON.stringify(body), { status, headers });
}

/** The reference's stream of a result that is not a stream: one untyped `data:` frame, then `done`. */
function oneFrameStream(answer: unknown, responder: ResponseContext): Response {
  return streamResponse(
    encodeReferenceSseFrame(answer) + encodeReferenceSseFrame({ done: true }, 'done'),
    responder,
  );
}

/** A reference node's `text/event-stream` response holding `text`. */
function streamResponse(text: string, responder: ResponseContext): Response {
  const headers = new Headers({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    [WIRE_HEADERS.from]: responder.identity.nodeId,
  });
  if (responder.requestId !== '') headers.set(WIRE_HEADERS.requestId, responder.requestId);
  return new Response(text, { status: 200, headers });
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
  return `invalid literal for int() with base 10: ${pythonStringRepr(text)}`;
}

// ---------------------------------------------------------------------------------------------------
// Client side.

/** Routing in the body, the signature over the body alone (note §6). */
function writeReferenceCall(call: OutgoingCall, headers: Headers): unknown {
  const routed = {
    capability: call.capability,
    version: call.version,
    params: call.request.params,
    input: referenceMarketInput(call.capability, call.request.input),
    ...(call.stream ? { stream: true } : {}),
  };
  const { signature, ...normalised } = signPayload(routed, call.identity);
  headers.set(WIRE_HEADERS.signature, signature);
  return normalised;
}

/**
 * What a reference node's error answer means, as a HearthNet error (docs/hearthnet.md, "Errors of a
 * reference node"): its `call_error` "no provider for X@(M, m)" (an unknown capability or a version it
 * does not serve) is `not_found`; a service's `unavailable` or `backend_unavailable` (a backend such as
 * OCR, speech, TTS or image generation that is not installed) is `not_implemented`; a FastAPI `{"detail": …}` keeps its status's code. The message is
 * the body's `message`, else its `reason` (the services' words), else its code; `remoteCode` keeps the
 * code the node sent.
 */
function referenceError(body: unknown, status: number): HearthNetError {
  const record = isJsonObject<Json>(body) ? body : {};
  const sent = record['error'];
  const message = typeof record['message'] === 'string' ? record['message'] : undefined;
  const reason = typeof record['reason'] === 'string' ? record['reason'] : undefined;
  if (sent === 'call_error' && message?.startsWith('no provider for ') === true) {
    return new NotFoundError(message, { remoteCode: sent });
  }
  if (sent === 'unavailable' || sent === 'backend_unavailable') {
    return new NotImplementedError(message ?? reason ?? 'the service is unavailable on this node', {
      remoteCode: sent,
    });
  }
  const error = errorFromBody(body, status);
  if (message !== undefined || reason === undefined) return error;
  return createHearthNetError(error.code, reason, {
    ...(error.remoteCode === undefined ? {} : { remoteCode: error.remoteCode }),
  });
}

/** The reference answers service errors in-band with 200: a body with `error` and no `output` (note §6). */
function isInBandError(body: unknown): boolean {
  return body !== null && typeof body === 'object' && 'error' in body && !('output' in body);
}

// The reference node's market shapes (note §10, §19): locations are `{lat, lon, label}` — a post with a
// contract `lng` is accepted but never listed — and posts without one carry `"location": null`. The
// client converts at the boundary, so callers keep the contract's shapes.

type Json = Record<string, unknown>;

/** An answer's market posts with their locations as a reference caller reads them: `lng` as `lon`. */
function referenceMarketAnswer(capability: string, body: unknown): unknown {
  if (!capability.startsWith('market.') || !isJsonObject<Json>(body) || !isJsonObject<Json>(body['output']))
    return body;
  const posts = body['output']['posts'];
  if (!Array.isArray(posts)) return body;
  const referencePost = (post: unknown) =>
    isJsonObject<Json>(post) && Object.hasOwn(post, 'location')
      ? { ...post, location: referenceLocation(post['location']) }
      : post;
  return { ...body, output: { ...body['output'], posts: posts.map(referencePost) } };
}

/** `input` of a reference `market.post`: the contract location `{lat, lng, label?}` as `{lat, lon, label?}`. */
function referenceMarketInput(capability: string, input: unknown): unknown {
  if (capability !== 'market.post' || !isJsonObject<Json>(input) || !isJsonObject<Json>(input['location']))
    return input;
  return { ...input, location: referenceLocation(input['location']) };
}
