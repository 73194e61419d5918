import { RelayError } from '../../errors.js';
import type { EdgeHandler } from './edge-handler.js';
import { edgeErrorResponse } from './error-response.js';
import { edgeMethodNotAllowed, isEdgeHttpError } from './refusals.js';

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
