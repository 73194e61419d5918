export type { EdgeHandler } from './edge-handler.js';
export { answeringEdgeErrors, EDGE_INTERNAL_ERROR_CODE, edgeErrorResponse } from './error-response.js';
export { type JsonResponseInit, jsonResponse } from './json-response.js';
export { limitedRequestBody, readBodyWithLimit } from './limited-body.js';
export { type NodeListenerOptions, type NodeRequestListener, toNodeListener } from './node-listener.js';
export { EDGE_HTTP_ERROR_CODES, type EdgeErrorBody } from './refusals.js';
export { createEdgeRouter, type EdgeRouterOptions } from './router.js';
