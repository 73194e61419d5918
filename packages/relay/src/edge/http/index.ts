export type { EdgeHandler } from './edge-handler.js';
export { answeringEdgeErrors, EDGE_INTERNAL_ERROR_CODE, edgeErrorResponse } from './error-response.js';
export {
  EdgeBadRequestError,
  type EdgeErrorBody,
  EdgeHttpArgumentError,
  EdgeHttpError,
  EdgeMethodNotAllowedError,
  EdgeNotFoundError,
  EdgePayloadTooLargeError,
  EdgeRequestAbortedError,
  EdgeUnauthorizedError,
} from './errors.js';
export { type JsonResponseInit, jsonResponse } from './json-response.js';
export { limitedRequestBody, readBodyWithLimit } from './limited-body.js';
export { type NodeListenerOptions, type NodeRequestListener, toNodeListener } from './node-listener.js';
export { createEdgeRouter, type EdgeRouterOptions } from './router.js';
