// The one bridge from `node:http` to a web-standard handler (`Request` in, `Response` out), shared by the
// relay's edge (`toNodeListener`) and HearthNet's `node-http` entry. Everything the two packages answer
// differently — a body limit and its answer, the drain timeout for clients that stop reading, the
// origin, which errors the handler sees and how a failure is answered — is an option; the errors
// themselves are the package's, made from the neutral `NodeListenerProblem`s this file reports.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { messageOf } from './values.js';

/** A web-standard request handler, as both packages serve them. */
export type WebRequestHandler = (request: Request) => Promise<Response>;

/** A `node:http` (or `node:https`) `request` listener. */
export type NodeRequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Something the listener ran into rather than the handler: the package turns each into its own error
 * with {@link NodeListenerOptions.errorFor}. `message` is a sentence for that error (the relay sends it
 * in its answers, so it names no secret); `cause` is the underlying failure where there is one.
 *
 * - `unusable_headers`: a header a `Request` cannot carry; answered (the handler never runs).
 * - `unusable_request`: the method or target cannot make a `Request`; answered.
 * - `body_too_large`: a body read whole passed `maxBytes` (`maxBytes` set); answered.
 * - `unusable_response`: the handler did not resolve to a usable `Response`; answered.
 * - `client_gone_during_body`: the client went away before the request body ended; a pending body read
 *   fails with it (a body read whole is answered with it, to no one).
 * - `body_not_read`: the answer was sent before the handler read the body; a pending read fails with it.
 * - `client_gone`: the client went away before the response was complete; `request.signal` aborts with it.
 * - `slow_client`: the client read nothing for `drainTimeoutMs`; `request.signal` aborts with it and the
 *   connection is destroyed.
 */
export interface NodeListenerProblem {
  readonly kind:
    | 'unusable_headers'
    | 'unusable_request'
    | 'body_too_large'
    | 'unusable_response'
    | 'client_gone_during_body'
    | 'body_not_read'
    | 'client_gone'
    | 'slow_client';
  readonly message: string;
  readonly cause?: unknown;
  /** `body_too_large`: the limit that was passed. */
  readonly maxBytes?: number;
}

/** Request bodies read whole before the handler runs (see {@link NodeListenerOptions.wholeBody}). */
export interface WholeBodyOptions {
  /** The largest body read, in bytes; a larger one is answered as a `body_too_large` problem. */
  readonly maxBytes: number;
  /**
   * Media types (`Content-Type` without parameters, compared case-insensitively) whose bodies still stream
   * to the handler as they arrive, with no total limit — such as a client stream of SSE frames. Default: none.
   */
  readonly streamedMediaTypes?: readonly string[];
}

/** Options of {@link createNodeListener}. */
export interface NodeListenerOptions {
  /**
   * The origin request URLs are built on, already checked to be an `http:` or `https:` origin. Default:
   * `http:` (or `https:` on a TLS socket) with the request's `Host` header, or `http://localhost` when it
   * has none that parses. The host in the request target itself is never used.
   */
  readonly origin?: string;
  /**
   * Read bodies whole (up to a limit) before the handler runs, so a handler is handed a body of known size.
   * Default: every body streams to the handler as it arrives, uncapped (the handler limits it).
   */
  readonly wholeBody?: WholeBodyOptions;
  /**
   * How long (ms) a response whose socket buffer is full may wait for the client to read before the client
   * is dropped (a `slow_client` problem). Default: it waits for as long as the connection stays open.
   */
  readonly drainTimeoutMs?: number;
  /**
   * Send the status and headers before the first chunk of the body is read, so a client of a stream whose
   * first chunk comes late (SSE) sees the answer at once; such a response is always chunked. Default
   * `false`: they go out with the first chunk, and an empty body is sent with `Content-Length: 0`.
   */
  readonly flushHeaders?: boolean;
  /** The package's error for a problem of the listener: an abort reason, a body read's failure, or what is answered. */
  readonly errorFor: (problem: NodeListenerProblem) => unknown;
  /**
   * The answer to a failure: what the handler threw (`problem` undefined), or `errorFor(problem)` for a
   * problem the listener answers instead of running (or after running) the handler.
   */
  readonly answerError: (error: unknown, problem: NodeListenerProblem | undefined) => Response;
  /**
   * Receives a response body that failed part-way (the connection is then destroyed) and any failure of the
   * listener itself. Default: nothing is reported. What it throws is ignored.
   */
  readonly onError?: (error: unknown) => void;
}

/**
 * Serves a web-standard handler from `node:http`. The request becomes a `Request` on the origin (see
 * {@link NodeListenerOptions.origin}) whose `signal` aborts when the client goes away before the response is
 * complete, and whose body (for methods other than GET and HEAD) is either read whole up to a limit
 * ({@link NodeListenerOptions.wholeBody}) or a stream pulled from the socket as it is read (`duplex:
 * 'half'`), nothing buffered beyond a 64 KiB window. The `Response` is written back with back-pressure
 * (every `Set-Cookie` kept apart, no body for HEAD), its body streamed chunk by chunk and cancelled when the
 * client goes away; a body that fails part-way destroys the connection, so the client sees a broken answer
 * rather than a short one. A body the handler leaves unread is drained after the answer, so the client can
 * read it on the same connection. What the handler throws is answered with `answerError`.
 */
export function createNodeListener(
  handler: WebRequestHandler,
  options: NodeListenerOptions,
): NodeRequestListener {
  const report = (error: unknown): void => {
    try {
      options.onError?.(error);
    } catch {
      // A failing reporter must not take the server down.
    }
  };
  return (message, target) => {
    serve(handler, message, target, options, report).catch((error: unknown) => {
      report(error);
      if (!target.writableFinished) target.destroy();
    });
  };
}

/** Thrown inside {@link serve} for a problem the listener answers; never leaves this file. */
class AnsweredProblem extends Error {
  constructor(readonly problem: NodeListenerProblem) {
    super(problem.message);
  }
}

async function serve(
  handler: WebRequestHandler,
  message: IncomingMessage,
  target: ServerResponse,
  options: NodeListenerOptions,
  report: (error: unknown) => void,
): Promise<void> {
  const controller = new AbortController();
  const abort = (problem: NodeListenerProblem): void => {
    if (!controller.signal.aborted) controller.abort(options.errorFor(problem));
  };
  target.once('close', () => {
    if (!target.writableFinished) {
      abort({ kind: 'client_gone', message: 'the client went away before the response was complete' });
    }
  });
  let response: Response;
  let discardBody = (): void => {
    message.resume();
  };
  try {
    const converted = await nodeToWebRequest(message, options, controller.signal);
    discardBody = converted.discardBody;
    response = await handler(converted.request);
    if (!(response instanceof Response) || response.type === 'error') {
      throw new AnsweredProblem({
        kind: 'unusable_response',
        message: 'the handler did not resolve to a usable Response',
      });
    }
  } catch (error) {
    response =
      error instanceof AnsweredProblem
        ? options.answerError(options.errorFor(error.problem), error.problem)
        : options.answerError(error, undefined);
  }
  const failure = await writeWebResponse(target, response, {
    omitBody: message.method === 'HEAD',
    signal: controller.signal,
    flushHeaders: options.flushHeaders === true,
    drainTimeoutMs: options.drainTimeoutMs,
    dropSlowClient: (queuedBytes, timeoutMs) => {
      abort({
        kind: 'slow_client',
        message: `the client read nothing of ${queuedBytes} queued bytes for ${timeoutMs} ms`,
      });
      target.destroy();
    },
  });
  discardBody();
  if (failure !== undefined) report(failure);
}

/** Bytes of request body the stream holds before it pauses the socket. */
const BODY_HIGH_WATER_MARK = 64 * 1024;

/** A `Request` made from a `node:http` request, and how to let go of the rest of its body. */
interface NodeWebRequest {
  readonly request: Request;
  /** Reads and drops what is left of the body once the answer is sent; a read still pending fails. */
  readonly discardBody: () => void;
}

async function nodeToWebRequest(
  message: IncomingMessage,
  options: NodeListenerOptions,
  signal: AbortSignal,
): Promise<NodeWebRequest> {
  const headers = new Headers();
  const raw = message.rawHeaders;
  try {
    for (let index = 0; index + 1 < raw.length; index += 2) {
      headers.append(raw[index] as string, raw[index + 1] as string);
    }
  } catch (error) {
    throw new AnsweredProblem({
      kind: 'unusable_headers',
      message: 'the request has a header a Request cannot carry',
      cause: error,
    });
  }
  const method = message.method ?? 'GET';
  let body: Uint8Array | ReadableStream<Uint8Array> | null = null;
  let discardBody = (): void => {
    message.resume();
  };
  if (method !== 'GET' && method !== 'HEAD') {
    const whole = options.wholeBody;
    if (whole === undefined || streams(message.headers['content-type'], whole)) {
      const streamed = nodeBodyStream(message, options.errorFor);
      body = streamed.stream;
      discardBody = streamed.discard;
    } else {
      body = await readWholeBody(message, whole.maxBytes);
    }
  }
  try {
    const request = new Request(requestUrl(message, options.origin), {
      method,
      headers,
      body,
      duplex: 'half',
      signal,
    });
    return { request, discardBody };
  } catch (error) {
    discardBody();
    throw new AnsweredProblem({
      kind: 'unusable_request',
      message: `the request cannot be represented: ${messageOf(error)}`,
      cause: error,
    });
  }
}

/** Whether a body with this `Content-Type` streams although bodies are read whole. */
function streams(contentType: string | undefined, whole: WholeBodyOptions): boolean {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType === undefined) return false;
  return (whole.streamedMediaTypes ?? []).some((streamed) => streamed.toLowerCase() === mediaType);
}

/**
 * The whole body, refused as `body_too_large` at the first chunk past `maxBytes` (the rest is drained, so
 * the client can read the answer), or as `client_gone_during_body` when the client goes away first.
 */
function readWholeBody(message: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const stop = (): void => {
      message.off('data', take);
      message.off('end', end);
      message.off('error', gone);
      message.off('close', closed);
    };
    const take = (chunk: Buffer): void => {
      length += chunk.byteLength;
      if (length <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      stop();
      // Without a `data` listener the flowing socket is read and dropped.
      message.resume();
      reject(
        new AnsweredProblem({
          kind: 'body_too_large',
          message: `the request body exceeds ${maxBytes} bytes`,
          maxBytes,
        }),
      );
    };
    const end = (): void => {
      stop();
      resolve(new Uint8Array(Buffer.concat(chunks, length)));
    };
    const gone = (cause?: unknown): void => {
      stop();
      reject(
        new AnsweredProblem({
          kind: 'client_gone_during_body',
          message: 'the client went away before the request body ended',
          ...(cause === undefined ? {} : { cause }),
        }),
      );
    };
    const closed = (): void => {
      if (!message.complete) gone();
    };
    message.on('data', take);
    message.once('end', end);
    message.once('error', gone);
    message.once('close', closed);
  });
}

/** The absolute URL of a request, on `origin` or the one its `Host` names (the target's own host is never trusted). */
function requestUrl(message: IncomingMessage, origin: string | undefined): URL {
  const url = new URL(origin ?? originOf(message));
  const target = message.url ?? '/';
  let pathAndQuery = target;
  if (!target.startsWith('/')) {
    try {
      const absolute = new URL(target);
      pathAndQuery = `${absolute.pathname}${absolute.search}`;
    } catch {
      pathAndQuery = '/';
    }
  }
  const query = pathAndQuery.indexOf('?');
  url.pathname = query === -1 ? pathAndQuery : pathAndQuery.slice(0, query);
  url.search = query === -1 ? '' : pathAndQuery.slice(query);
  return url;
}

/** `http:` (or `https:` on TLS) with the `Host` header when it is a bare host, else `localhost`. */
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

/**
 * The body as a stream pulled from the socket as it is read: the socket is paused while the stream holds
 * {@link BODY_HIGH_WATER_MARK} bytes. The stream fails with `errorFor(client_gone_during_body)` when the
 * client goes away first; a cancelled stream drains the socket, so the client can still read its answer.
 */
function nodeBodyStream(
  message: IncomingMessage,
  errorFor: NodeListenerOptions['errorFor'],
): { readonly stream: ReadableStream<Uint8Array>; readonly discard: () => void } {
  // Once the stream is closed, errored or cancelled, later events must not touch its controller.
  let settled = false;
  let fail: (problem: NodeListenerProblem) => void = () => undefined;
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        fail = (problem) => {
          if (settled) return;
          settled = true;
          controller.error(errorFor(problem));
        };
        const gone = (cause?: unknown) =>
          fail({
            kind: 'client_gone_during_body',
            message: 'the client went away before the request body ended',
            ...(cause === undefined ? {} : { cause }),
          });
        message.on('data', (chunk: Buffer) => {
          if (settled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) message.pause();
        });
        message.once('end', () => {
          if (settled) return;
          settled = true;
          controller.close();
        });
        message.once('error', gone);
        message.once('close', () => {
          if (!message.complete) gone();
        });
      },
      pull() {
        message.resume();
      },
      cancel() {
        settled = true;
        message.resume();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: BODY_HIGH_WATER_MARK }),
  );
  const discard = (): void => {
    fail({ kind: 'body_not_read', message: 'the answer was sent before the request body was read' });
    message.resume();
  };
  return { stream, discard };
}

/** How {@link writeWebResponse} writes one response. */
interface WriteSettings {
  readonly omitBody: boolean;
  readonly signal: AbortSignal;
  readonly flushHeaders: boolean;
  readonly drainTimeoutMs: number | undefined;
  /** Drops a client that read nothing of `queuedBytes` for `timeoutMs` (aborting `signal`). */
  readonly dropSlowClient: (queuedBytes: number, timeoutMs: number) => void;
}

/**
 * Writes a web `Response`: status, headers (every `Set-Cookie` kept apart) and the body chunk by chunk,
 * each write waiting for the socket to drain. When `signal` aborts the body is cancelled with its reason.
 * A body that fails part-way destroys the connection; the error is returned.
 */
async function writeWebResponse(
  target: ServerResponse,
  response: Response,
  settings: WriteSettings,
): Promise<unknown> {
  target.statusCode = response.status;
  if (response.statusText !== '') target.statusMessage = response.statusText;
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') target.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) target.setHeader('set-cookie', cookies);

  const { signal } = settings;
  const body = response.body;
  if (body === null || settings.omitBody || signal.aborted) {
    body?.cancel(signal.reason).catch(() => undefined);
    if (!target.destroyed) target.end();
    return undefined;
  }
  if (settings.flushHeaders) target.flushHeaders();
  const reader = body.getReader();
  const cancel = (): void => {
    reader.cancel(signal.reason).catch(() => undefined);
  };
  signal.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || target.destroyed) break;
      if (!target.write(value) && !(await drained(target, settings.drainTimeoutMs))) {
        settings.dropSlowClient(target.writableLength, settings.drainTimeoutMs as number);
        break;
      }
    }
    if (!target.destroyed) target.end();
    return undefined;
  } catch (error) {
    if (signal.aborted) return undefined;
    target.destroy(error instanceof Error ? error : undefined);
    return error;
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

/**
 * Waits for `drain` or `close`, whichever comes first, leaving no listener behind: `true` then, `false`
 * when `timeoutMs` (if set) passed first.
 */
function drained(target: ServerResponse, timeoutMs: number | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = (progressed: boolean): void => {
      clearTimeout(timer);
      target.off('drain', done);
      target.off('close', done);
      resolve(progressed);
    };
    const done = (): void => settle(true);
    target.on('drain', done);
    target.on('close', done);
    if (timeoutMs !== undefined) timer = setTimeout(() => settle(false), timeoutMs);
  });
}
