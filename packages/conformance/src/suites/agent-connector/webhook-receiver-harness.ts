import { parseDeliveryPayload } from '@agentwire/agent-connector';
import type { ReceivedDelivery, ReceivedWake } from './agent-connector-suite.js';

/** One request the harness received. Header names are lower-case. */
export interface RecordedWebhookRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Options of {@link createWebhookReceiverHarness}. */
export interface WebhookReceiverHarnessOptions {
  /** When set, requests whose `Authorization` differs are answered 401. */
  readonly authorization?: string;
  /** When set, POSTs whose `X-Signature` is not `sha256=<HMAC>` of the body under this key are answered 401. */
  readonly verifySignature?: (signature: string | undefined, body: string) => boolean;
}

/** A fake webhook agent: a `fetch` to hand the connector, and what it received. */
export interface WebhookReceiverHarness {
  readonly fetch: (url: string, init: RequestInit) => Promise<Response>;
  readonly requests: readonly RecordedWebhookRequest[];
  /** Every deliver body received: the `agent_id` and the rest of the body as the payload. */
  deliveries(): readonly ReceivedDelivery[];
  /**
   * Every wake received (a POST whose body has no `kind`): its agent (without `@session`), session and
   * context.
   */
  wakes(): readonly ReceivedWake[];
  /**
   * Takes the receiver off the network (`false`: every request fails as a refused connection does,
   * with a `TypeError` and nothing recorded) or puts it back (`true`, the start).
   */
  setAvailable(available: boolean): void;
  /**
   * Stalls the agent (`true`): requests are taken and never answered until the caller's `signal`
   * aborts them, as with a hung receiver; `false` answers again (requests still waiting then fail as
   * aborted). Hand it to the agent-connector suite as `setSubstrateStalled`.
   */
  setStalled(stalled: boolean): void;
}

/**
 * A `fetch` that answers like a webhook agent and records every request: GET (status) → 200; a POST whose
 * body has a `kind` (a delivery) → 200 `{ delivery_id, session_id? }` echoing the body's `session_id`;
 * any other POST (a wake) → 202. Unauthorised requests get 401; unparsable bodies, and deliveries whose
 * payload is not a valid `DeliveryPayload`, 400. Use it to test your
 * own webhook connector: hand its `fetch` to the connector, and `deliveries` / `wakes` /
 * `setAvailable` to the agent-connector suite as `observe` / `observeWakes` / `setSubstrateAvailable`.
 *
 * @example
 * ```ts
 * const receiver = createWebhookReceiverHarness({ authorization: 'Bearer t' });
 * const connector = new HttpWebhookAgentConnector({ agents: { perry: { url: 'https://a.example/p' } },
 *   authorization: 'Bearer t', fetch: receiver.fetch });
 * ```
 */
export function createWebhookReceiverHarness(
  options: WebhookReceiverHarnessOptions = {},
): WebhookReceiverHarness {
  const requests: RecordedWebhookRequest[] = [];
  let available = true;
  let stalled = false;
  const waiting = new Set<() => void>();
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    // What the global fetch throws when nothing listens at the address.
    if (!available) throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });
    if (stalled) return hang(init.signal ?? undefined, waiting);
    const request = new Request(url, init);
    const body = await request.text();
    const headers = Object.fromEntries(request.headers.entries());
    requests.push({ url, method: request.method, headers, body });
    if (options.authorization !== undefined && headers.authorization !== options.authorization) {
      return new Response('unauthorized', { status: 401 });
    }
    if (request.method === 'GET') return Response.json({ status: 'ok' });
    if (options.verifySignature !== undefined && !options.verifySignature(headers['x-signature'], body)) {
      return new Response('bad signature', { status: 401 });
    }
    const parsed = parseObject(body);
    if (parsed === undefined) return new Response('bad request', { status: 400 });
    if (!('kind' in parsed)) return new Response(null, { status: 202 });
    const { agent_id: _agent, ...payload } = parsed;
    if (!isDeliveryPayload(payload)) return new Response('invalid delivery payload', { status: 400 });
    const session_id = parsed.session_id;
    return Response.json({
      delivery_id: `received-${requests.length}`,
      ...(typeof session_id === 'string' && session_id !== '' ? { session_id } : {}),
    });
  };
  return {
    fetch,
    requests,
    deliveries: () =>
      requests.flatMap((request) => {
        const parsed = request.method === 'POST' ? parseObject(request.body) : undefined;
        if (parsed === undefined || !('kind' in parsed)) return [];
        const { agent_id, ...payload } = parsed;
        return [{ agent_id: String(agent_id), payload }];
      }),
    wakes: () =>
      requests.flatMap((request) => {
        const parsed = request.method === 'POST' ? parseObject(request.body) : undefined;
        if (parsed === undefined || 'kind' in parsed) return [];
        const { agent_id, session_id, context } = parsed;
        const agent = String(agent_id).split('@')[0] ?? '';
        return [
          {
            agent_id: agent,
            ...(typeof session_id === 'string' ? { session_id } : {}),
            ...(typeof context === 'string' ? { context } : {}),
          },
        ];
      }),
    setAvailable: (next) => {
      available = next;
    },
    setStalled: (next) => {
      stalled = next;
      if (!next) {
        for (const release of waiting) release();
        waiting.clear();
      }
    },
  };
}

function isDeliveryPayload(payload: unknown): boolean {
  try {
    parseDeliveryPayload(payload);
    return true;
  } catch {
    return false;
  }
}

/**
 * A response that never comes: rejects as `fetch` does when `signal` aborts (with its reason), or with
 * an `AbortError` once the stall is lifted.
 */
function hang(signal: AbortSignal | undefined, waiting: Set<() => void>): Promise<Response> {
  return new Promise<Response>((_, reject) => {
    const release = () => reject(new DOMException('the stalled receiver was released', 'AbortError'));
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    signal?.addEventListener(
      'abort',
      () => {
        waiting.delete(release);
        reject(signal.reason);
      },
      { once: true },
    );
    waiting.add(release);
  });
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
