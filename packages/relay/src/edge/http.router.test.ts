import { describe, expect, it, vi } from 'vitest';
import { RelayError } from '../errors.js';
import {
  createEdgeRouter,
  EDGE_INTERNAL_ERROR_CODE,
  edgeErrorResponse,
  edgeMethodNotAllowed,
  edgeUnauthorized,
  jsonResponse,
} from './http.js';

const named = (name: string) => async (request: Request) =>
  jsonResponse(200, { name, method: request.method, path: new URL(request.url).pathname });

const call = (router: (r: Request) => Promise<Response>, method: string, path: string) =>
  router(new Request(`http://edge.test${path}`, { method }));

describe('createEdgeRouter', () => {
  const router = createEdgeRouter({
    'POST /relay/enroll': named('enroll'),
    'GET /relay/media/latest': named('latest'),
    '/relay/media': named('media-any'),
    'GET /relay/media/*': named('media-item'),
    'DELETE /relay/media/*': named('media-delete'),
  });

  it('dispatches by exact path and method', async () => {
    await expect((await call(router, 'POST', '/relay/enroll')).json()).resolves.toMatchObject({
      name: 'enroll',
    });
    await expect((await call(router, 'PUT', '/relay/media')).json()).resolves.toMatchObject({
      name: 'media-any',
    });
    await expect((await call(router, 'GET', '/relay/media/abc')).json()).resolves.toMatchObject({
      name: 'media-item',
      path: '/relay/media/abc',
    });
  });

  it('prefers a literal segment to a wildcard', async () => {
    await expect((await call(router, 'GET', '/relay/media/latest')).json()).resolves.toMatchObject({
      name: 'latest',
    });
    await expect((await call(router, 'DELETE', '/relay/media/latest')).json()).resolves.toMatchObject({
      name: 'media-delete',
    });
  });

  it('answers an unknown path 404 JSON, with no prefix or trailing-slash matching', async () => {
    for (const path of ['/relay', '/relay/enroll/', '/relay/media/a/b', '/relay/media/', '/other']) {
      const response = await call(router, 'POST', path);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      await expect(response.json()).resolves.toMatchObject({ error: 'not_found' });
    }
  });

  it('answers a known path with another method 405 with Allow', async () => {
    const response = await call(router, 'GET', '/relay/enroll');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    await expect(response.json()).resolves.toMatchObject({ error: 'method_not_allowed' });
    const item = await call(router, 'POST', '/relay/media/x');
    expect(item.headers.get('allow')).toBe('GET, HEAD, DELETE');
  });

  it('answers HEAD with a GET route, without a body', async () => {
    const response = await call(router, 'HEAD', '/relay/media/abc');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.body).toBeNull();
  });

  it('answers an edge HTTP refusal of a handler with its status and anything else with a bare 500 and onError', async () => {
    const onError = vi.fn();
    const failing = createEdgeRouter(
      {
        'POST /big': async () => {
          throw new RelayError('edge_http_payload_too_large', 'the request body exceeds 10 bytes', {
            path: 'body',
            details: { maxBytes: 10 },
          });
        },
        'POST /boom': async () => {
          throw new Error('database password is hunter2');
        },
        'POST /wrong': async () => 'not a response' as unknown as Response,
      },
      { onError },
    );
    const big = await call(failing, 'POST', '/big');
    expect(big.status).toBe(413);
    const boom = await call(failing, 'POST', '/boom');
    expect(boom.status).toBe(500);
    const text = await boom.text();
    expect(JSON.parse(text)).toEqual({ error: EDGE_INTERNAL_ERROR_CODE, message: 'internal error' });
    expect(text).not.toContain('hunter2');
    expect((await call(failing, 'POST', '/wrong')).status).toBe(500);
    expect(onError).toHaveBeenCalledTimes(2);
    expect(onError.mock.calls[1]?.[0]).toMatchObject({ code: 'edge_http_invalid_argument' });
  });

  it.each([
    ['a path without /', 'GET relay'],
    ['an empty segment', 'GET /relay//media'],
    ['a query', 'GET /relay?x'],
    ['a bad method', 'G(T /relay'],
  ])('refuses a route key with %s', (_name, key) => {
    expect(() => createEdgeRouter({ [key]: named('x') })).toThrow(
      expect.objectContaining({ code: 'edge_http_invalid_argument' }),
    );
  });

  it('refuses a non-function handler', () => {
    expect(() => createEdgeRouter({ 'GET /a': 'x' as unknown as () => Promise<Response> })).toThrow(
      expect.objectContaining({ code: 'edge_http_invalid_argument' }),
    );
  });
});

describe('edgeErrorResponse and jsonResponse', () => {
  it('answers an expired token 401 with error expired and a Bearer challenge', async () => {
    const response = edgeErrorResponse(edgeUnauthorized('expired', 'exp 10 < now 20'));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    const body = await response.json();
    expect(body).toEqual({ error: 'expired', message: 'the bearer token has expired' });
  });

  it('carries Allow on a 405', () => {
    expect(edgeErrorResponse(edgeMethodNotAllowed('PUT', ['GET', 'HEAD'])).headers.get('allow')).toBe(
      'GET, HEAD',
    );
  });

  it('serialises JSON with no-store and nosniff, and refuses what has no JSON form', async () => {
    const response = jsonResponse(201, { a: 1 }, { headers: { 'x-extra': 'y' } });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-extra')).toBe('y');
    await expect(response.json()).resolves.toEqual({ a: 1 });
    expect(() => jsonResponse(200, undefined)).toThrow(
      expect.objectContaining({ code: 'edge_http_invalid_argument' }),
    );
    expect(() => jsonResponse(200, { n: 1n })).toThrow(
      expect.objectContaining({ code: 'edge_http_invalid_argument' }),
    );
    expect(() => jsonResponse(99, {})).toThrow(
      expect.objectContaining({ code: 'edge_http_invalid_argument' }),
    );
  });
});
