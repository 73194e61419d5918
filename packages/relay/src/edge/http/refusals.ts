import type { RelayAuthCloseReason } from '../../auth/index.js';
import { RelayError, type RelayErrorCode } from '../../errors.js';

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
