import { describe, expect, it } from 'vitest';
import { routeByPath } from './index.js';

const answer = (name: string) => async (request: Request) =>
  new Response(`${name} ${new URL(request.url).pathname}`);

describe('routeByPath', () => {
  const node = routeByPath({
    '/bus/v1/call': answer('bus'),
    '/sync/v1/': answer('sync'),
    '/pubsub/v1/': answer('pubsub'),
    '/pubsub/v1/ws': answer('ws'),
  });
  const get = async (path: string) => {
    const response = await node(new Request(`http://node${path}`));
    return [response.status, await response.text()];
  };

  it('sends each request to the longest matching prefix', async () => {
    expect(await get('/bus/v1/call')).toEqual([200, 'bus /bus/v1/call']);
    expect(await get('/sync/v1/heads')).toEqual([200, 'sync /sync/v1/heads']);
    expect(await get('/pubsub/v1/subscribe')).toEqual([200, 'pubsub /pubsub/v1/subscribe']);
    expect(await get('/pubsub/v1/ws/topic')).toEqual([200, 'ws /pubsub/v1/ws/topic']);
  });

  it('matches a prefix without a trailing slash only as a whole path segment', async () => {
    expect((await get('/bus/v1/callx'))[0]).toBe(404);
    expect((await get('/sync/v1'))[0]).toBe(404);
  });

  it('answers 404 not_found elsewhere', async () => {
    const response = await node(new Request('http://node/nothing'));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'not_found', message: 'nothing is served at /nothing' });
  });

  it('refuses unusable routes', () => {
    expect(() => routeByPath({ bus: answer('bus') })).toThrow(
      expect.objectContaining({ code: 'invalid_wire_options' }),
    );
    expect(() => routeByPath({ '/bus': 'x' as never })).toThrow(
      expect.objectContaining({ code: 'invalid_wire_options' }),
    );
  });
});
