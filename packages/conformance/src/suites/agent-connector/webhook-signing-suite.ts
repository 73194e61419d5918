import { webhookSignature } from '@agentwire/agent-connector/webhook';
import { assertTrue, fail } from '../../assert.js';
import type { CapabilityNeed, ConformanceCase, ConformanceSuite } from '../../suite.js';
import { augmentPayload, minimalMeta } from './agent-connector-suite.js';

/** Options of {@link webhookSigningSuite}: a live webhook agent and the HMAC key it checks. */
export interface WebhookSigningSuiteOptions {
  /** The agent's delivery URL (what `deliver()` POSTs to). */
  readonly url: string;
  /** The agent id the deliveries are addressed to. */
  readonly agentId: string;
  /** The agent's HMAC key; without it the cases are skipped (capability `hmac-secret`). */
  readonly secret?: string;
  /** The `fetch` to call; the global one by default. */
  readonly fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

/** What the cases of {@link webhookSigningSuite} need. */
export interface WebhookSigningContext {
  readonly url: string;
  readonly agentId: string;
  readonly secret: string;
  readonly fetch: (url: string, init: RequestInit) => Promise<Response>;
}

const SUITE_NAME = 'agent-connector.webhook-signing';
const VERSION = '1.0.0';

const NEEDS: Readonly<Record<string, CapabilityNeed>> = {
  'hmac-secret': { provide: "the agent's HMAC key (--secret S on the command line)" },
};

/** A delivery body as the bundled connector sends it, fresh per request. */
function deliveryBody(agentId: string): string {
  return JSON.stringify({ agent_id: agentId, ...augmentPayload(minimalMeta('signing')) });
}

async function post(
  ctx: WebhookSigningContext,
  body: string,
  signature: string | undefined,
): Promise<number> {
  const response = await ctx.fetch(ctx.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(signature === undefined ? {} : { 'X-Signature': signature }),
    },
    body,
    signal: AbortSignal.timeout(5000),
  });
  await response.body?.cancel();
  return response.status;
}

/** Fails unless the agent refused the request with a 4xx. */
function assertRefused(status: number, what: string): void {
  if (status >= 200 && status < 300) fail(`the agent accepted ${what} (HTTP ${status}); it must refuse it`);
  assertTrue(
    status >= 400 && status < 500,
    `the agent answered ${what} with HTTP ${status}, not a 4xx refusal`,
  );
}

const cases: ConformanceCase<WebhookSigningContext>[] = [
  {
    id: `${SUITE_NAME}.signed-accepted`,
    title: 'a delivery signed with the shared key is accepted (2xx)',
    section: 'AgentConnector v1.0 §HttpWebhookAgentConnector (X-Signature)',
    level: 'required',
    requires: 'hmac-secret',
    since: VERSION,
    run: async (ctx) => {
      const body = deliveryBody(ctx.agentId);
      const status = await post(ctx, body, webhookSignature(ctx.secret, body));
      assertTrue(
        status >= 200 && status < 300,
        `the agent answered a correctly signed delivery with HTTP ${status}`,
      );
    },
  },
  {
    id: `${SUITE_NAME}.unsigned-refused`,
    title: 'a delivery without X-Signature is refused (4xx)',
    section: 'AgentConnector v1.0 §HttpWebhookAgentConnector (X-Signature)',
    level: 'required',
    requires: 'hmac-secret',
    since: VERSION,
    run: async (ctx) =>
      assertRefused(await post(ctx, deliveryBody(ctx.agentId), undefined), 'an unsigned delivery'),
  },
  {
    id: `${SUITE_NAME}.wrong-key-refused`,
    title: 'a delivery signed with another key is refused (4xx)',
    section: 'AgentConnector v1.0 §HttpWebhookAgentConnector (X-Signature)',
    level: 'required',
    requires: 'hmac-secret',
    since: VERSION,
    run: async (ctx) => {
      const body = deliveryBody(ctx.agentId);
      const status = await post(ctx, body, webhookSignature(`${ctx.secret}-not`, body));
      assertRefused(status, 'a delivery signed with another key');
    },
  },
  {
    id: `${SUITE_NAME}.tampered-body-refused`,
    title: 'a delivery whose body changed after signing is refused (4xx)',
    section: 'AgentConnector v1.0 §HttpWebhookAgentConnector (X-Signature)',
    level: 'required',
    requires: 'hmac-secret',
    since: VERSION,
    run: async (ctx) => {
      const body = deliveryBody(ctx.agentId);
      const signature = webhookSignature(ctx.secret, body);
      const tampered = body.replace('Build #42', 'Build #43');
      assertRefused(await post(ctx, tampered, signature), 'a delivery whose body changed after signing');
    },
  },
];

/**
 * A live webhook agent checks what it is sent: with the agent's HMAC key, a correctly signed delivery is
 * accepted and an unsigned one, one signed with another key and one whose body changed after signing
 * are refused with a 4xx. The `agent` target of the CLI runs it when given `--secret`.
 *
 * @example
 * ```ts
 * const report = await runSuite(webhookSigningSuite({ url: 'https://agents.example/perry', agentId: 'perry', secret }));
 * ```
 */
export function webhookSigningSuite(
  options: WebhookSigningSuiteOptions,
): ConformanceSuite<WebhookSigningContext> {
  return {
    name: SUITE_NAME,
    version: VERSION,
    description:
      'A live webhook agent accepts deliveries signed with its HMAC key and refuses unsigned, wrongly signed and tampered ones.',
    cases,
    needs: NEEDS,
    setup: () => ({
      ctx: {
        url: options.url,
        agentId: options.agentId,
        secret: options.secret ?? '',
        fetch: options.fetch ?? ((url, init) => globalThis.fetch(url, init)),
      },
      capabilities: new Set(options.secret === undefined ? [] : ['hmac-secret']),
    }),
  };
}
