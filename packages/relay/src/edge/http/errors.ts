import type { RelayAuthCloseReason } from '../../auth/index.js';
import { RelayError } from '../../errors.js';

/** The JSON body of every refusal an edge handler answers. */
export interface EdgeErrorBody {
  readonly error: string;
  readonly message: string;
}

/**
 * Base class of the refusals an edge handler answers with an HTTP status: throw one from a handler
 * mounted with `createEdgeRouter` or `toNodeListener`, or turn it into a response with
 * `edgeErrorResponse`. `code` identifies the condition in the package (`edge_http_not_found`);
 * `responseCode` is the shorter `error` field of the JSON answer, from the vocabulary every edge
 * endpoint answers with (`not_found`, `method_not_allowed`, `unauthorized`, `expired`,
 * `payload_too_large`, …). Media and other edge handlers extend it with their own conditions.
 */
export abstract class EdgeHttpError extends RelayError {
  abstract override readonly name: string;
  /** The HTTP status the refusal is answered with. */
  abstract readonly status: number;
  /** The `error` field of the JSON answer. */
  abstract readonly responseCode: string;

  /** The JSON body of the answer: `{ error: responseCode, message }`. */
  responseBody(): EdgeErrorBody {
    return { error: this.responseCode, message: this.message };
  }

  /** Headers the answer carries besides `Content-Type` (`Allow`, `WWW-Authenticate`). */
  responseHeaders(): Readonly<Record<string, string>> {
    return {};
  }
}

/** The request cannot be read as sent (headers a `Request` cannot carry, a malformed field). */
export class EdgeBadRequestError extends EdgeHttpError {
  override readonly name = 'EdgeBadRequestError';
  readonly code = 'edge_http_bad_request';
  readonly status = 400;
  readonly responseCode = 'bad_request';
}

/**
 * The bearer token is missing, malformed, forged, revoked (`reason: 'unauthorized'`) or validly
 * signed but expired (`reason: 'expired'`). The answer's `error` is the reason, as the WebSocket close
 * reason is; `detail` (for logs only, never sent) says why.
 */
export class EdgeUnauthorizedError extends EdgeHttpError {
  override readonly name = 'EdgeUnauthorizedError';
  readonly code = 'edge_http_unauthorized';
  readonly status = 401;
  readonly reason: RelayAuthCloseReason;
  readonly responseCode: RelayAuthCloseReason;
  /** Why the token was refused, for logs; not part of the answer. */
  readonly detail: string;

  constructor(reason: RelayAuthCloseReason, detail: string) {
    super(
      reason === 'expired' ? 'the bearer token has expired' : 'a valid bearer token is required',
      'authorization',
    );
    this.reason = reason;
    this.responseCode = reason;
    this.detail = detail;
  }

  override responseHeaders(): Readonly<Record<string, string>> {
    return { 'www-authenticate': 'Bearer' };
  }
}

/** No route serves the request's path. */
export class EdgeNotFoundError extends EdgeHttpError {
  override readonly name = 'EdgeNotFoundError';
  readonly code = 'edge_http_not_found';
  readonly status = 404;
  readonly responseCode = 'not_found';
}

/** The path is served, but not with the request's method; `allow` lists the methods that are. */
export class EdgeMethodNotAllowedError extends EdgeHttpError {
  override readonly name = 'EdgeMethodNotAllowedError';
  readonly code = 'edge_http_method_not_allowed';
  readonly status = 405;
  readonly responseCode = 'method_not_allowed';
  readonly method: string;
  readonly allow: readonly string[];

  constructor(method: string, allow: readonly string[]) {
    super(`method ${method} is not allowed here; allowed: ${allow.join(', ') || 'none'}`, 'method');
    this.method = method;
    this.allow = [...allow];
  }

  override responseHeaders(): Readonly<Record<string, string>> {
    return { allow: this.allow.join(', ') };
  }
}

/** The request body is, or announces with `Content-Length` to be, larger than `maxBytes`. */
export class EdgePayloadTooLargeError extends EdgeHttpError {
  override readonly name = 'EdgePayloadTooLargeError';
  readonly code = 'edge_http_payload_too_large';
  readonly status = 413;
  readonly responseCode = 'payload_too_large';
  readonly maxBytes: number;

  constructor(maxBytes: number, declared?: number) {
    super(
      declared === undefined
        ? `the request body exceeds ${maxBytes} bytes`
        : `the request body announces ${declared} bytes; at most ${maxBytes} are accepted`,
      'body',
    );
    this.maxBytes = maxBytes;
  }
}

/**
 * The client went away before the exchange completed: the reason `request.signal` is aborted with
 * and the error a streamed request body fails with. Nobody is left to read its answer.
 */
export class EdgeRequestAbortedError extends EdgeHttpError {
  override readonly name = 'EdgeRequestAbortedError';
  readonly code = 'edge_http_request_aborted';
  readonly status = 400;
  readonly responseCode = 'request_aborted';
}

/** An edge HTTP helper was given an unusable argument (a route key, a limit, an option). */
export class EdgeHttpArgumentError extends RelayError {
  override readonly name = 'EdgeHttpArgumentError';
  readonly code = 'edge_http_invalid_argument';
}
