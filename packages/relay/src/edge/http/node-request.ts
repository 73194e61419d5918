import type { IncomingMessage } from 'node:http';
import { RelayError } from '../../errors.js';

/** Bytes of request body the stream holds before it pauses the socket. */
const BODY_HIGH_WATER_MARK = 64 * 1024;

/** A `Request` made from a `node:http` request, and how to let go of the rest of its body. */
export interface NodeWebRequest {
  readonly request: Request;
  /**
   * Reads and drops what is left of the body, once the answer is sent, so the client can finish its
   * upload and read the answer; a read still pending fails with a `RelayError` `edge_http_request_aborted`.
   */
  readonly discardBody: () => void;
}

/**
 * A web `Request` for a `node:http` request whose body (for methods other than GET and HEAD) is a
 * stream pulled from the socket as it is read: nothing is buffered beyond a 64 KiB window. The body
 * fails with a `RelayError` `edge_http_request_aborted` when the client goes away before it ends; a
 * body that is cancelled is drained, so the client can still read its answer on the same connection.
 *
 * @throws {RelayError} `edge_http_bad_request`: The method or a header cannot be carried by a `Request`.
 */
export function nodeToWebRequest(
  message: IncomingMessage,
  origin: string,
  signal: AbortSignal,
): NodeWebRequest {
  const headers = new Headers();
  const raw = message.rawHeaders;
  try {
    for (let index = 0; index + 1 < raw.length; index += 2) {
      headers.append(raw[index] as string, raw[index + 1] as string);
    }
  } catch (error) {
    throw new RelayError('edge_http_bad_request', 'the request has a header a Request cannot carry', {
      path: 'headers',
      cause: error,
    });
  }
  const method = message.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : nodeBodyStream(message);
  try {
    const request = new Request(requestUrl(message.url ?? '/', origin), {
      method,
      headers,
      body: body?.stream ?? null,
      duplex: 'half',
      signal,
    });
    return { request, discardBody: body?.discard ?? (() => message.resume()) };
  } catch (error) {
    body?.discard();
    throw new RelayError('edge_http_bad_request', `the request cannot be represented: ${describe(error)}`, {
      path: 'method',
      cause: error,
    });
  }
}

/** The absolute URL of a request target, on `origin` (the target's own host is never trusted). */
function requestUrl(target: string, origin: string): URL {
  const url = new URL(origin);
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

function nodeBodyStream(message: IncomingMessage): {
  readonly stream: ReadableStream<Uint8Array>;
  readonly discard: () => void;
} {
  let settled = false;
  let fail: (error: RelayError) => void = () => undefined;
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        fail = (error) => {
          if (settled) return;
          settled = true;
          controller.error(error);
        };
        const gone = (cause?: unknown) =>
          fail(
            new RelayError(
              'edge_http_request_aborted',
              'the client went away before the request body ended',
              cause === undefined ? { path: 'body' } : { path: 'body', cause },
            ),
          );
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
  const discard = () => {
    fail(
      new RelayError('edge_http_request_aborted', 'the answer was sent before the request body was read', {
        path: 'body',
      }),
    );
    message.resume();
  };
  return { stream, discard };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
