import type { ServerResponse } from 'node:http';

/**
 * Writes a web `Response` to a `node:http` response: status, headers (every `Set-Cookie` kept apart)
 * and the body streamed chunk by chunk, each write waiting for the socket to drain. When the client
 * goes away (`signal` aborts) the body is cancelled. A body that fails part-way destroys the
 * connection, so the client sees a broken response rather than a short one; the error is returned.
 */
export async function writeWebResponse(
  target: ServerResponse,
  response: Response,
  options: { readonly omitBody: boolean; readonly signal: AbortSignal },
): Promise<unknown> {
  target.statusCode = response.status;
  if (response.statusText !== '') target.statusMessage = response.statusText;
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') target.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) target.setHeader('set-cookie', cookies);

  const body = response.body;
  if (body === null || options.omitBody || options.signal.aborted) {
    body?.cancel(options.signal.reason).catch(() => undefined);
    if (!target.destroyed) target.end();
    return undefined;
  }
  const reader = body.getReader();
  const cancel = () => {
    reader.cancel(options.signal.reason).catch(() => undefined);
  };
  options.signal.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || target.destroyed) break;
      if (!target.write(value)) await drained(target);
    }
    if (!target.destroyed) target.end();
    return undefined;
  } catch (error) {
    if (options.signal.aborted) return undefined;
    target.destroy(error instanceof Error ? error : undefined);
    return error;
  } finally {
    options.signal.removeEventListener('abort', cancel);
  }
}

function drained(target: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      target.off('drain', done);
      target.off('close', done);
      resolve();
    };
    target.on('drain', done);
    target.on('close', done);
  });
}
