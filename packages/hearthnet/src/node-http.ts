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
import { toErrorBody } from './capabilities/error-body.js';
import { BadRequestError, InternalError } from './capabilities/index.js';
import { HearthNetLocalError } from './errors.js';
import { DEFAULT_DRAIN_TIMEOUT_MS, MAX_TIMER_MS, progressWithin } from './wire/sse.js';

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
  return (request, response) => {
    void serve(handler, request, response, maxBodyBytes, drainTimeoutMs).catch(() => {
      response.destroy();
    });
  };
}

async function serve(
  handler: WebHandler,
  request: IncomingMessage,
  response: ServerResponse,
  maxBodyBytes: number,
  drainTimeoutMs: number,
): Promise<void> {
  const disconnected = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished)
      disconnected.abort(new DOMException('the client went away', 'AbortError'));
  });
  const streamed = isEventStream(request.headers['content-type']);
  const body = streamed ? requestBodyStream(request) : await readBody(request, maxBodyBytes);
  if (body === undefined) {
    writeJson(
      response,
      413,
      toErrorBody(new BadRequestError(`the request body exceeds ${maxBodyBytes} bytes`)),
    );
    return;
  }
  const headers = new Headers();
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) {
    headers.append(request.rawHeaders[i]!, request.rawHeaders[i + 1]!);
  }
  const method = request.method ?? 'GET';
  const webRequest = new Request(`http://${request.headers.host ?? 'localhost'}${request.url ?? '/'}`, {
    method,
    headers,
    ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
    signal: disconnected.signal,
    // A streamed body is read while the response is already flowing (client streams).
    ...(streamed ? { duplex: 'half' } : {}),
  } as RequestInit);
  let webResponse: Response;
  try {
    webResponse = await handler(webRequest);
  } catch {
    writeJson(response, 500, toErrorBody(new InternalError()));
    return;
  }
  await writeResponse(webResponse, response, disconnected, drainTimeoutMs);
}

/** Whether a `Content-Type` is `text/event-stream`: a client stream, read as it arrives. */
function isEventStream(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'text/event-stream';
}

/** The request body as a web stream, with back-pressure: nothing is read ahead of the handler. */
function requestBodyStream(request: IncomingMessage): ReadableStream<Uint8Array> {
  // Once the stream is closed, errored or cancelled, later events must not touch its controller.
  let settled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const fail = (error: unknown) => {
          if (settled) return;
          settled = true;
          controller.error(error);
        };
        request.on('data', (chunk: Buffer) => {
          if (settled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
          if ((controller.desiredSize ?? 0) <= 0) request.pause();
        });
        request.once('end', () => {
          if (settled) return;
          settled = true;
          controller.close();
        });
        request.once('error', fail);
        request.once('aborted', () => fail(new DOMException('the client went away', 'AbortError')));
      },
      pull() {
        request.resume();
      },
      cancel() {
        settled = true;
        request.resume();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

/** The request body, or `undefined` when it is larger than `maxBodyBytes`. */
async function readBody(request: IncomingMessage, maxBodyBytes: number): Promise<Uint8Array | undefined> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > maxBodyBytes) {
      request.resume();
      return undefined;
    }
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

async function writeResponse(
  webResponse: Response,
  response: ServerResponse,
  disconnection: AbortController,
  drainTimeoutMs: number,
): Promise<void> {
  const disconnected = disconnection.signal;
  const headers: Record<string, string> = {};
  webResponse.headers.forEach((value, name) => {
    headers[name] = value;
  });
  response.writeHead(webResponse.status, headers);
  if (webResponse.body === null) {
    response.end();
    return;
  }
  response.flushHeaders();
  const reader = webResponse.body.getReader();
  const cancel = () => void reader.cancel(disconnected.reason).catch(() => undefined);
  if (disconnected.aborted) cancel();
  disconnected.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || disconnected.aborted) break;
      if (!response.write(value)) {
        await progressWithin(
          drainedOrClosed(response),
          drainTimeoutMs,
          'drain_timeout',
          () => `the client read nothing of ${response.writableLength} queued bytes for ${drainTimeoutMs} ms`,
        );
      }
    }
  } catch (error) {
    // The body failed or was cancelled: nothing more can be sent. A client that does not read is
    // dropped, the handler told why.
    if (error instanceof HearthNetLocalError && error.code === 'slow_consumer') {
      disconnection.abort(error);
      response.destroy();
    }
  } finally {
    disconnected.removeEventListener('abort', cancel);
    if (!disconnected.aborted) response.end();
  }
}

/** Waits for `drain` or `close`, whichever comes first, leaving no listener behind. */
function drainedOrClosed(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

function writeJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}
