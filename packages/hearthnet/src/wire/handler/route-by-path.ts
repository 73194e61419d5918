import { NotFoundError, toErrorBody } from '../../capabilities/index.js';
import { HearthNetLocalError } from '../../errors.js';
import { JSON_CONTENT_TYPE } from '../headers.js';

/** A web-standard handler: a `Request` in, a `Response` out. */
export type RequestHandler = (request: Request) => Promise<Response>;

/**
 * One handler for a whole node: each request goes to the handler of the longest matching path prefix
 * (`/bus/v1/call` → the bus handler, `/sync/v1/` → the sync handler, `/pubsub/v1/` → the pub-sub
 * handler …); a path no prefix matches is answered 404 with the §5.4 `not_found` body. A prefix ending
 * in `/` matches everything under it; any other prefix matches that exact path and what lies under
 * `prefix + '/'`.
 *
 * @throws {HearthNetLocalError} `invalid_wire_options` when a prefix does not start with `/` or a handler is
 *   not a function.
 * @example
 * const node = routeByPath({
 *   '/bus/v1/call': createBusHandler(busOptions),
 *   '/sync/v1/': createSyncHandler({ store }),
 *   '/pubsub/v1/subscribe': createPubSubHandler(pubsubOptions),
 * });
 * await serveBusHandler(node, { port: 7080 });
 */
export function routeByPath(routes: Readonly<Record<string, RequestHandler>>): RequestHandler {
  const table = Object.entries(routes).map(([prefix, handler]) => {
    if (!prefix.startsWith('/'))
      throw new HearthNetLocalError(
        'invalid_wire_options',
        `route prefix ${JSON.stringify(prefix)} must start with /`,
      );
    if (typeof handler !== 'function')
      throw new HearthNetLocalError('invalid_wire_options', `the handler of ${prefix} must be a function`);
    return { prefix, handler };
  });
  table.sort((a, b) => b.prefix.length - a.prefix.length);
  return async (request) => {
    const path = new URL(request.url).pathname;
    const route = table.find(
      ({ prefix }) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`),
    );
    if (route !== undefined) return route.handler(request);
    return new Response(JSON.stringify(toErrorBody(new NotFoundError(`nothing is served at ${path}`))), {
      status: 404,
      headers: { 'Content-Type': JSON_CONTENT_TYPE },
    });
  };
}
