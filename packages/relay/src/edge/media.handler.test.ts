import { describe, expect, it, vi } from 'vitest';
import { createMediaHandler } from './media.js';
import { authenticate, bearer, GATEWAY_B, SECRET_B, TENANT_A } from './media.test-support.js';
import { InMemoryMediaStore, type MediaStore } from './media-store.js';

const BASE = 'http://connector.test';

function setup(overrides: Partial<Parameters<typeof createMediaHandler>[0]> = {}) {
  const store = new InMemoryMediaStore();
  const handler = createMediaHandler({ authenticate, store, ...overrides });
  return { store, handler };
}

function upload(
  body: Uint8Array | ReadableStream<Uint8Array> | null,
  headers: Record<string, string> = {},
  path = '/relay/media',
) {
  return new Request(`${BASE}${path}`, {
    method: 'POST',
    body,
    headers: { ...bearer(), 'content-type': 'image/png', ...headers },
    duplex: 'half',
  } as RequestInit);
}

function download(id: string, headers: Record<string, string> = bearer(), method = 'GET') {
  return new Request(`${BASE}/relay/media/${id}`, { method, headers });
}

describe('createMediaHandler', () => {
  it('stores an upload and answers {id, size}; the bytes come back with their headers', async () => {
    const { handler } = setup();
    const response = await handler(upload(new Uint8Array([1, 2, 3]), { 'x-media-filename': 'café.png' }));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: string; size: number };
    expect(Object.keys(body).sort()).toEqual(['id', 'size']);
    expect(body.size).toBe(3);
    expect(body.id).toMatch(/^[0-9a-f]{32}$/);
    const got = await handler(download(body.id));
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('content-length')).toBe('3');
    expect(got.headers.get('content-disposition')).toBe(
      `attachment; filename="caf_.png"; filename*=UTF-8''caf%C3%A9.png`,
    );
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    const head = await handler(download(body.id, bearer(), 'HEAD'));
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('3');
    expect(head.body).toBeNull();
  });

  it('keeps only the base name of X-Media-Filename and a default type when none is valid', async () => {
    const { handler, store } = setup();
    const response = await handler(
      upload(new Uint8Array([1]), { 'x-media-filename': '../../etc/passwd', 'content-type': 'nonsense' }),
    );
    const { id } = (await response.json()) as { id: string };
    expect(await store.get(id, TENANT_A)).toMatchObject({
      filename: 'passwd',
      contentType: 'application/octet-stream',
    });
  });

  it('refuses an X-Media-Filename over 255 characters', async () => {
    const { handler } = setup();
    const ok = await handler(upload(new Uint8Array([1]), { 'x-media-filename': `${'a'.repeat(251)}.png` }));
    expect(ok.status).toBe(200);
    const response = await handler(
      upload(new Uint8Array([1]), { 'x-media-filename': `${'a'.repeat(252)}.png` }),
    );
    expect(response.status).toBe(400);
    await expect(response.json()).resolves.toMatchObject({ error: 'filename_too_long' });
  });

  it('refuses an empty upload, with or without Content-Length, and keeps nothing', async () => {
    const deleted = vi.fn();
    const inner = new InMemoryMediaStore();
    const store: MediaStore = {
      put: (body, options) => inner.put(body, options),
      get: (id, tenant) => inner.get(id, tenant),
      delete: (id, tenant) => {
        deleted(id);
        return inner.delete(id, tenant);
      },
    };
    const { handler } = setup({ store });
    for (const request of [
      upload(new Uint8Array(0), { 'content-length': '0' }),
      upload(null),
      upload(new ReadableStream({ start: (c) => c.close() })),
    ]) {
      const response = await handler(request);
      expect(response.status).toBe(400);
      await expect(response.json()).resolves.toMatchObject({ error: 'empty_body' });
    }
    for (const [id] of deleted.mock.calls) expect(await inner.get(id as string, TENANT_A)).toBeNull();
  });

  it('refuses a Content-Length over 25 MiB before reading, and a longer body at the first byte over', async () => {
    const { handler } = setup();
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled += 1;
          controller.enqueue(new Uint8Array(1));
        },
      },
      { highWaterMark: 0 },
    );
    const declared = await handler(upload(body, { 'content-length': '26214401' }));
    expect(declared.status).toBe(413);
    await expect(declared.json()).resolves.toMatchObject({ error: 'payload_too_large' });
    expect(pulled).toBe(0);

    let sent = 0;
    const endless = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          sent += 1024 * 1024;
          controller.enqueue(new Uint8Array(1024 * 1024));
        },
      },
      { highWaterMark: 0 },
    );
    const streamed = await handler(upload(endless));
    expect(streamed.status).toBe(413);
    // The 26th MiB is the chunk that passes the limit; nothing after it is pulled.
    expect(sent).toBe(26 * 1024 * 1024);
  });

  it('requires a valid bearer for upload and download', async () => {
    const { handler } = setup();
    const stored = (await (await handler(upload(new Uint8Array([1])))).json()) as { id: string };
    const refused: Record<string, string>[] = [
      {},
      { authorization: 'Basic abc' },
      { authorization: 'Bearer not-a-token' },
      bearer('gw-unknown'),
    ];
    for (const headers of refused) {
      const up = await handler(upload(new Uint8Array([1]), { authorization: headers.authorization ?? '' }));
      expect(up.status).toBe(401);
      expect(up.headers.get('www-authenticate')).toBe('Bearer');
      await expect(up.json()).resolves.toMatchObject({ error: 'unauthorized' });
      expect((await handler(download(stored.id, headers))).status).toBe(401);
    }
  });

  it('answers an expired token 401 expired, judged by its clock and skew', async () => {
    const nowMs = 1_750_000_000_000;
    const stale = bearer(undefined, undefined, 10, nowMs / 1000 - 11);
    const { handler } = setup({ now: () => nowMs });
    const response = await handler(upload(new Uint8Array([1]), stale));
    expect(response.status).toBe(401);
    await expect(response.json()).resolves.toEqual({
      error: 'expired',
      message: 'the bearer token has expired',
    });
    const lenient = setup({ now: () => nowMs, skewSeconds: 1 });
    expect((await lenient.handler(upload(new Uint8Array([1]), stale))).status).toBe(200);
  });

  it('answers 404 for an unknown, malformed or other-tenant id', async () => {
    const { handler } = setup();
    const { id } = (await (await handler(upload(new Uint8Array([1])))).json()) as { id: string };
    expect((await handler(download('0'.repeat(32)))).status).toBe(404);
    expect((await handler(download('..%2F..%2Fetc'))).status).toBe(404);
    const foreign = await handler(download(id, bearer(GATEWAY_B, SECRET_B)));
    expect(foreign.status).toBe(404);
    await expect(foreign.json()).resolves.toMatchObject({ error: 'not_found' });
    expect((await handler(new Request(`${BASE}/relay/media/a/b`, { headers: bearer() }))).status).toBe(404);
    expect((await handler(new Request(`${BASE}/elsewhere`, { headers: bearer() }))).status).toBe(404);
  });

  it('answers a wrong method 405 with Allow, before authentication', async () => {
    const { handler } = setup();
    const get = await handler(new Request(`${BASE}/relay/media`));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const post = await handler(new Request(`${BASE}/relay/media/${'0'.repeat(32)}`, { method: 'POST' }));
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('serves under another path prefix', async () => {
    const { handler } = setup({ path: '/connector/relay/media' });
    const response = await handler(upload(new Uint8Array([1]), {}, '/connector/relay/media'));
    expect(response.status).toBe(200);
  });

  it('rethrows a failing authenticate for the router to answer 500', async () => {
    const { handler } = setup({
      authenticate: () => {
        throw new Error('database down');
      },
    });
    await expect(handler(upload(new Uint8Array([1])))).rejects.toThrow(
      expect.objectContaining({ code: 'relay_server_callback_failed' }),
    );
  });

  it('refuses unusable options', () => {
    const store = new InMemoryMediaStore();
    expect(() => createMediaHandler({ authenticate, store: {} as MediaStore })).toThrow(
      expect.objectContaining({ code: 'media_invalid_argument' }),
    );
    expect(() => createMediaHandler({ authenticate: 'x' as unknown as typeof authenticate, store })).toThrow(
      expect.objectContaining({ code: 'media_invalid_argument' }),
    );
    expect(() => createMediaHandler({ authenticate, store, skewSeconds: -1 })).toThrow(
      expect.objectContaining({ code: 'media_invalid_argument' }),
    );
    expect(() => createMediaHandler({ authenticate, store, path: 'relay/media' })).toThrow(
      expect.objectContaining({ code: 'media_invalid_argument' }),
    );
  });
});
