import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { RelayError } from '../../errors.js';
import type { EdgeHandler } from './edge-handler.js';
import { edgeErrorResponse } from './error-response.js';
import { nodeToWebRequest } from './node-request.js';
import { writeWebResponse } from './node-response.js';
import { isEdgeHttpError } from './refusals.js';

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
  return (message, target) => {
    serve(handler, message, target, origin ?? originOf(message), report).catch(report);
  };
}

async function serve(
  handler: EdgeHandler,
  message: IncomingMessage,
  target: ServerResponse,
  origin: string,
  report: (error: unknown) => void,
): Promise<void> {
  const controller = new AbortController();
  target.once('close', () => {
    if (!target.writableFinished) {
      controller.abort(
        new RelayError('edge_http_request_aborted', 'the client went away before the response was complete'),
      );
    }
  });
  let response: Response;
  let discardBody = () => {
    message.resume();
  };
  try {
    const converted = nodeToWebRequest(message, origin, controller.signal);
    discardBody = converted.discardBody;
    response = await handler(converted.request);
    if (!(response instanceof Response) || response.type === 'error') {
      throw new RelayError('edge_http_invalid_argument', 'the handler did not resolve to a usable Response');
    }
  } catch (error) {
    if (!isEdgeHttpError(error)) report(error);
    response = edgeErrorResponse(error);
  }
  const failure = await writeWebResponse(target, response, {
    omitBody: message.method === 'HEAD',
    signal: controller.signal,
  });
  discardBody();
  if (failure !== undefined) report(failure);
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

function originOf(message: IncomingMessage): string {
  const scheme = (message.socket as Partial<TLSSocket>).encrypted === true ? 'https' : 'http';
  const host = message.headers.host;
  if (host !== undefined && host !== '') {
    try {
      const url = new URL(`${scheme}://${host}`);
      const bare = url.username === '' && url.password === '' && url.pathname === '/' && url.search === '';
      if (bare && url.hash === '') return url.origin;
    } catch {
      // Fall through to the default.
    }
  }
  return `${scheme}://localhost`;
}
