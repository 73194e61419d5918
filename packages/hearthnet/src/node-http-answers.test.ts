// What `toNodeListener` itself answers, in HearthNet's words (contract §5.4 bodies): a body over
// `maxBodyBytes` is 413 `bad_request`, a handler that throws or resolves to no Response is 500
// `internal_error` without its message, and a client that goes away aborts the handler with an AbortError.
// The bridge's generic behaviour is tested in @agentwire/internal (node-listener.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { type ServedBusHandler, serveBusHandler } from './node-http.js';

const running: ServedBusHandler[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((served) => served.close()));
});

async function serve(
  handler: (request: Request) => Promise<Response>,
  maxBodyBytes?: number,
): Promise<string> {
  const served = await serveBusHandler(handler, maxBodyBytes === undefined ? {} : { maxBodyBytes });
  running.push(served);
  return served.url;
}

describe('toNodeListener answers', () => {
  it('answers a JSON body over maxBodyBytes 413 bad_request without running the handler; one at the limit is read whole', async () => {
    const sizes: number[] = [];
    const url = await serve(async (request) => {
      sizes.push((await request.arrayBuffer()).byteLength);
      return new Response('ok');
    }, 16);
    const post = (size: number) =>
      fetch(`${url}/bus/v1/call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new Uint8Array(size),
      });
    const refused = await post(17);
    expect(refused.status).toBe(413);
    expect(refused.headers.get('content-type')).toBe('application/json');
    expect(await refused.text()).toBe(
      '{"error":"bad_request","message":"the request body exceeds 16 bytes"}',
    );
    expect(await (await post(16)).text()).toBe('ok');
    expect(sizes).toEqual([16]);
  });

  it('passes a text/event-stream body through past maxBodyBytes (a client stream has no total limit)', async () => {
    const url = await serve(
      async (request) => new Response(String((await request.arrayBuffer()).byteLength)),
      16,
    );
    const response = await fetch(`${url}/bus/v1/call`, {
      method: 'POST',
      headers: { 'content-type': 'text/event-stream' },
      body: new Uint8Array(100_000),
    });
    expect(await response.text()).toBe('100000');
  });

  it('answers a handler that throws, or resolves to something other than a Response, 500 internal_error', async () => {
    const url = await serve(async (request) => {
      if (request.url.endsWith('/wrong')) return 'nope' as unknown as Response;
      throw new Error('secret detail');
    });
    for (const path of ['/boom', '/wrong']) {
      const response = await fetch(`${url}${path}`);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: 'internal_error', message: expect.any(String) });
    }
    expect(await (await fetch(`${url}/boom`)).text()).not.toContain('secret detail');
  });

  it('aborts the request signal with an AbortError when the client goes away', async () => {
    let abortReason: (reason: unknown) => void = () => undefined;
    const reason = new Promise<unknown>((resolve) => {
      abortReason = resolve;
    });
    const url = await serve(async (request) => {
      request.signal.addEventListener('abort', () => abortReason(request.signal.reason));
      return new Response(new ReadableStream({ pull: () => new Promise(() => {}) }));
    });
    const client = new AbortController();
    expect((await fetch(url, { signal: client.signal })).status).toBe(200);
    client.abort();
    expect(await reason).toMatchObject({ name: 'AbortError' });
  });
});
