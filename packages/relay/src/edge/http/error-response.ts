import type { EdgeHandler } from './edge-handler.js';
import { jsonResponse } from './json-response.js';
import { edgeAnswer, isEdgeHttpError } from './refusals.js';

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
