import type { IncomingMessage, ServerResponse } from 'node:http';
import { createNodeListener, type NodeListenerProblem } from '@agentwire/internal/node';
import type { RelayAuthCloseReason } from '../auth.js';
import { RelayError, type RelayErrorCode } from '../errors.js';

/**
 * A web-standard request handler, as the edge helpers build them: mount several on one server with
 * `createEdgeRouter` and serve them from `node:http` with `toNodeListener` (or from any runtime that
 * speaks `Request`/`Response`).
 */
export type EdgeHandler = (request: Request) => Promise<Response>;

/** Options of {@link jsonResponse}. */
export interface JsonResponseInit {
  /** More headers; they may not override `Content-Type`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A JSON response: `body` serialised with `JSON.stringify`, `Content-Type: application/json;
 * charset=utf-8`, `Cache-Control: no-store` (edge answers carry credentials and per-gateway data) and
 * `X-Content-Type-Options: nosniff`.
 *
 * @throws {RelayError} `edge_http_invalid_argument`: `status` is not an integer in 200–599, or `body` has no
 *   JSON form.
 *
 * @example
 * return jsonResponse(200, { id, size });
 */
export function jsonResponse(status: number, body: unknown, init: JsonResponseInit = {}): Response {
  if (!Number.isInteger(status) || status < 200 || status > 599) {
    throw new RelayError(
      'edge_http_invalid_argument',
      `status must be an integer in 200–599, got ${String(status)}`,
      { path: 'status' },
    );
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(body);
  } catch (error) {
    throw new RelayError(
      'edge_http_invalid_argument',
      `body cannot be serialised: ${error instanceof Error ? error.message : String(error)}`,
      { path: 'body', cause: error },
    );
  }
  if (text === undefined)
    throw new RelayError('edge_http_invalid_argument', `body has no JSON form (${typeof body})`, {
      path: 'body',
    });
  const headers = new Headers(init.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
  headers.set('x-content-type-options', 'nosniff');
  return new Response(text, { status, headers });
}

/** The JSON body of every refusal an edge handler answers. */
export interface EdgeErrorBody {
  readonly error: string;
  readonly message: string;
}

/**
 * The codes an edge handler answers with an HTTP status, and what with: the status and the `error`
 * field of the JSON body, from the vocabulary every edge endpoint answers with. `edge_http_unauthorized`
 * answers `details.authReason` and `enrollment_invalid_body` `details.bodyRefusal` when set.
 */
const EDGE_ANSWERS = {
  edge_http_bad_request: { status: 400, error: 'bad_request' },
  edge_http_unauthorized: { status: 401, error: 'unauthorized' },
  edge_http_not_found: { status: 404, error: 'not_found' },
  edge_http_method_not_allowed: { status: 405, error: 'method_not_allowed' },
  edge_http_payload_too_large: { status: 413, error: 'payload_too_large' },
  edge_http_request_aborted: { status: 400, error: 'request_aborted' },
  media_empty: { status: 400, error: 'empty_body' },
  media_filename_too_long: { status: 400, error: 'filename_too_long' },
  media_not_found: { status: 404, error: 'not_found' },
  enrollment_invalid_body: { status: 400, error: 'invalid_body' },
  enrollment_token_rejected: { status: 403, error: 'enrollment_token_rejected' },
  enrollment_gateway_conflict: { status: 409, error: 'gateway_conflict' },
  enrollment_gateway_revoked: { status: 403, error: 'gateway_revoked' },
  edge_webhook_unauthorized: { status: 401, error: 'unauthorized' },
  edge_unknown_tenant: { status: 404, error: 'unknown_tenant' },
} as const satisfies Partial<Record<RelayErrorCode, { readonly status: number; readonly error: string }>>;

type EdgeHttpErrorCode = keyof typeof EDGE_ANSWERS;

/**
 * The codes of the {@link RelayError}s an edge handler answers with an HTTP status and a
 * `{ error, message }` JSON body (400, 401, 403, 404, 405, 409, 413) instead of a bare 500: the
 * refusals of the request itself. Throw one from a handler mounted with `createEdgeRouter` or
 * `toNodeListener`, or answer it with `edgeErrorResponse`; anything else is a failure of this side.
 *
 * @example
 * if (!(error instanceof RelayError && EDGE_HTTP_ERROR_CODES.has(error.code))) logger.error(error);
 */
export const EDGE_HTTP_ERROR_CODES: ReadonlySet<RelayErrorCode> = new Set(
  Object.keys(EDGE_ANSWERS) as EdgeHttpErrorCode[],
);

/** Whether `error` is a refusal an edge handler answers with its own status. */
export function isEdgeHttpError(error: unknown): error is RelayError & { readonly code: EdgeHttpErrorCode } {
  return error instanceof RelayError && EDGE_HTTP_ERROR_CODES.has(error.code);
}

/** The answer to a refusal: its status, `{ error, message }` and headers (`Allow`, `WWW-Authenticate`). */
export function edgeAnswer(error: RelayError & { readonly code: EdgeHttpErrorCode }): {
  readonly status: number;
  readonly body: EdgeErrorBody;
  readonly headers: Readonly<Record<string, string>>;
} {
  const { status, error: responseCode } = EDGE_ANSWERS[error.code];
  const body = (code: string): EdgeErrorBody => ({ error: code, message: error.message });
  switch (error.code) {
    case 'edge_http_unauthorized':
      return {
        status,
        body: body(error.details?.authReason ?? responseCode),
        headers: { 'www-authenticate': 'Bearer' },
      };
    case 'edge_http_method_not_allowed':
      return {
        status,
        body: body(responseCode),
        headers: { allow: (error.details?.allow ?? []).join(', ') },
      };
    case 'enrollment_invalid_body':
      return { status, body: body(error.details?.bodyRefusal ?? responseCode), headers: {} };
    default:
      return { status, body: body(responseCode), headers: {} };
  }
}

/**
 * `edge_http_unauthorized`: the bearer token is missing, malformed, forged, revoked
 * (`reason: 'unauthorized'`) or validly signed but expired (`reason: 'expired'`). The answer's `error`
 * is the reason, as the WebSocket close reason is; `detail` (for logs only, never sent) says why.
 */
export function edgeUnauthorized(reason: RelayAuthCloseReason, detail: string): RelayError {
  return new RelayError(
    'edge_http_unauthorized',
    reason === 'expired' ? 'the bearer token has expired' : 'a valid bearer token is required',
    { path: 'authorization', details: { authReason: reason, authDetail: detail } },
  );
}

/** `edge_http_method_not_allowed`: the path is served, but not with `method`; `allow` lists those it is. */
export function edgeMethodNotAllowed(method: string, allow: readonly string[]): RelayError {
  return new RelayError(
    'edge_http_method_not_allowed',
    `method ${method} is not allowed here; allowed: ${allow.join(', ') || 'none'}`,
    { path: 'method', details: { method, allow: [...allow] } },
  );
}

/** The `error` code of the 500 answer to a failure that is not an edge HTTP refusal. */
export const EDGE_INTERNAL_ERROR_CODE = 'internal_error';

/**
 * The answer to an error thrown while handling a request: a `RelayError` whose code is in
 * `EDGE_HTTP_ERROR_CODES` becomes its status with `{ error, message }` and its headers (`Allow`,
 * `WWW-Authenticate`); anything else becomes a 500 `{ error: 'internal_error', message: 'internal
 * error' }` that reveals nothing of the failure (report it yourself).
 *
 * @example
 * try {
 *   return await handle(request);
 * } catch (error) {
 *   if (!(error instanceof RelayError && EDGE_HTTP_ERROR_CODES.has(error.code))) logger.error(error);
 *   return edgeErrorResponse(error);
 * }
 */
export function edgeErrorResponse(error: unknown): Response {
  if (isEdgeHttpError(error)) {
    const { status, body, headers } = edgeAnswer(error);
    return jsonResponse(status, body, { headers });
  }
  return jsonResponse(500, { error: EDGE_INTERNAL_ERROR_CODE, message: 'internal error' });
}

/**
 * A handler that answers its own refusals: a `RelayError` with a code in `EDGE_HTTP_ERROR_CODES`
 * thrown by `handle` becomes its response ({@link edgeErrorResponse}); anything else is rethrown, for
 * the router or the Node adapter to report and answer 500.
 */
export function answeringEdgeErrors(handle: EdgeHandler): EdgeHandler {
  return async (request) => {
    try {
      return await handle(request);
    } catch (error) {
      if (isEdgeHttpError(error)) return edgeErrorResponse(error);
      throw error;
    }
  };
}

/**
 * The request body as a stream that fails with a `RelayError` `edge_http_payload_too_large` (413) at
 * the first chunk that takes it past `maxBytes`, never passing on a byte beyond the limit. A
 * `Content-Length` above the limit is refused at once, before anything is read: the error is thrown
 * here and the body is
 * cancelled. Chunks are pulled from the request only as the returned stream is read, so nothing is
 * buffered on the way; cancelling the returned stream cancels the request body.
 *
 * @throws {RelayError} `edge_http_payload_too_large`: `Content-Length` announces more than `maxBytes`.
 * @throws {RelayError} `edge_http_invalid_argument`: `request` is not a `Request` or `maxBytes` not a
 *   non-negative safe integer.
 *
 * @example
 * await store.put(limitedRequestBody(request, RELAY_MEDIA_MAX_BYTES), metadata);
 */
export function limitedRequestBody(request: Request, maxBytes: number): ReadableStream<Uint8Array> {
  if (!(request instanceof Request)) {
    throw new RelayError('edge_http_invalid_argument', 'request must be a Request', { path: 'request' });
  }
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new RelayError(
      'edge_http_invalid_argument',
      `maxBytes must be a non-negative safe integer, got ${String(maxBytes)}`,
      { path: 'maxBytes' },
    );
  }
  const declared = declaredContentLength(request.headers);
  if (declared !== undefined && declared > maxBytes) {
    request.body?.cancel().catch(() => undefined);
    throw payloadTooLarge(
      maxBytes,
      `the request body announces ${declared} bytes; at most ${maxBytes} are accepted`,
    );
  }
  const source = request.body;
  if (source === null) return new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  const reader = source.getReader();
  let total = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        total += value.byteLength;
        if (total > maxBytes) {
          const error = payloadTooLarge(maxBytes, `the request body exceeds ${maxBytes} bytes`);
          reader.cancel(error).catch(() => undefined);
          controller.error(error);
          return;
        }
        controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Reads the whole request body into one array, refusing it with a `RelayError`
 * `edge_http_payload_too_large` as soon as it passes `maxBytes` (or at once when `Content-Length` says
 * it will): at most `maxBytes` bytes are ever held.
 *
 * @example
 * const body = JSON.parse(new TextDecoder().decode(await readBodyWithLimit(request, 64 * 1024)));
 */
export async function readBodyWithLimit(request: Request, maxBytes: number): Promise<Uint8Array> {
  const reader = limitedRequestBody(request, maxBytes).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** `edge_http_payload_too_large` (413): the request body is, or announces to be, larger than `maxBytes`. */
function payloadTooLarge(maxBytes: number, message: string): RelayError {
  return new RelayError('edge_http_payload_too_large', message, { path: 'body', details: { maxBytes } });
}

/** The `Content-Length` header as a number, or `undefined` when it is absent or not a decimal integer. */
function declaredContentLength(headers: Headers): number | undefined {
  const value = headers.get('content-length');
  if (value === null || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

/** A `node:http` (or `node:https`) `request` listener. */
export type NodeRequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/** Options of {@link toNodeListener}. */
export interface NodeListenerOptions {
  /**
   * The origin request URLs are built on (`https://connector.example`), for a server behind a proxy.
   * Default: `http:` (or `https:` on a TLS socket) with the request's `Host` header, or
   * `http://localhost` when it has none that parses.
   */
  readonly origin?: string;
  /**
   * Receives what the handler threw other than an edge HTTP refusal (a `RelayError` with a code in
   * `EDGE_HTTP_ERROR_CODES`, answered with its status), which is answered with a bare 500, and a
   * response body that failed part-way (the connection is then destroyed). Default: nothing is reported.
   */
  readonly onError?: (error: unknown) => void;
}

/**
 * Serves a web-standard handler from `node:http`. The request body is not read ahead: it reaches the
 * handler as a `ReadableStream` (`duplex: 'half'`) that pulls from the socket as it is read, so a
 * handler can refuse or store an upload of any size chunk by chunk. When the client goes away,
 * `request.signal` aborts with a `RelayError` `edge_http_request_aborted` and a pending body read fails
 * with it.
 * The response body is streamed back with back-pressure and cancelled if the client goes away. A body
 * the handler leaves unread is drained after the answer, so the client can read it. A thrown
 * `RelayError` with a code in `EDGE_HTTP_ERROR_CODES` is answered with its status and JSON body;
 * anything else with a bare 500.
 *
 * @throws {RelayError} `edge_http_invalid_argument`: `handler` is not a function or `origin` not an http(s)
 *   origin.
 *
 * @example
 * const server = http.createServer(toNodeListener(createEdgeRouter({ '/relay/media': media, '/relay/media/*': media })));
 * server.listen(8080, '127.0.0.1');
 */
export function toNodeListener(handler: EdgeHandler, options: NodeListenerOptions = {}): NodeRequestListener {
  if (typeof handler !== 'function')
    throw new RelayError('edge_http_invalid_argument', 'handler must be a function', { path: 'handler' });
  const origin = options.origin === undefined ? undefined : checkOrigin(options.origin);
  const onError = options.onError;
  if (onError !== undefined && typeof onError !== 'function') {
    throw new RelayError('edge_http_invalid_argument', 'onError must be a function', { path: 'onError' });
  }
  const report = (error: unknown) => {
    try {
      onError?.(error);
    } catch {
      // A failing reporter must not take the server down.
    }
  };
  // The shared Node bridge streams every body (the handlers limit it with `limitedRequestBody`) and waits
  // on slow readers for as long as the connection stays open; only the errors and answers are the edge's.
  return createNodeListener(handler, {
    ...(origin === undefined ? {} : { origin }),
    errorFor: edgeErrorFor,
    answerError: (error) => {
      if (!isEdgeHttpError(error)) report(error);
      return edgeErrorResponse(error);
    },
    onError: report,
  });
}

/** The `RelayError` the Node bridge's problems are, in the words the edge answers and aborts with. */
function edgeErrorFor(problem: NodeListenerProblem): RelayError {
  const cause = problem.cause === undefined ? {} : { cause: problem.cause };
  switch (problem.kind) {
    case 'unusable_headers':
      return new RelayError('edge_http_bad_request', problem.message, { path: 'headers', ...cause });
    case 'unusable_request':
      return new RelayError('edge_http_bad_request', problem.message, { path: 'method', ...cause });
    case 'unusable_response':
      return new RelayError('edge_http_invalid_argument', problem.message, cause);
    case 'body_too_large':
      return payloadTooLarge(problem.maxBytes ?? 0, problem.message);
    case 'client_gone_during_body':
    case 'body_not_read':
      return new RelayError('edge_http_request_aborted', problem.message, { path: 'body', ...cause });
    case 'client_gone':
    case 'slow_client':
      return new RelayError('edge_http_request_aborted', problem.message, cause);
  }
}

function checkOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch (error) {
    throw new RelayError('edge_http_invalid_argument', `origin ${JSON.stringify(origin)} is not a URL`, {
      path: 'origin',
      cause: error,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RelayError(
      'edge_http_invalid_argument',
      `origin must be http: or https:, got ${url.protocol}`,
      { path: 'origin' },
    );
  }
  return url.origin;
}

/** Options of {@link createEdgeRouter}. */
export interface EdgeRouterOptions {
  /**
   * Receives what a handler threw or rejected with, other than an edge HTTP refusal (a `RelayError`
   * with a code in `EDGE_HTTP_ERROR_CODES`, answered with its status), after it has been answered with
   * a bare 500. Default: nothing is reported.
   */
  readonly onError?: (error: unknown, request: Request) => void;
}

interface Route {
  readonly key: string;
  /** `undefined`: any method. */
  readonly method: string | undefined;
  /** Literal segments, or `undefined` where the pattern has `*`. */
  readonly segments: readonly (string | undefined)[];
  readonly wildcards: number;
  readonly handler: EdgeHandler;
}

const METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * One handler for several edge handlers, chosen by the request's path and method. A route key is
 * `'<METHOD> <path>'` (`'POST /relay/enroll'`) or a bare `'<path>'` that serves every method (for a
 * handler that answers methods itself). A path segment `*` matches any one non-empty segment
 * (`'/relay/media/*'`); a literal segment wins over `*`. A `GET` route also answers `HEAD` (without a
 * body) unless a `HEAD` route exists. A path no route matches is answered 404, a known path with
 * another method 405 with `Allow`, both as `{ error, message }` JSON. A `RelayError` a handler throws
 * with a code in `EDGE_HTTP_ERROR_CODES` is answered with its status; anything else it throws with a
 * bare 500 and `onError`.
 *
 * @throws {RelayError} `edge_http_invalid_argument`: A key is malformed or its value is not a function.
 *
 * @example
 * const media = createMediaHandler({ authenticate, store });
 * const router = createEdgeRouter({
 *   'POST /relay/enroll': enroll,
 *   'POST /relay/policy': policy,
 *   '/relay/media': media,
 *   '/relay/media/*': media,
 * });
 * http.createServer(toNodeListener(router)).listen(8080);
 */
export function createEdgeRouter(
  routes: Readonly<Record<string, EdgeHandler>>,
  options: EdgeRouterOptions = {},
): EdgeHandler {
  if (typeof routes !== 'object' || routes === null) {
    throw new RelayError('edge_http_invalid_argument', 'routes must be an object of handlers by route key', {
      path: 'routes',
    });
  }
  const onError = options.onError;
  if (onError !== undefined && typeof onError !== 'function') {
    throw new RelayError('edge_http_invalid_argument', 'onError must be a function', { path: 'onError' });
  }
  const table = Object.entries(routes).map(([key, handler]) => parseRoute(key, handler));
  table.sort((a, b) => a.wildcards - b.wildcards);

  return async (request: Request): Promise<Response> => {
    try {
      const segments = new URL(request.url).pathname.split('/');
      const matching = table.filter((route) => matches(route, segments));
      if (matching.length === 0)
        throw new RelayError('edge_http_not_found', `no route for ${new URL(request.url).pathname}`);
      const found = select(matching, request.method);
      if (found === undefined) throw edgeMethodNotAllowed(request.method, allowed(matching));
      const response = await found.route.handler(request);
      if (!(response instanceof Response)) {
        throw new RelayError(
          'edge_http_invalid_argument',
          `the handler of ${found.route.key} did not return a Response`,
        );
      }
      if (!found.headOnly) return response;
      response.body?.cancel().catch(() => undefined);
      return new Response(null, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (error) {
      if (!isEdgeHttpError(error)) onError?.(error, request);
      return edgeErrorResponse(error);
    }
  };
}

function parseRoute(key: string, handler: unknown): Route {
  if (typeof handler !== 'function') {
    throw new RelayError('edge_http_invalid_argument', `the handler of route ${key} is not a function`, {
      path: `routes.${key}`,
    });
  }
  const space = key.indexOf(' ');
  const method = space === -1 ? undefined : key.slice(0, space);
  const path = space === -1 ? key : key.slice(space + 1);
  if (method !== undefined && !METHOD.test(method)) {
    throw new RelayError(
      'edge_http_invalid_argument',
      `route ${key}: ${JSON.stringify(method)} is not a method`,
      { path: `routes.${key}` },
    );
  }
  if (
    !path.startsWith('/') ||
    /[\s?#]/.test(path) ||
    (path !== '/' && path.split('/').slice(1).includes(''))
  ) {
    throw new RelayError(
      'edge_http_invalid_argument',
      `route ${key}: the path must start with / and have no empty segments, spaces, ? or #`,
      { path: `routes.${key}` },
    );
  }
  const segments = path.split('/').map((segment) => (segment === '*' ? undefined : segment));
  const wildcards = segments.filter((segment) => segment === undefined).length;
  return { key, method, segments, wildcards, handler: handler as EdgeHandler };
}

function matches(route: Route, segments: readonly string[]): boolean {
  if (route.segments.length !== segments.length) return false;
  return route.segments.every((expected, index) => {
    const actual = segments[index];
    return expected === undefined ? actual !== undefined && actual !== '' : expected === actual;
  });
}

function select(routes: readonly Route[], method: string): { route: Route; headOnly: boolean } | undefined {
  const exact = routes.find((route) => route.method === method || route.method === undefined);
  if (exact !== undefined) return { route: exact, headOnly: false };
  if (method !== 'HEAD') return undefined;
  const get = routes.find((route) => route.method === 'GET');
  return get === undefined ? undefined : { route: get, headOnly: true };
}

function allowed(routes: readonly Route[]): string[] {
  const methods = new Set<string>();
  for (const route of routes) {
    if (route.method === undefined) continue;
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
  }
  return [...methods];
}
