/**
 * `@agentwire/hearthnet/node-http` — serves a bus handler (or any web-standard handler) over
 * `node:http`, with streaming responses and client disconnects turned into aborts. Node only.
 *
 * @example
 * ```ts
 * import { createBusHandler } from '@agentwire/hearthnet/wire';
 * import { serveBusHandler } from '@agentwire/hearthnet/node-http';
 *
 * const node = await serveBusHandler(createBusHandler({ identity, registry, trust }), { port: 7080 });
 * ```
 *
 * @packageDocumentation
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeListener, type NodeListenerProblem } from '@agentwire/internal/node';
import { toErrorBody } from './capabilities/error-body.js';
import { BadRequestError, InternalError } from './capabilities/index.js';
import { HearthNetLocalError } from './errors.js';
import { DEFAULT_DRAIN_TIMEOUT_MS, MAX_TIMER_MS, slowConsumerError } from './wire/sse.js';

/** Options of {@link serveBusHandler}. */
export interface ServeOptions extends NodeListenerOptions {
  /** The port; `0` (default) picks a free one. */
  readonly port?: number;
  /** The interface to bind. Default `127.0.0.1`. */
  readonly host?: string;
}

/** A running server: its base URL (what a client's `node` option takes) and how to stop it. */
export interface ServedBusHandler {
  readonly server: Server;
  /** `http://<host>:<port>`. */
  readonly url: string;
  /** Stops accepting connections, closes the open ones and resolves when the server is closed. */
  close(): Promise<void>;
}

/**
 * Serves a web-standard handler (such as a bus handler) over `node:http`.
 *
 * @example
 * const node = await serveBusHandler(createBusHandler(options), { port: 7080 });
 * const client = createHearthNetClient({ identity, community, node: node.url });
 * await node.close();
 */
export async function serveBusHandler(
  handler: WebHandler,
  options: ServeOptions = {},
): Promise<ServedBusHandler> {
  const server = createServer(toNodeListener(handler, options));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}

/** A web-standard handler, such as the one `createBusHandler` returns. */
export type WebHandler = (request: Request) => Promise<Response>;

/** Options of {@link toNodeListener}. */
export interface NodeListenerOptions {
  /** The largest request body read, in bytes; a larger one is answered 413 `bad_request`. Default 10 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * How long (ms) a response whose socket buffer is full may wait for the client to read before the client is
   * dropped: the response is destroyed and the request's `signal` aborts with a `HearthNetLocalError`
   * `slow_consumer` (`drain_timeout`), which a bus handler passes on to the capability handler. The bytes one
   * response queues stay bounded meanwhile: its body is read one chunk at a time, only after the previous one
   * drained. Default 60 000 (60 s).
   */
  readonly drainTimeoutMs?: number;
}

/**
 * Adapts a web-standard handler to `node:http`: the request (headers, body up to `maxBodyBytes`, or —
 * for a `text/event-stream` client stream — a body streamed as it arrives, with back-pressure and no
 * total limit) becomes a `Request` whose `signal` aborts when the client disconnects before the response is
 * complete; the `Response` is written back with back-pressure, its body streamed chunk by chunk
 * (headers flushed first, so SSE frames reach the client as they are produced), and cancelled when
 * the client goes away — which is how a bus handler learns to stop (contract §4.1). A client that stops
 * reading is dropped after `drainTimeoutMs`.
 *
 * @example
 * import { createServer } from 'node:http';
 * createServer(toNodeListener(createBusHandler(options))).listen(7080, '127.0.0.1');
 */
export function toNodeListener(
  handler: WebHandler,
  options: NodeListenerOptions = {},
): (request: IncomingMessage, response: ServerResponse) => void {
  const maxBodyBytes = options.maxBodyBytes ?? 10 * 1024 * 1024;
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  if (!Number.isSafeInteger(drainTimeoutMs) || drainTimeoutMs < 1 || drainTimeoutMs > MAX_TIMER_MS) {
    throw new HearthNetLocalError(
      'invalid_wire_options',
      `drainTimeoutMs must be a positive integer (ms, at most 2^31 - 1), got ${String(drainTimeoutMs)}`,
    );
  }
  // The shared Node bridge; what is HearthNet's own is the body limit, the client streams that pass it
  // uncapped, the drain timeout, the early headers SSE needs, and the §5.4 bodies of its answers.
  return createNodeListener(handler, {
    wholeBody: { maxBytes: maxBodyBytes, streamedMediaTypes: [EVENT_STREAM_MEDIA_TYPE] },
    drainTimeoutMs,
    flushHeaders: true,
    errorFor: hearthNetErrorFor,
    answerError: answerListenerError,
  });
}

/** The media type of a client stream: a request body read as it arrives. */
const EVENT_STREAM_MEDIA_TYPE = 'text/event-stream';

/**
 * What the handler sees of the Node bridge's problems: an `AbortError` when the client went away, a
 * `slow_consumer` (`drain_timeout`) when it stopped reading; a refusal the bridge answers is a §5.4 error.
 */
function hearthNetErrorFor(problem: NodeListenerProblem): unknown {
  switch (problem.kind) {
    case 'client_gone':
    case 'client_gone_during_body':
      return new DOMException('the client went away', 'AbortError');
    case 'body_not_read':
      return new DOMException(problem.message, 'AbortError');
    case 'slow_client':
      return slowConsumerError('drain_timeout', problem.message);
    case 'body_too_large':
    case 'unusable_headers':
    case 'unusable_request':
      return new BadRequestError(problem.message, { cause: problem.cause });
    case 'unusable_response':
      return new InternalError();
  }
}

/**
 * The §5.4 answer to a failure: 413 `bad_request` for a body over `maxBodyBytes`, 400 `bad_request` for a
 * request that cannot be made a `Request`, and 500 `internal_error` (without the failure's message) for
 * anything the handler threw or a response it could not give.
 */
function answerListenerError(error: unknown, problem: NodeListenerProblem | undefined): Response {
  if (problem === undefined) return jsonAnswer(500, toErrorBody(new InternalError()));
  const status =
    problem.kind === 'body_too_large'
      ? 413
      : problem.kind === 'unusable_headers' || problem.kind === 'unusable_request'
        ? 400
        : 500;
  return jsonAnswer(status, toErrorBody(status === 500 ? new InternalError() : error));
}

function jsonAnswer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
