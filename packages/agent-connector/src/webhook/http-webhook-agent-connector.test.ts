import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryPayload } from '../contract/agent-connector.js';
import { assertAgentConnector, parseWakeReceipt, staticCapabilitiesOf } from '../contract/agent-connector.js';
import { DeliveryFailedError, NotImplementedError } from '../contract/errors.js';
import { HttpWebhookAgentConnector, MAX_RECEIPT_BYTES } from './http-webhook-agent-connector.js';
import type { HttpWebhookAgentConnectorOptions, WebhookFetch } from './options.js';

const NOW = 1767225600000;
const meta = {
  dispatch_id: '6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
  sent_at: NOW,
  origin: { skill_name: 'triage', trigger_kind: 'cron' },
} as const;
const payload: DeliveryPayload = { kind: 'augment', content: 'build failed', meta };
const BODY =
  '{"agent_id":"perry","kind":"augment","content":"build failed","meta":{"dispatch_id":' +
  '"6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b","sent_at":1767225600000,"origin":{"skill_name":"triage",' +
  '"trigger_kind":"cron"}}}';
const BODY_SIGNATURE = 'sha256=49ac698d053c628bb22bcb8e510ccf0cca3ff043477c6907570ba9396ae7841f';

interface SentRequest {
  readonly url: string;
  readonly method: string | undefined;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
  readonly signal: AbortSignal | undefined;
}

type Answer = Response | Error | ((signal: AbortSignal | undefined) => Promise<Response>);

/** A fake fetch that records every request and plays the given answers in turn (the last one repeats). */
function recordingFetch(...answers: Answer[]): { fetch: WebhookFetch; sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const fetch: WebhookFetch = async (url, init) => {
    const signal = init.signal ?? undefined;
    sent.push({
      url,
      method: init.method,
      headers: { ...(init.headers as Record<string, string>) },
      body: init.body as string | undefined,
      signal,
    });
    const answer = answers[Math.min(sent.length, answers.length) - 1] ?? new Response('');
    if (answer instanceof Error) throw answer;
    if (typeof answer === 'function') return answer(signal);
    return answer.clone();
  };
  return { fetch, sent };
}

function connector(
  fetch: WebhookFetch,
  options: Partial<HttpWebhookAgentConnectorOptions> = {},
): HttpWebhookAgentConnector {
  return new HttpWebhookAgentConnector({
    agents: {
      perry: { url: 'https://agents.example/perry?x=1', wake_url: 'https://agents.example/perry/wake' },
      quinn: { url: 'https://agents.example/quinn' },
    },
    now: () => NOW,
    fetch,
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

function neverAnswers(signal: AbortSignal | undefined): Promise<Response> {
  return new Promise((_resolve, reject) => {
    signal?.addEventListener('abort', () => reject(signal.reason));
  });
}

describe('HttpWebhookAgentConnector: contract surface', () => {
  it('is an AgentConnector with the reference capabilities', () => {
    const instance = connector(recordingFetch().fetch);
    assertAgentConnector(instance);
    expect(staticCapabilitiesOf(instance)).toEqual({
      connector_type: 'agent_connector',
      implementation: 'HttpWebhookAgentConnector',
      contract_version: '1.0.0',
      features: { deliver: true, wake: true, list_agents: true, health_check: true },
    });
    expect('agent_status' in instance).toBe(false);
  });

  it('lists the configured agents in order without any request', async () => {
    const { fetch, sent } = recordingFetch();
    expect(await connector(fetch).list_agents()).toEqual([{ agent_id: 'perry' }, { agent_id: 'quinn' }]);
    expect(sent).toEqual([]);
  });

  it('throws NotImplementedError from request_response', async () => {
    await expect(connector(recordingFetch().fetch).request_response()).rejects.toThrow(NotImplementedError);
  });

  it.each([
    [{ agents: [] }, 'agents'],
    [{ agents: { a: { url: '' } } }, 'agents'],
    [{ agents: { a: { url: 'u', wake_url: 3 } } }, 'agents'],
    [{ agents: {}, timeout_ms: 0 }, 'timeout_ms'],
    [{ agents: {}, timeout_ms: Number.NaN }, 'timeout_ms'],
    [{ agents: {}, authorization: 5 }, 'authorization'],
    [{ agents: {}, retry: { attempts: 0 } }, 'retry'],
    [{ agents: {}, retry: { attempts: 2, initial_delay_ms: -1 } }, 'retry'],
    [{ agents: {}, fetch: 'nope' }, 'fetch'],
  ])('refuses invalid options %j', (options, setting) => {
    const build = () => new HttpWebhookAgentConnector(options as unknown as HttpWebhookAgentConnectorOptions);
    expect(build).toThrow(expect.objectContaining({ code: 'invalid_webhook_config' }));
    expect(build).toThrow(expect.objectContaining({ path: setting }));
  });
});

describe('HttpWebhookAgentConnector.deliver', () => {
  it('POSTs the exact reference body with Content-Type, Authorization and X-Signature', async () => {
    const { fetch, sent } = recordingFetch(new Response('{"id":"m-1"}'));
    const receipt = await connector(fetch, { authorization: 'Bearer abc', hmac_secret: 's3cret' }).deliver(
      'perry',
      payload,
    );
    expect(receipt).toStrictEqual({ delivered_at: NOW, delivery_id: 'm-1' });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ url: 'https://agents.example/perry?x=1', method: 'POST', body: BODY });
    expect(sent[0]?.headers).toEqual({
      'Content-Type': 'application/json',
      Authorization: 'Bearer abc',
      'X-Signature': BODY_SIGNATURE,
    });
    expect(BODY_SIGNATURE).toBe(
      `sha256=${createHmac('sha256', 's3cret').update(BODY, 'utf8').digest('hex')}`,
    );
  });

  it('sends only Content-Type when neither auth nor secret is set, and an empty Authorization verbatim', async () => {
    const plain = recordingFetch();
    await connector(plain.fetch).deliver('perry', payload);
    expect(plain.sent[0]?.headers).toEqual({ 'Content-Type': 'application/json' });
    const empty = recordingFetch();
    await connector(empty.fetch, { authorization: '' }).deliver('perry', payload);
    expect(empty.sent[0]?.headers).toEqual({ 'Content-Type': 'application/json', Authorization: '' });
  });

  it('forwards an unknown trigger_kind in place, byte for byte, as the reference does', async () => {
    const { fetch, sent } = recordingFetch(new Response('{"id":"m-2"}'));
    const session: DeliveryPayload = {
      ...payload,
      meta: { ...meta, origin: { ...meta.origin, trigger_kind: 'session' } },
    };
    const receipt = await connector(fetch, { hmac_secret: 's3cret' }).deliver('perry', session);
    expect(receipt).toStrictEqual({ delivered_at: NOW, delivery_id: 'm-2' });
    const body = BODY.replace('"trigger_kind":"cron"', '"trigger_kind":"session"');
    expect(body).not.toBe(BODY);
    expect(sent[0]?.body).toBe(body);
    expect(sent[0]?.headers['X-Signature']).toBe(
      `sha256=${createHmac('sha256', 's3cret').update(body, 'utf8').digest('hex')}`,
    );
  });

  it('keeps the receiver session_id and warnings on the receipt', async () => {
    const { fetch } = recordingFetch(
      new Response('{"delivered_at":17,"session_id":"tab-3","warnings":["queued"],"delivery_skipped":true}'),
    );
    expect(await connector(fetch).deliver('perry', payload)).toStrictEqual({
      delivered_at: 17,
      session_id: 'tab-3',
      delivery_skipped: true,
      warnings: ['queued'],
    });
  });

  it('refuses an unknown agent (exact match only) without any request', async () => {
    const { fetch, sent } = recordingFetch();
    const error = await failureOf(connector(fetch).deliver('perry@kitchen', payload));
    expect(error).toMatchObject({
      cause_kind: 'client_validation',
      http_status: null,
      agent_id: 'perry@kitchen',
    });
    expect(error.message).toBe("Agent 'perry@kitchen' is not configured. Wired agents: perry, quinn.");
    const none = new HttpWebhookAgentConnector({ agents: {}, fetch });
    expect((await failureOf(none.deliver('x', payload))).message).toBe(
      "Agent 'x' is not configured. Wired agents: (none).",
    );
    expect(sent).toEqual([]);
  });

  it('does not treat inherited object keys as agents', async () => {
    const { fetch, sent } = recordingFetch();
    const error = await failureOf(connector(fetch).deliver('toString', payload));
    expect(error.cause_kind).toBe('client_validation');
    expect(sent).toEqual([]);
  });

  it('validates its inputs', async () => {
    const { fetch, sent } = recordingFetch();
    const instance = connector(fetch);
    await expect(instance.deliver(5 as unknown as string, payload)).rejects.toMatchObject({
      code: 'invalid_agent_address',
    });
    await expect(
      instance.deliver('perry', { kind: 'shout' } as unknown as DeliveryPayload),
    ).rejects.toMatchObject({ code: 'invalid_contract_value' });
    const numericKind = { ...payload, meta: { ...meta, origin: { skill_name: 'triage', trigger_kind: 7 } } };
    await expect(instance.deliver('perry', numericKind as unknown as DeliveryPayload)).rejects.toMatchObject({
      code: 'invalid_contract_value',
    });
    const unserialisable = { ...payload, big: 1n } as unknown as DeliveryPayload;
    expect((await failureOf(instance.deliver('perry', unserialisable))).cause_kind).toBe('client_validation');
    expect(sent).toEqual([]);
  });

  it.each([400, 401, 404, 500, 503])('throws http_status for HTTP %d', async (status) => {
    const { fetch, sent } = recordingFetch(new Response('nope', { status }));
    const error = await failureOf(connector(fetch).deliver('perry', payload));
    expect(error).toMatchObject({ cause_kind: 'http_status', http_status: status, agent_id: 'perry' });
    expect(error.message).toBe(`HTTP ${status} from https://agents.example/perry?x=1`);
    expect(sent).toHaveLength(1);
  });

  it('maps a rejected fetch to network, keeping the cause', async () => {
    const refused = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') });
    const { fetch } = recordingFetch(refused);
    const error = await failureOf(connector(fetch).deliver('perry', payload));
    expect(error).toMatchObject({
      cause_kind: 'network',
      http_status: null,
      message:
        'network error posting to https://agents.example/perry?x=1: fetch failed (connect ECONNREFUSED 127.0.0.1:1)',
    });
    expect(error.cause).toBe(refused);
    expect(error.retryable).toBe(true);
  });

  it('maps TimeoutError and AbortError rejections to timeout', async () => {
    for (const name of ['TimeoutError', 'AbortError']) {
      const { fetch } = recordingFetch(new DOMException('The operation was aborted due to timeout', name));
      const error = await failureOf(connector(fetch).deliver('perry', payload));
      expect(error).toMatchObject({
        cause_kind: 'timeout',
        message:
          'timeout error posting to https://agents.example/perry?x=1: The operation was aborted due to timeout',
      });
    }
  });

  it('aborts a request that outlives timeout_ms', async () => {
    const { fetch, sent } = recordingFetch(neverAnswers);
    const started = Date.now();
    const error = await failureOf(connector(fetch, { timeout_ms: 30 }).deliver('perry', payload));
    expect(error.cause_kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(sent[0]?.signal?.aborted).toBe(true);
  });

  it('does not retry by default', async () => {
    const { fetch, sent } = recordingFetch(new Response('', { status: 503 }), new Response(''));
    await failureOf(connector(fetch).deliver('perry', payload));
    expect(sent).toHaveLength(1);
  });

  it('retries retryable failures with the same bytes, so the same dispatch_id', async () => {
    const { fetch, sent } = recordingFetch(
      new TypeError('fetch failed'),
      new Response('', { status: 503 }),
      new Response('{"id":"ok"}'),
    );
    const receipt = await connector(fetch, {
      hmac_secret: 's3cret',
      retry: { attempts: 3, initial_delay_ms: 1 },
    }).deliver('perry', payload);
    expect(receipt.delivery_id).toBe('ok');
    expect(sent).toHaveLength(3);
    for (const request of sent) {
      expect(request.body).toBe(BODY);
      expect(request.headers['X-Signature']).toBe(BODY_SIGNATURE);
      expect(JSON.parse(request.body ?? '').meta.dispatch_id).toBe(meta.dispatch_id);
    }
  });

  it('stops retrying at attempts and never retries a non-retryable status', async () => {
    const failing = recordingFetch(new Response('', { status: 500 }));
    const error = await failureOf(
      connector(failing.fetch, { retry: { attempts: 2, initial_delay_ms: 0 } }).deliver('perry', payload),
    );
    expect(error.http_status).toBe(500);
    expect(failing.sent).toHaveLength(2);
    const badRequest = recordingFetch(new Response('', { status: 400 }), new Response(''));
    await failureOf(connector(badRequest.fetch, { retry: { attempts: 5 } }).deliver('perry', payload));
    expect(badRequest.sent).toHaveLength(1);
  });

  it('tolerates a body that fails while being read', async () => {
    const broken = new ReadableStream({
      pull(controller) {
        controller.error(new Error('socket hang up'));
      },
    });
    const { fetch } = recordingFetch(async () => new Response(broken));
    expect(await connector(fetch).deliver('perry', payload)).toStrictEqual({ delivered_at: NOW });
  });

  it('reads at most MAX_RECEIPT_BYTES of an answer and stops reading an endless one', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"id":"m-1","padding":"'));
      },
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x61));
      },
    });
    const { fetch } = recordingFetch(async () => new Response(endless));
    expect(await connector(fetch).deliver('perry', payload)).toStrictEqual({ delivered_at: NOW });
    expect(pulled).toBeLessThanOrEqual(MAX_RECEIPT_BYTES / (64 * 1024) + 2);
    const declared = recordingFetch(
      new Response('{"id":"m-2"}', { headers: { 'Content-Length': String(MAX_RECEIPT_BYTES + 1) } }),
    );
    expect(await connector(declared.fetch).deliver('perry', payload)).toStrictEqual({ delivered_at: NOW });
    const fits = recordingFetch(
      new Response(`{"id":"m-3","padding":"${'a'.repeat(MAX_RECEIPT_BYTES - 40)}"}`),
    );
    expect(await connector(fits.fetch).deliver('perry', payload)).toMatchObject({ delivery_id: 'm-3' });
  });
});

describe('HttpWebhookAgentConnector.wake', () => {
  it('POSTs to wake_url, signed and authorized, and reports woken with the session echoed', async () => {
    const { fetch, sent } = recordingFetch(new Response('ignored'));
    const receipt = await connector(fetch, { authorization: 'Bearer abc', hmac_secret: 'top-secret' }).wake(
      'perry@kitchen',
      { context: 'wake up', session_id: 'tab-3' },
    );
    expect(parseWakeReceipt(receipt)).toStrictEqual({ woken_at: NOW, woken: true, session_id: 'tab-3' });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      url: 'https://agents.example/perry/wake',
      method: 'POST',
      body: '{"agent_id":"perry@kitchen","session_id":"tab-3","context":"wake up"}',
    });
    expect(sent[0]?.headers).toEqual({
      'Content-Type': 'application/json',
      Authorization: 'Bearer abc',
      'X-Signature': 'sha256=e51e0328226b2d968f4b5bfb7c107e64cbd210dc299a07adeb7550908de1dac4',
    });
  });

  it('takes the session from the address when opts has none, and sends no session for a bare id', async () => {
    const { fetch, sent } = recordingFetch();
    const instance = connector(fetch);
    expect(await instance.wake('perry@kitchen')).toStrictEqual({
      woken_at: NOW,
      woken: true,
      session_id: 'kitchen',
    });
    expect(await instance.wake('perry', { when: 'immediate' })).toStrictEqual({ woken_at: NOW, woken: true });
    expect(sent.map((r) => r.body)).toEqual([
      '{"agent_id":"perry@kitchen","session_id":"kitchen"}',
      '{"agent_id":"perry","when":"immediate"}',
    ]);
  });

  it('without wake_url delivers the context as an augment payload and reports woken: false', async () => {
    const { fetch, sent } = recordingFetch(new Response('{"id":"m-7","warnings":["queued"]}'));
    const instance = connector(fetch, { newDispatchId: () => 'wake-dispatch', hmac_secret: 'k' });
    const receipt = await instance.wake('quinn@desk', { context: 'please look' });
    expect(parseWakeReceipt(receipt)).toStrictEqual({
      woken_at: NOW,
      woken: false,
      session_id: 'desk',
      warnings: ['no wake_url configured: context delivered instead', 'queued'],
    });
    const body =
      '{"agent_id":"quinn@desk","kind":"augment","content":"please look","meta":{"dispatch_id":"wake-dispatch",' +
      `"sent_at":${NOW},"origin":{"skill_name":"(wake)","trigger_kind":"inline"}},"session_id":"desk"}`;
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ url: 'https://agents.example/quinn', body });
    expect(sent[0]?.headers['X-Signature']).toBe(
      `sha256=${createHmac('sha256', 'k').update(body).digest('hex')}`,
    );
  });

  it('without wake_url and without context sends nothing and says so', async () => {
    const { fetch, sent } = recordingFetch();
    expect(await connector(fetch).wake('quinn')).toStrictEqual({
      woken_at: NOW,
      woken: false,
      warnings: ['no wake_url configured and no context given: nothing delivered'],
    });
    expect(sent).toEqual([]);
  });

  it('throws DeliveryFailedError for an unknown agent, an error status, a refused connection', async () => {
    const unknown = recordingFetch();
    const notConfigured = await failureOf(connector(unknown.fetch).wake('zed@x'));
    expect(notConfigured).toMatchObject({ cause_kind: 'client_validation', agent_id: 'zed@x' });
    expect(notConfigured.message).toBe("wake('zed@x'): agent not configured. Wired agents: perry, quinn.");
    expect(unknown.sent).toEqual([]);

    const status = recordingFetch(new Response('', { status: 502 }));
    expect(await failureOf(connector(status.fetch).wake('perry'))).toMatchObject({
      cause_kind: 'http_status',
      http_status: 502,
      message: "wake('perry'): HTTP 502",
    });

    const refused = recordingFetch(new TypeError('fetch failed'));
    expect((await failureOf(connector(refused.fetch).wake('perry'))).cause_kind).toBe('network');

    const degraded = recordingFetch(new Response('', { status: 500 }));
    expect((await failureOf(connector(degraded.fetch).wake('quinn', { context: 'x' }))).http_status).toBe(
      500,
    );
  });

  it('times out a wake that never answers', async () => {
    const { fetch } = recordingFetch(neverAnswers);
    expect((await failureOf(connector(fetch, { timeout_ms: 20 }).wake('perry'))).cause_kind).toBe('timeout');
  });

  it('validates opts', async () => {
    await expect(
      connector(recordingFetch().fetch).wake('perry', { when: 'later' } as unknown as { when: 'immediate' }),
    ).rejects.toMatchObject({ code: 'invalid_contract_value' });
  });
});

describe('HttpWebhookAgentConnector.health_check', () => {
  const agents = {
    a: { url: 'https://a.example/in', status_url: 'https://a.example/status' },
    b: { url: 'https://b.example/in', status_url: 'https://b.example/status' },
    c: { url: 'https://c.example/in' },
  };

  it('is true without any request when no status_url is configured', async () => {
    const { fetch, sent } = recordingFetch();
    expect(await connector(fetch).health_check()).toBe(true);
    expect(sent).toEqual([]);
  });

  it('GETs every status_url with Authorization and wants 2xx from all', async () => {
    const ok = recordingFetch(new Response(null, { status: 204 }));
    expect(await connector(ok.fetch, { agents, authorization: 'Bearer abc' }).health_check()).toBe(true);
    expect(ok.sent.map((r) => [r.method, r.url, r.headers, r.body])).toEqual([
      ['GET', 'https://a.example/status', { Authorization: 'Bearer abc' }, undefined],
      ['GET', 'https://b.example/status', { Authorization: 'Bearer abc' }, undefined],
    ]);
    const oneDown = recordingFetch(new Response(''), new Response('', { status: 301 }));
    expect(await connector(oneDown.fetch, { agents }).health_check()).toBe(false);
  });

  it('is false when a probe is refused or times out', async () => {
    expect(
      await connector(recordingFetch(new TypeError('fetch failed')).fetch, { agents }).health_check(),
    ).toBe(false);
    expect(
      await connector(recordingFetch(neverAnswers).fetch, { agents, timeout_ms: 20 }).health_check(),
    ).toBe(false);
  });
});

describe('HttpWebhookAgentConnector over real HTTP', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('puts the exact signed bytes on the wire and reads the receipt back', async () => {
    const received: {
      method: string | undefined;
      url: string | undefined;
      headers: IncomingHttpHeaders;
      body: Buffer;
    }[] = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({
          method: request.method,
          url: request.url,
          headers: request.headers,
          body: Buffer.concat(chunks),
        });
        response
          .writeHead(202, { 'content-type': 'application/json' })
          .end('{"delivery_id":"srv-1","session_id":"t"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    const { port } = server.address() as AddressInfo;
    const instance = new HttpWebhookAgentConnector({
      agents: { perry: { url: `http://127.0.0.1:${port}/hook?x=1` } },
      authorization: 'Bearer abc',
      hmac_secret: 's3cret',
      now: () => NOW,
    });
    expect(await instance.deliver('perry', payload)).toStrictEqual({
      delivered_at: NOW,
      delivery_id: 'srv-1',
      session_id: 't',
    });
    expect(received).toHaveLength(1);
    expect(received[0]?.body?.toString('utf8')).toBe(BODY);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/hook?x=1' });
    expect(received[0]?.headers).toMatchObject({
      'content-type': 'application/json',
      authorization: 'Bearer abc',
      'x-signature': BODY_SIGNATURE,
    });
  });

  it('reports a refused connection as network', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const instance = new HttpWebhookAgentConnector({
      agents: { perry: { url: `http://127.0.0.1:${port}/` } },
    });
    expect((await failureOf(instance.deliver('perry', payload))).cause_kind).toBe('network');
  });
});
