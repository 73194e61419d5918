import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryPayload } from '../contract/agent-connector.js';
import { DeliveryFailedError } from '../contract/errors.js';
import { HttpWebhookAgentConnector, MAX_REDIRECTS, redactUrl } from './http-webhook-agent-connector.js';
import type { HttpWebhookAgentConnectorOptions, WebhookFetch } from './options.js';

const NOW = 1767225600000;
const payload: DeliveryPayload = {
  kind: 'augment',
  content: 'build failed',
  meta: { dispatch_id: 'd-1', sent_at: NOW, origin: { skill_name: 'triage', trigger_kind: 'cron' } },
};
const PASSWORD = 'pw-7f3a9c';
const LOCATION_PASSWORD = 'loc-pw-51e2';

interface Received {
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

interface TestServer {
  readonly origin: string;
  readonly port: number;
  readonly received: Received[];
}

const servers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

/** A real HTTP server on 127.0.0.1 that records every request and answers with `answer`. */
async function serve(answer: (path: string, response: ServerResponse) => void): Promise<TestServer> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method,
        path: request.url,
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      answer(request.url ?? '', response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(() => new Promise((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, port, received };
}

/** A server that answers every request with `status` and `Location: location` (when given). */
function redirecting(status: number, location?: string): Promise<TestServer> {
  return serve((_path, response) => {
    response.writeHead(status, location === undefined ? {} : { Location: location }).end('moved');
  });
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function connectorFor(
  url: string,
  options: Partial<HttpWebhookAgentConnectorOptions> = {},
): HttpWebhookAgentConnector {
  return new HttpWebhookAgentConnector({
    agents: { perry: { url, wake_url: url, status_url: url } },
    authorization: 'Bearer abc',
    hmac_secret: 's3cret',
    now: () => NOW,
    ...options,
  });
}

async function failureOf(promise: Promise<unknown>): Promise<DeliveryFailedError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeliveryFailedError);
  return error as DeliveryFailedError;
}

/**
 * The global `fetch`, made to accept `http://user:pass@host/…` as a client would: the userinfo becomes an
 * `Authorization: Basic` header (Node's fetch refuses URLs with credentials). A rejection quotes the URL it
 * was given, as some fetch implementations do.
 */
const basicAuthFetch: WebhookFetch = async (url, init) => {
  const target = new URL(url);
  const basic = Buffer.from(
    `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`,
  ).toString('base64');
  target.username = '';
  target.password = '';
  const headers = { ...(init.headers as Record<string, string>), Authorization: `Basic ${basic}` };
  try {
    return await fetch(target.href, { ...init, headers });
  } catch (error) {
    throw new TypeError(`fetch ${url} failed`, { cause: error });
  }
};

/** Everything a log line or a report could show of `error`: its text, its inspection, its cause chain. */
function renderings(error: unknown): string[] {
  const texts = [String(error), inspect(error, { depth: 10 }), JSON.stringify(error) ?? ''];
  let link: unknown = error;
  for (let depth = 0; link !== undefined && link !== null && depth < 20; depth += 1) {
    texts.push(String(link), inspect(link, { depth: 10 }));
    if (link instanceof Error) texts.push(link.message, link.stack ?? '');
    link = (link as { readonly cause?: unknown }).cause;
  }
  return texts;
}

function expectNoSecret(error: unknown, ...secrets: string[]): void {
  for (const text of renderings(error)) {
    for (const secret of secrets) expect(text).not.toContain(secret);
  }
}

describe('HttpWebhookAgentConnector redirects', () => {
  it.each([307, 308])('does not follow a %d to another origin: it receives nothing', async (status) => {
    const other = await serve((_path, response) => response.writeHead(200).end('{"id":"stolen"}'));
    const agent = await redirecting(status, `${other.origin}/steal`);
    const connector = connectorFor(`${agent.origin}/hook`, { retry: { attempts: 3, initial_delay_ms: 0 } });

    const delivery = await failureOf(connector.deliver('perry', payload));
    expect(delivery).toMatchObject({ cause_kind: 'http_status', http_status: status, retryable: false });
    expect(delivery.message).toBe(
      `HTTP ${status} from ${agent.origin}/hook: redirect to ${other.origin}/steal not followed (another origin)`,
    );
    const wake = await failureOf(connector.wake('perry', { context: 'wake up' }));
    expect(wake).toMatchObject({ cause_kind: 'http_status', http_status: status });
    expect(wake.message).toBe(
      `wake('perry'): HTTP ${status} from ${agent.origin}/hook: redirect to ${other.origin}/steal not followed (another origin)`,
    );
    expect(await connector.health_check()).toBe(false);

    expect(other.received).toEqual([]);
    expect(agent.received.map((r) => r.method)).toEqual(['POST', 'POST', 'GET']);
  });

  it.each([307, 308])(
    'follows a %d to the same origin with POST, the same body bytes and X-Signature, and reads the final receipt',
    async (status) => {
      const agent = await serve((path, response) => {
        if (path === '/hook') response.writeHead(status, { Location: '/moved?y=2' }).end();
        else response.writeHead(202).end('{"delivery_id":"final-1","session_id":"t"}');
      });
      const connector = connectorFor(`${agent.origin}/hook`);

      expect(await connector.deliver('perry', payload)).toStrictEqual({
        delivered_at: NOW,
        delivery_id: 'final-1',
        session_id: 't',
      });
      expect(agent.received.map((r) => [r.method, r.path])).toEqual([
        ['POST', '/hook'],
        ['POST', '/moved?y=2'],
      ]);
      const [first, second] = agent.received as [Received, Received];
      expect(first.body.length).toBeGreaterThan(0);
      expect(second.body.equals(first.body)).toBe(true);
      expect(second.headers['x-signature']).toBe(first.headers['x-signature']);
      expect(second.headers.authorization).toBe('Bearer abc');
      expect(second.headers['content-type']).toBe('application/json');
    },
  );

  it(`follows at most ${MAX_REDIRECTS} same-origin redirects in a row`, async () => {
    const hops = (path: string) => Number(new URL(path, 'http://x').searchParams.get('n') ?? '0');
    const chain = async (length: number) =>
      serve((path, response) => {
        const n = hops(path);
        if (n < length) response.writeHead(307, { Location: `/hook?n=${n + 1}` }).end();
        else response.writeHead(200).end(`{"id":"after-${n}"}`);
      });
    const fits = await chain(MAX_REDIRECTS);
    expect((await connectorFor(`${fits.origin}/hook`).deliver('perry', payload)).delivery_id).toBe(
      `after-${MAX_REDIRECTS}`,
    );
    const tooLong = await chain(MAX_REDIRECTS + 1);
    const error = await failureOf(connectorFor(`${tooLong.origin}/hook`).deliver('perry', payload));
    expect(error.message).toContain(`(more than ${MAX_REDIRECTS} redirects)`);
    expect(tooLong.received).toHaveLength(MAX_REDIRECTS + 1);
  });

  it.each([301, 302, 303])(
    'refuses a %d, even to the same origin, instead of losing the body',
    async (status) => {
      const agent = await serve((path, response) => {
        if (path === '/hook') response.writeHead(status, { Location: '/moved' }).end();
        else response.writeHead(200).end('{"id":"empty-get"}');
      });
      const connector = connectorFor(`${agent.origin}/hook`);
      const error = await failureOf(connector.deliver('perry', payload));
      expect(error).toMatchObject({ cause_kind: 'http_status', http_status: status, retryable: false });
      expect(error.message).toBe(
        `HTTP ${status} from ${agent.origin}/hook: redirect to ${agent.origin}/moved not followed ` +
          '(only 307 and 308 keep the method and body)',
      );
      expect((await failureOf(connector.wake('perry'))).http_status).toBe(status);
      expect(agent.received.map((r) => [r.method, r.path])).toEqual([
        ['POST', '/hook'],
        ['POST', '/hook'],
      ]);
    },
  );

  it('refuses a redirect loop after the cap', async () => {
    const agent = await redirecting(308, '/hook');
    const error = await failureOf(connectorFor(`${agent.origin}/hook`).deliver('perry', payload));
    expect(error).toMatchObject({ cause_kind: 'http_status', http_status: 308, retryable: false });
    expect(error.message).toBe(
      `HTTP 308 from ${agent.origin}/hook: redirect to ${agent.origin}/hook not followed ` +
        `(more than ${MAX_REDIRECTS} redirects)`,
    );
    expect(agent.received).toHaveLength(MAX_REDIRECTS + 1);
    expect(new Set(agent.received.map((r) => r.body.toString('utf8'))).size).toBe(1);
  });

  it.each([
    ['no Location', undefined, 'redirect without a Location'],
    ['an invalid Location', 'http://[::1/x', 'redirect to http://[::1/x not followed (not a URL)'],
  ])('refuses a 307 with %s', async (_label, location, words) => {
    const agent = await redirecting(307, location);
    const error = await failureOf(connectorFor(`${agent.origin}/hook`).deliver('perry', payload));
    expect(error).toMatchObject({ cause_kind: 'http_status', http_status: 307 });
    expect(error.message).toBe(`HTTP 307 from ${agent.origin}/hook: ${words}`);
    expect(agent.received).toHaveLength(1);
  });
});

describe('HttpWebhookAgentConnector: credentials in URLs', () => {
  it('keeps them out of a refused connection failure, with Node fetch and with a fetch that quotes the URL', async () => {
    const url = `http://perry:${PASSWORD}@127.0.0.1:${await closedPort()}/hook`;
    for (const options of [{}, { fetch: basicAuthFetch }]) {
      const connector = connectorFor(url, options);
      const error = await failureOf(connector.deliver('perry', payload));
      expect(error.cause_kind).toBe('network');
      expect(error.cause).toBeInstanceOf(Error);
      expectNoSecret(error, PASSWORD);
      expectNoSecret(await failureOf(connector.wake('perry')), PASSWORD);
      expect(inspect(connector, { depth: 10 })).not.toContain(PASSWORD);
    }
  });

  it('keeps them out of an error status failure', async () => {
    const agent = await serve((_path, response) => response.writeHead(500).end());
    const url = `http://perry:${PASSWORD}@127.0.0.1:${agent.port}/hook`;
    const error = await failureOf(connectorFor(url, { fetch: basicAuthFetch }).deliver('perry', payload));
    expect(error).toMatchObject({ cause_kind: 'http_status', http_status: 500 });
    expect(error.message).toBe(`HTTP 500 from http://***@127.0.0.1:${agent.port}/hook`);
    expectNoSecret(error, PASSWORD);
    expect(agent.received[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from(`perry:${PASSWORD}`).toString('base64')}`,
    );
  });

  it("keeps them, and the Location's own, out of a redirect failure", async () => {
    const other = await serve((_path, response) => response.writeHead(200).end());
    const agent = await redirecting(307, `http://mallory:${LOCATION_PASSWORD}@127.0.0.1:${other.port}/x`);
    const url = `http://perry:${PASSWORD}@127.0.0.1:${agent.port}/hook`;
    const error = await failureOf(connectorFor(url, { fetch: basicAuthFetch }).deliver('perry', payload));
    expect(error).toMatchObject({ cause_kind: 'http_status', http_status: 307 });
    expect(error.message).toBe(
      `HTTP 307 from http://***@127.0.0.1:${agent.port}/hook: ` +
        `redirect to http://***@127.0.0.1:${other.port}/x not followed (another origin)`,
    );
    expectNoSecret(error, PASSWORD, LOCATION_PASSWORD, 'mallory');
    expect(other.received).toEqual([]);
  });
});

describe('redactUrl', () => {
  it.each([
    ['https://agents.example/perry?x=1', 'https://agents.example/perry?x=1'],
    ['https://user:pw@agents.example/perry?x=1#f', 'https://***@agents.example/perry?x=1#f'],
    ['https://token@agents.example/', 'https://***@agents.example/'],
    ['http://u:p@ss@agents.example/a@b', 'http://***@agents.example/a@b'],
    ['http:user:pw@agents.example', 'http://***@agents.example/'],
    ['http://u:pw@agents.example:99999/', 'http://***@agents.example:99999/'],
    ['not a url', 'not a url'],
  ])('%s → %s', (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });
});
