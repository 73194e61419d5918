/**
 * A web-standard request handler, as the edge helpers build them: mount several on one server with
 * `createEdgeRouter` and serve them from `node:http` with `toNodeListener` (or from any runtime that
 * speaks `Request`/`Response`).
 */
export type EdgeHandler = (request: Request) => Promise<Response>;
