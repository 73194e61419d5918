import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RelayError } from '../errors.js';
import { deferred } from '../internal.js';
import { type EdgeHandler, type NodeListenerOptions, toNodeListener } from './http.js';

const servers: Server[] = [];

/** The refusal `limitedRequestBody` throws past `maxBytes`. */
const tooLarge = (maxBytes: number) =>
  new RelayError('edge_http_payload_too_large', `the request body exceeds ${maxBytes} bytes`, {
    path: 'body',
    details: { maxBytes },
  });

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: EdgeHandler, options?: NodeListenerOptions): Promise<number> {
  const server = createServer(toNodeListener(handler, options));
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

describe('toNodeListener', () => {
  it('builds request URLs on the origin option, with the Host header otherwise', async () => {
    const seen: string[] = [];
    const handler: EdgeHandler = async (request) => {
      seen.push(request.url);
      return new Response(null, { status: 204 });
    };
    const port = await serve(handler);
    (await send(port, { path: '/a?b=1' }).response).resume();
    const proxied = await serve(handler, { origin: 'https://connector.example/ignored' });
    (await send(proxied, { path: '/relay/media' }).response).resume();
    expect(seen).toEqual([`http://127.0.0.1:${port}/a?b=1`, 'https://connector.example/relay/media']);
  });

  it('aborts request.signal and fails the body read with edge_http_request_aborted when the client goes away mid-upload', async () => {
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
    expect(readError).toMatchObject({ code: 'edge_http_request_aborted', path: 'body' });
    expect(reason).toMatchObject({ code: 'edge_http_request_aborted', path: '' });
  });

  it('answers an edge HTTP refusal with its status, anything else with a bare 500 reported to onError', async () => {
    const onError = vi.fn();
    const port = await serve(
      async (request) => {
        if (request.url.endsWith('/big')) throw tooLarge(1);
        if (request.url.endsWith('/wrong')) return 'nope' as unknown as Response;
        throw new Error('secret detail');
      },
      { onError },
    );
    const big = await send(port, { path: '/big' }).response;
    expect(big.statusCode).toBe(413);
    expect(JSON.parse(await text(big))).toMatchObject({ error: 'payload_too_large' });
    const boom = await send(port, { path: '/boom' }).response;
    expect(boom.statusCode).toBe(500);
    expect(await text(boom)).toBe('{"error":"internal_error","message":"internal error"}');
    const wrong = await send(port, { path: '/wrong' }).response;
    expect(wrong.statusCode).toBe(500);
    await text(wrong);
    expect(onError).toHaveBeenCalledTimes(2);
    expect(onError.mock.calls[1]?.[0]).toMatchObject({ code: 'edge_http_invalid_argument' });
  });

  it('answers an edge refusal to an upload the handler never read, and the connection still serves', async () => {
    const port = await serve(async (request) => {
      if (request.method === 'POST') throw tooLarge(0);
      return new Response('second');
    });
    const { response } = send(port, { method: 'POST', body: new Uint8Array(1024 * 1024) });
    const refused = await response;
    expect(refused.statusCode).toBe(413);
    expect(JSON.parse(await text(refused))).toEqual({
      error: 'payload_too_large',
      message: 'the request body exceeds 0 bytes',
    });
    const second = await send(port, {}).response;
    expect(await text(second)).toBe('second');
  });

  it('refuses an unusable handler or origin', () => {
    expect(() => toNodeListener('x' as unknown as EdgeHandler)).toThrow(
      expect.objectContaining({ code: 'edge_http_invalid_argument' }),
    );
    expect(() => toNodeListener(async () => new Response(), { origin: 'ftp://x' })).toThrow(
      expect.objectContaining({ code: 'edge_http_invalid_argument' }),
    );
    expect(() => toNodeListener(async () => new Response(), { origin: 'not a url' })).toThrow(/not a URL/);
  });
});
