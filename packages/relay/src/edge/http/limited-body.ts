import { RelayError } from '../../errors.js';

/**
 * The request body as a stream that fails with a `RelayError` `edge_http_payload_too_large` (413) at
 * the first chunk that takes it past `maxBytes`, never passing on a byte beyond the limit. A
 * `Content-Length` above the limit is refused at once, before anything is read: the error is thrown
 * here and the body is
 * cancelled. Chunks are pulled from the request only as the returned stream is read, so nothing is
 * buffered on the way; cancelling the returned stream cancels the request body.
 *
 * @throws {RelayError} `edge_http_payload_too_large`: `Content-Length` announces more than `maxBytes`.
 * @throws {RelayError} `edge_http_invalid_argument`: `request` is not a `Request` or `maxBytes` not a
 *   non-negative safe integer.
 *
 * @example
 * await store.put(limitedRequestBody(request, RELAY_MEDIA_MAX_BYTES), metadata);
 */
export function limitedRequestBody(request: Request, maxBytes: number): ReadableStream<Uint8Array> {
  if (!(request instanceof Request)) {
    throw new RelayError('edge_http_invalid_argument', 'request must be a Request', { path: 'request' });
  }
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new RelayError(
      'edge_http_invalid_argument',
      `maxBytes must be a non-negative safe integer, got ${String(maxBytes)}`,
      { path: 'maxBytes' },
    );
  }
  const declared = declaredContentLength(request.headers);
  if (declared !== undefined && declared > maxBytes) {
    request.body?.cancel().catch(() => undefined);
    throw payloadTooLarge(
      maxBytes,
      `the request body announces ${declared} bytes; at most ${maxBytes} are accepted`,
    );
  }
  const source = request.body;
  if (source === null) return new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  const reader = source.getReader();
  let total = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        total += value.byteLength;
        if (total > maxBytes) {
          const error = payloadTooLarge(maxBytes, `the request body exceeds ${maxBytes} bytes`);
          reader.cancel(error).catch(() => undefined);
          controller.error(error);
          return;
        }
        controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Reads the whole request body into one array, refusing it with a `RelayError`
 * `edge_http_payload_too_large` as soon as it passes `maxBytes` (or at once when `Content-Length` says
 * it will): at most `maxBytes` bytes are ever held.
 *
 * @example
 * const body = JSON.parse(new TextDecoder().decode(await readBodyWithLimit(request, 64 * 1024)));
 */
export async function readBodyWithLimit(request: Request, maxBytes: number): Promise<Uint8Array> {
  const reader = limitedRequestBody(request, maxBytes).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** `edge_http_payload_too_large` (413): the request body is, or announces to be, larger than `maxBytes`. */
function payloadTooLarge(maxBytes: number, message: string): RelayError {
  return new RelayError('edge_http_payload_too_large', message, { path: 'body', details: { maxBytes } });
}

/** The `Content-Length` header as a number, or `undefined` when it is absent or not a decimal integer. */
function declaredContentLength(headers: Headers): number | undefined {
  const value = headers.get('content-length');
  if (value === null || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}
