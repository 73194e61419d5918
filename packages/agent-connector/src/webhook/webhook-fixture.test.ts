import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DeliveryPayload } from '../contract/agent-connector.js';
import { DeliveryFailedError } from '../contract/errors.js';
import { HttpWebhookAgentConnector } from './http-webhook-agent-connector.js';

interface RequestCase {
  readonly id: string;
  readonly agent_id: string;
  readonly payload: DeliveryPayload;
  readonly hmac_secret: string | null;
  readonly body: string;
  readonly x_signature: string | null;
}

interface ReceiptCase {
  readonly id: string;
  readonly status: number;
  readonly response_body: string;
  readonly now: number;
  readonly receipt?: Record<string, unknown>;
  readonly error?: string;
  readonly cause_kind?: string;
  readonly http_status?: number;
}

type FixtureCase = (RequestCase | ReceiptCase) & { readonly tags: readonly string[] };

const fixture = JSON.parse(
  readFileSync(
    new URL('../../../conformance/fixtures/agent-connector/webhook.json', import.meta.url),
    'utf8',
  ),
) as { readonly cases: readonly FixtureCase[] };
const requestCases = fixture.cases.filter((c): c is RequestCase & FixtureCase => c.tags.includes('request'));
const receiptCases = fixture.cases.filter((c): c is ReceiptCase & FixtureCase => c.tags.includes('receipt'));

describe('webhook.json fixture', () => {
  it('has both kinds of case and unique ids', () => {
    expect(requestCases.length).toBeGreaterThan(5);
    expect(receiptCases.length).toBeGreaterThan(20);
    expect(new Set(fixture.cases.map((c) => c.id)).size).toBe(fixture.cases.length);
  });

  it.each(requestCases.map((c) => [c.id, c] as const))('request %s', async (_id, c) => {
    const sent: { url: string; init: RequestInit }[] = [];
    const connector = new HttpWebhookAgentConnector({
      agents: { [c.agent_id]: { url: 'https://agents.example/in' } },
      ...(c.hmac_secret === null ? {} : { hmac_secret: c.hmac_secret }),
      fetch: async (url, init) => {
        sent.push({ url, init });
        return new Response('{}');
      },
    });
    await connector.deliver(c.agent_id, c.payload);
    expect(sent).toHaveLength(1);
    const headers = sent[0]?.init.headers as Record<string, string>;
    expect(sent[0]?.init.body).toBe(c.body);
    expect(headers['X-Signature']).toBe(c.x_signature ?? undefined);
    expect(headers['Content-Type']).toBe('application/json');
  });

  it.each(receiptCases.map((c) => [c.id, c] as const))('receipt %s', async (_id, c) => {
    const connector = new HttpWebhookAgentConnector({
      agents: { perry: { url: 'https://agents.example/in' } },
      now: () => c.now,
      fetch: async () => new Response(c.response_body, { status: c.status }),
    });
    const payload: DeliveryPayload = {
      kind: 'augment',
      content: 'x',
      meta: { dispatch_id: 'd', sent_at: 0, origin: { skill_name: 's', trigger_kind: 'inline' } },
    };
    const outcome = connector.deliver('perry', payload);
    if (c.receipt !== undefined) {
      expect(await outcome).toStrictEqual(c.receipt);
      return;
    }
    const error: unknown = await outcome.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryFailedError);
    expect(error).toMatchObject({ code: c.error, cause_kind: c.cause_kind, http_status: c.http_status });
  });
});
