import type { EdgeHandler } from './edge-handler.js';
import { EdgeHttpError } from './errors.js';
import { jsonResponse } from './json-response.js';

/** The `error` code of the 500 answer to a failure that is not an {@link EdgeHttpError}. */
export const EDGE_INTERNAL_ERROR_CODE = 'internal_error';

/**
 * The answer to an error thrown while handling a request: an {@link EdgeHttpError} becomes its status
 * with `{ error: responseCode, message }` and its headers (`Allow`, `WWW-Authenticate`); anything
 * else becomes a 500 `{ error: 'internal_error', message: 'internal error' }` that reveals nothing of
 * the failure (report it yourself).
 *
 * @example
 * try {
 *   return await handle(request);
 * } catch (error) {
 *   if (!(error instanceof EdgeHttpError)) logger.error(error);
 *   return edgeErrorResponse(error);
 * }
 */
export function edgeErrorResponse(error: unknown): Response {
  if (error instanceof EdgeHttpError) {
    return jsonResponse(error.status, error.responseBody(), { headers: error.responseHeaders() });
  }
  return jsonResponse(500, { error: EDGE_INTERNAL_ERROR_CODE, message: 'internal error' });
}

/**
 * A handler that answers its own refusals: an {@link EdgeHttpError} thrown by `handle` becomes its
 * response ({@link edgeErrorResponse}); anything else is rethrown, for the router or the Node adapter
 * to report and answer 500.
 */
export function answeringEdgeErrors(handle: EdgeHandler): EdgeHandler {
  return async (request) => {
    try {
      return await handle(request);
    } catch (error) {
      if (error instanceof EdgeHttpError) return edgeErrorResponse(error);
      throw error;
    }
  };
}
