import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createNodeListener,
  type NodeListenerOptions,
  type NodeListenerProblem,
  type WebRequestHandler,
} from './node-listener.js';

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A promise with its resolver outside, for a test to wait on what a handler saw. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** The problem itself is the error: the tests see what the listener reported, unmapped. */
class ProblemError extends Error {
  constructor(readonly problem: NodeListenerProblem) {
    super(problem.message);
  }
}

/** Answers a listener problem 418 with its kind, and anything the handler threw 500 `thrown`. */
function answerError(error: unknown, problem: NodeListenerProblem | undefined): Response {
  if (problem === undefined) return new Response('thrown', { status: 500 });
  expect(error).toBeInstanceOf(ProblemError);
  return new Response(problem.kind, { status: 418 });
}

async function serve(
  handler: WebRequestHandler,
  options: Partial<NodeListenerOptions> = {},
): Promise<number> {
  const server = createServer(
    createNodeListener(handler, {
      errorFor: (problem) => new ProblemError(problem),
      answerError,
      ...options,
    }),
  );
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

function send(
  port: number,
  init: { method?: string; path?: string; headers?: Record<string, string | string[]>; body?: Uint8Array },
) {
  const client = httpRequest({
    host: '127.0.0.1',
    port,
    method: init.method ?? 'GET',
    path: init.path ?? '/',
    headers: init.headers,
  });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    client.once('response', resolve);
    client.once('error', reject);
  });
  if (init.body !== undefined) client.end(init.body);
  else if ((init.method ?? 'GET') === 'GET' || init.method === 'HEAD') client.end();
  return { client, response };
}

async function text(message: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const kindOf = (error: unknown) => (error as ProblemError).problem.kind;

describe('createNodeListener: requests', () => {
  it('hands the body to the handler as it arrives, not after the upload ends', async () => {
    const firstChunk = deferred<Uint8Array>();
    const port = await serve(async (request) => {
      const reader = request.body!.getReader();
      const first = await reader.read();
      firstChunk.resolve(first.value!);
      let rest = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        rest += value.byteLength;
      }
      return Response.json({ first: first.value!.byteLength, rest, duplex: request.duplex });
    });
    const { client, response } = send(port, { method: 'POST', path: '/upload' });
    client.write(Buffer.from('hello'));
    // The client holds the rest back until the handler has seen the first chunk.
    expect(new TextDecoder().decode(await firstChunk.promise)).toBe('hello');
    client.end(Buffer.alloc(1000));
    expect(JSON.parse(await text(await response))).toEqual({ first: 5, rest: 1000, duplex: 'half' });
  });

  it('builds the Request from the method, target, Host and headers, never trusting the target host', async () => {
    const seen: { url: string; method: string; header: string | null }[] = [];
    const handler: WebRequestHandler = async (request) => {
      seen.push({ url: request.url, method: request.method, header: request.headers.get('x-test') });
      return new Response(null, { status: 204 });
    };
    const port = await serve(handler);
    (await send(port, { path: '/a/b?c=1', headers: { 'x-test': 'yes' } }).response).resume();
    (await send(port, { path: '//evil.example/x' }).response).resume();
    (await send(port, { path: 'http://evil.example/y?z' }).response).resume();
    (await send(port, { path: '/h', headers: { host: 'user@bad.example' } }).response).resume();
    const proxied = await serve(handler, { origin: 'https://connector.example' });
    (await send(proxied, { path: '/relay/media' }).response).resume();
    expect(seen).toEqual([
      { url: `http://127.0.0.1:${port}/a/b?c=1`, method: 'GET', header: 'yes' },
      { url: `http://127.0.0.1:${port}//evil.example/x`, method: 'GET', header: null },
      { url: `http://127.0.0.1:${port}/y?z`, method: 'GET', header: null },
      { url: 'http://localhost/h', method: 'GET', header: null },
      { url: 'https://connector.example/relay/media', method: 'GET', header: null },
    ]);
  });

  it('aborts request.signal and fails the body read when the client goes away mid-upload', async () => {
    const outcome = deferred<{ readError: unknown; reason: unknown }>();
    const reading = deferred<void>();
    const port = await serve(async (request) => {
      const reader = request.body!.getReader();
      await reader.read();
      reading.resolve();
      let readError: unknown;
      try {
        for (;;) if ((await reader.read()).done) break;
      } catch (error) {
        readError = error;
      }
      if (!request.signal.aborted) await once(request.signal, 'abort');
      outcome.resolve({ readError, reason: request.signal.reason });
      return new Response('never read');
    });
    const { client, response } = send(port, { method: 'POST', headers: { 'content-length': '100000' } });
    response.catch(() => undefined);
    client.on('error', () => undefined);
    client.write(Buffer.alloc(10));
    await reading.promise;
    client.destroy();
    const { readError, reason } = await outcome.promise;
    expect(kindOf(readError)).toBe('client_gone_during_body');
    expect(kindOf(reason)).toBe('client_gone');
  });

  it('lets the client read an early answer to an upload the handler never read', async () => {
    const port = await serve(async (request) => {
      if (request.method === 'POST') return new Response('refused', { status: 413 });
      return new Response('second');
    });
    const refused = await send(port, { method: 'POST', body: new Uint8Array(1024 * 1024) }).response;
    expect(refused.statusCode).toBe(413);
    expect(await text(refused)).toBe('refused');
    expect(await text(await send(port, {}).response)).toBe('second');
  });

  it('reads bodies whole up to maxBytes, answers a larger one body_too_large, and streams the listed media types', async () => {
    const seen: { size: number; streamed: boolean }[] = [];
    const port = await serve(
      async (request) => {
        const body = await request.arrayBuffer();
        seen.push({
          size: body.byteLength,
          streamed: request.duplex === 'half' && request.headers.has('x-s'),
        });
        return new Response('taken');
      },
      { wholeBody: { maxBytes: 10, streamedMediaTypes: ['text/event-stream'] } },
    );
    const atLimit = await send(port, { method: 'POST', body: new Uint8Array(10) }).response;
    expect(await text(atLimit)).toBe('taken');
    const over = await send(port, { method: 'POST', body: new Uint8Array(2 * 1024 * 1024) }).response;
    expect(over.statusCode).toBe(418);
    expect(await text(over)).toBe('body_too_large');
    const streamed = await send(port, {
      method: 'POST',
      headers: { 'content-type': 'Text/Event-Stream; charset=utf-8', 'x-s': '1' },
      body: new Uint8Array(1000),
    }).response;
    expect(await text(streamed)).toBe('taken');
    expect(seen).toEqual([
      { size: 10, streamed: false },
      { size: 1000, streamed: true },
    ]);
    // The refused upload was drained: the connection still serves.
    expect(await text(await send(port, { method: 'POST', body: new Uint8Array(1) }).response)).toBe('taken');
  });
});

describe('createNodeListener: responses', () => {
  it('streams the response with back-pressure and cancels it when the client goes away', async () => {
    const cancelled = deferred<unknown>();
    let pulls = 0;
    const port = await serve(async () => {
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulls += 1;
          controller.enqueue(new Uint8Array(64 * 1024));
        },
        cancel(reason) {
          cancelled.resolve(reason);
        },
      });
      return new Response(body, { headers: { 'content-type': 'application/octet-stream' } });
    });
    const message = await send(port, {}).response;
    message.pause();
    // Back-pressure: the endless body is pulled only while the socket takes it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pulls).toBeLessThan(1000);
    message.destroy();
    expect(kindOf(await cancelled.promise)).toBe('client_gone');
  });

  it('drops a client that reads nothing for drainTimeoutMs, aborting the request with slow_client', async () => {
    const reason = deferred<unknown>();
    const port = await serve(
      async (request) => {
        request.signal.addEventListener('abort', () => reason.resolve(request.signal.reason));
        return new Response(
          new ReadableStream<Uint8Array>({
            pull: (controller) => controller.enqueue(new Uint8Array(64 * 1024)),
          }),
        );
      },
      { drainTimeoutMs: 50 },
    );
    const message = await send(port, {}).response;
    message.pause();
    const dropped = await reason.promise;
    expect(kindOf(dropped)).toBe('slow_client');
    expect((dropped as ProblemError).message).toMatch(
      /^the client read nothing of \d+ queued bytes for 50 ms$/,
    );
    message.destroy();
  });

  it('writes every Set-Cookie and the status text, and no body for HEAD', async () => {
    const port = await serve(async () => {
      const headers = new Headers({ 'content-type': 'text/plain' });
      headers.append('set-cookie', 'a=1');
      headers.append('set-cookie', 'b=2');
      return new Response('body', { headers, statusText: 'Fine' });
    });
    const got = await send(port, {}).response;
    expect(got.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(got.statusMessage).toBe('Fine');
    expect(await text(got)).toBe('body');
    expect(await text(await send(port, { method: 'HEAD' }).response)).toBe('');
  });

  it('sends the headers before the first chunk only with flushHeaders', async () => {
    const late = async () =>
      new Response(new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) }));
    const flushing = await serve(late, { flushHeaders: true });
    const early = await send(flushing, {}).response;
    expect(early.statusCode).toBe(200);
    early.destroy();
    const empty = await serve(async () => new Response(''));
    const plain = await send(empty, {}).response;
    expect(plain.headers['content-length']).toBe('0');
    await text(plain);
  });

  it('answers what the handler throws and a non-Response through answerError, and reports a body failing part-way', async () => {
    const onError = vi.fn();
    const port = await serve(
      async (request) => {
        if (request.url.endsWith('/wrong')) return 'nope' as unknown as Response;
        if (request.url.endsWith('/broken')) {
          return new Response(
            new ReadableStream<Uint8Array>({
              start(controller) {
                controller.enqueue(new TextEncoder().encode('partial'));
                controller.error(new Error('disk gone'));
              },
            }),
          );
        }
        throw new Error('secret detail');
      },
      { onError },
    );
    const thrown = await send(port, { path: '/boom' }).response;
    expect([thrown.statusCode, await text(thrown)]).toEqual([500, 'thrown']);
    const wrong = await send(port, { path: '/wrong' }).response;
    expect([wrong.statusCode, await text(wrong)]).toEqual([418, 'unusable_response']);
    // The client never sees a complete answer: the connection is destroyed part-way.
    await expect(send(port, { path: '/broken' }).response.then(text)).rejects.toThrow();
    await vi.waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
    expect(onError.mock.calls[0]?.[0]).toMatchObject({ message: 'disk gone' });
  });
});
