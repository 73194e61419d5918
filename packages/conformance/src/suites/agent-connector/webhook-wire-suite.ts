import type { AgentConnector, DeliveryPayload } from '@agentwire/agent-connector';
import webhookFixture from '../../../fixtures/agent-connector/webhook.json' with { type: 'json' };
import { assertEqual, assertRejects, assertTrue, formatValue } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  type FixtureCase,
  readFixtureFile,
  readNonNegativeInteger,
  readObject,
  readPositiveInteger,
  readString,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { AGENT_CONNECTOR_SUITE_VERSION } from './agent-connector-suite.js';

/** What the suite hands {@link WebhookWireImplementation.createConnector} for one case. */
export interface WebhookConnectorSetup {
  /** The one agent the connector knows; it delivers to it. */
  readonly agentId: string;
  /** The agent's webhook URL. */
  readonly url: string;
  /** The HMAC-SHA256 secret that signs request bodies (`X-Signature`); absent when none is configured. */
  readonly hmacSecret?: string;
  /** The `Authorization` header every request carries, verbatim; absent when none is configured. */
  readonly authorization?: string;
  /** The agent's wake URL, where `wake()` POSTs; given to the wake cases. */
  readonly wakeUrl?: string;
  /** The agent's status URL, which `health_check()` GETs; given to the health cases. */
  readonly statusUrl?: string;
  /** The connector's clock, in unix milliseconds; a receipt without a usable `delivered_at` takes it. */
  readonly now: () => number;
  /** The transport every request must go through: it records the request and plays the receiver. */
  readonly fetch: (url: string, init: RequestInit) => Promise<Response>;
}

/** A webhook AgentConnector under test: how to build one that talks through the suite's transport. */
export interface WebhookWireImplementation {
  /** Builds a connector for `setup.agentId` at `setup.url` whose requests all go through `setup.fetch`. */
  createConnector(setup: WebhookConnectorSetup): AgentConnector | Promise<AgentConnector>;
}

const FIXTURE_NAME = 'agent-connector/webhook.json';
const SUITE_NAME = 'agent-connector.webhook-wire';
const SECTION_REQUEST = 'AgentConnector v1.0 §deliver (webhook substrate: request body and X-Signature)';
const SECTION_RECEIPT = 'AgentConnector v1.0 §DeliveryReceipt, DeliveryFailedError (webhook substrate)';
const SECTION_WAKE = 'AgentConnector v1.0 §wake (webhook substrate: wake request and WakeReceipt)';
const SECTION_HEALTH = 'AgentConnector v1.0 §health_check (webhook substrate: status URL)';
const AGENT_URL = 'https://agents.example/in';
const WAKE_URL = 'https://agents.example/wake';
const STATUS_URL = 'https://agents.example/status';
/** The suite version that added the authorization, wake-request and health cases. */
const SINCE_1_2 = '1.2.0';
const fixture = readFixtureFile(webhookFixture, FIXTURE_NAME);

/**
 * The webhook substrate's wire from `fixtures/agent-connector/webhook.json`: the exact JSON body and
 * `X-Signature` a `deliver()` sends for an agent, payload and HMAC secret, and the `DeliveryReceipt`
 * (or `DeliveryFailedError`, matched by `name`, `code`, `cause_kind` and `http_status`) it makes of a
 * receiver's status and response body.
 *
 * @example
 * ```ts
 * import { HttpWebhookAgentConnector } from '@agentwire/agent-connector/webhook';
 * const report = await runSuite(
 *   webhookWireSuite({
 *     createConnector: ({ agentId, url, hmacSecret, now, fetch }) =>
 *       new HttpWebhookAgentConnector({ agents: { [agentId]: { url } }, hmac_secret: hmacSecret, now, fetch }),
 *   }),
 * );
 * ```
 */
export function webhookWireSuite(
  implementation: WebhookWireImplementation,
): ConformanceSuite<WebhookWireImplementation> {
  return {
    name: SUITE_NAME,
    version: AGENT_CONNECTOR_SUITE_VERSION,
    description: fixture.description,
    cases: fixture.cases.map(caseFor),
    setup: () => ({ ctx: implementation }),
  };
}

type WireCase = ConformanceCase<WebhookWireImplementation>;

/** One request the connector sent through the suite's transport. */
interface SentRequest {
  readonly url: string;
  readonly headers: Headers;
  readonly body: unknown;
}

function caseFor(entry: FixtureCase, index: number): WireCase {
  const location = `${FIXTURE_NAME} cases[${index}]`;
  const common = {
    id: `${SUITE_NAME}.${entry.id}`,
    level: 'required',
    since: '1.1.0',
  } as const;
  if (entry.tags.includes('request')) {
    const agentId = readString(entry['agent_id'], `${location}.agent_id`);
    const payload = readObject(entry['payload'], `${location}.payload`) as unknown as DeliveryPayload;
    const secret =
      entry['hmac_secret'] === null ? undefined : readString(entry['hmac_secret'], `${location}.hmac_secret`);
    const body = readString(entry['body'], `${location}.body`);
    const signature =
      entry['x_signature'] === null ? null : readString(entry['x_signature'], `${location}.x_signature`);
    const authorization = readAuthorization(entry, location);
    return {
      ...common,
      ...(authorization === undefined ? {} : { since: SINCE_1_2 }),
      title: `deliver('${agentId}', ${payload.kind}) sends the fixture's body${signature === null ? ' unsigned' : ' and X-Signature'}`,
      section: SECTION_REQUEST,
      run: async (impl) => {
        const sent: SentRequest[] = [];
        const connector = await impl.createConnector({
          agentId,
          url: AGENT_URL,
          ...(secret === undefined ? {} : { hmacSecret: secret }),
          ...(authorization === undefined ? {} : { authorization }),
          now: Date.now,
          fetch: async (url, init) => {
            sent.push({ url, headers: new Headers(init.headers), body: init.body });
            return new Response('{}');
          },
        });
        await connector.deliver(agentId, payload);
        assertEqual(sent.length, 1, 'requests sent by one deliver()');
        const [request] = sent as [SentRequest];
        assertEqual(request.url, AGENT_URL, 'request URL');
        assertEqual(bodyText(request.body), body, 'request body');
        assertEqual(request.headers.get('x-signature'), signature, 'X-Signature header');
        assertEqual(request.headers.get('content-type'), 'application/json', 'Content-Type header');
        assertEqual(request.headers.get('authorization'), authorization ?? null, 'Authorization header');
      },
    };
  }
  if (entry.tags.includes('wake-request')) return wakeRequestCase(entry, location);
  if (entry.tags.includes('health')) return healthCase(entry, location);
  if (entry.tags.includes('degraded-wake')) return degradedWakeCase(entry, location);
  if (entry.tags.includes('receipt')) {
    const status = readPositiveInteger(entry['status'], `${location}.status`);
    const responseBody = readString(entry['response_body'], `${location}.response_body`);
    const now = readNonNegativeInteger(entry['now'], `${location}.now`);
    const expected = readReceiptExpectation(entry, location);
    // Tagged `chunked`: the answer arrives one byte at a time, UTF-8 sequences split across chunks.
    const chunked = entry.tags.includes('chunked');
    // One answer makes one outcome: a connector that sends the delivery again (a retry nobody asked
    // for) fails the case, whatever it then reports.
    const deliver = async (impl: WebhookWireImplementation) => {
      let requests = 0;
      const connector = await impl.createConnector({
        agentId: 'perry',
        url: AGENT_URL,
        now: () => now,
        fetch: async () => {
          requests += 1;
          return new Response(chunked ? byteByByte(responseBody) : responseBody, { status });
        },
      });
      try {
        return await connector.deliver('perry', RECEIPT_PAYLOAD);
      } finally {
        assertEqual(requests, 1, `requests sent by one deliver() answered HTTP ${status}`);
      }
    };
    return {
      ...common,
      ...(chunked ? { since: SINCE_1_2 } : {}),
      title: `an HTTP ${status} answer ${formatValue(responseBody)}${chunked ? ' sent a byte at a time' : ''} ${'receipt' in expected ? 'makes the fixture receipt' : 'fails the delivery'}`,
      section: SECTION_RECEIPT,
      run: async (impl) => {
        if ('receipt' in expected) {
          assertEqual(await deliver(impl), expected.receipt, 'DeliveryReceipt');
          return;
        }
        const error = (await assertRejects(() => deliver(impl), `deliver() answered HTTP ${status}`)) as {
          readonly name?: unknown;
          readonly code?: unknown;
          readonly cause_kind?: unknown;
          readonly http_status?: unknown;
        } | null;
        assertEqual(error?.name, 'DeliveryFailedError', 'name of the error');
        assertEqual(error?.code, expected.error, 'code of the error');
        assertEqual(error?.cause_kind, expected.causeKind, 'cause_kind of the error');
        assertEqual(error?.http_status, expected.httpStatus, 'http_status of the error');
      },
    };
  }
  throw invalidFixtureError(
    `${location}.tags`,
    'expected a "request", "receipt", "wake-request", "degraded-wake" or "health" tag',
  );
}

function readAuthorization(entry: FixtureCase, location: string): string | undefined {
  return entry['authorization'] === undefined
    ? undefined
    : readString(entry['authorization'], `${location}.authorization`);
}

/**
 * `wake(agent_id, opts)` of an agent configured with a wake URL: one POST there, of the fixture's body,
 * signed and authorized as a delivery is, and the fixture's receipt (`woken_at` a number).
 */
function wakeRequestCase(entry: FixtureCase, location: string): WireCase {
  const agentId = readString(entry['agent_id'], `${location}.agent_id`);
  const configured = readString(entry['configured_agent'], `${location}.configured_agent`);
  const opts = entry['opts'] === undefined ? undefined : readObject(entry['opts'], `${location}.opts`);
  const secret =
    entry['hmac_secret'] === null ? undefined : readString(entry['hmac_secret'], `${location}.hmac_secret`);
  const authorization = readAuthorization(entry, location);
  const body = readString(entry['body'], `${location}.body`);
  const signature =
    entry['x_signature'] === null ? null : readString(entry['x_signature'], `${location}.x_signature`);
  const receipt = readObject(entry['receipt'], `${location}.receipt`);
  return {
    id: `${SUITE_NAME}.${entry.id}`,
    level: 'required',
    since: SINCE_1_2,
    title: `wake('${agentId}'${opts === undefined ? '' : `, ${formatValue(opts)}`}) POSTs the fixture's body to the wake URL`,
    section: SECTION_WAKE,
    run: async (impl) => {
      const sent: (SentRequest & { readonly method: string | undefined })[] = [];
      const connector = await impl.createConnector({
        agentId: configured,
        url: AGENT_URL,
        wakeUrl: WAKE_URL,
        ...(secret === undefined ? {} : { hmacSecret: secret }),
        ...(authorization === undefined ? {} : { authorization }),
        now: Date.now,
        fetch: async (url, init) => {
          sent.push({ url, method: init.method, headers: new Headers(init.headers), body: init.body });
          return new Response('{}');
        },
      });
      const { woken_at, ...rest } = (await connector.wake(agentId, opts)) as unknown as Record<
        string,
        unknown
      >;
      assertEqual(sent.length, 1, 'requests sent by one wake()');
      const [request] = sent as [SentRequest & { readonly method: string | undefined }];
      assertEqual([request.method, request.url], ['POST', WAKE_URL], 'method and URL of the wake request');
      assertEqual(bodyText(request.body), body, 'wake request body');
      assertEqual(request.headers.get('x-signature'), signature, 'X-Signature header');
      assertEqual(request.headers.get('content-type'), 'application/json', 'Content-Type header');
      assertEqual(request.headers.get('authorization'), authorization ?? null, 'Authorization header');
      assertTrue(typeof woken_at === 'number', `woken_at must be a number, got ${formatValue(woken_at)}`);
      assertEqual(rest, receipt, 'WakeReceipt (woken_at aside)');
    },
  };
}

/**
 * `health_check()` of an agent with a status URL: one authorized GET, healthy for a 2xx answer only.
 * With `status_url: false` the agent has none: the substrate answers every request with `status`, and
 * the connector may probe the agent's URL (the contract's HEAD/OPTIONS of the endpoint) or nothing, but
 * sends no request anywhere else (an agent without a status URL is not probed at `undefined`).
 */
function healthCase(entry: FixtureCase, location: string): WireCase {
  const status = entry['status'] === null ? null : readPositiveInteger(entry['status'], `${location}.status`);
  const authorization = readAuthorization(entry, location);
  const healthy = entry['healthy'];
  if (typeof healthy !== 'boolean') throw invalidFixtureError(`${location}.healthy`, 'expected a boolean');
  if (entry['status_url'] === false) return healthWithoutStatusUrlCase(entry, status, healthy);
  return {
    id: `${SUITE_NAME}.${entry.id}`,
    level: 'required',
    since: SINCE_1_2,
    title: `health_check() is ${healthy} when the status URL ${status === null ? 'cannot be reached' : `answers HTTP ${status}`}`,
    section: SECTION_HEALTH,
    run: async (impl) => {
      const sent: { readonly url: string; readonly method: string | undefined; readonly headers: Headers }[] =
        [];
      const connector = await impl.createConnector({
        agentId: 'perry',
        url: AGENT_URL,
        statusUrl: STATUS_URL,
        ...(authorization === undefined ? {} : { authorization }),
        now: Date.now,
        fetch: async (url, init) => {
          sent.push({ url, method: init.method, headers: new Headers(init.headers) });
          if (status === null) throw new TypeError('fetch failed');
          return new Response(null, { status });
        },
      });
      assertEqual(await connector.health_check(), healthy, 'health_check()');
      assertTrue(sent.length > 0, 'health_check() sent no request to the status URL');
      const [request] = sent as [(typeof sent)[number]];
      assertEqual([request.method, request.url], ['GET', STATUS_URL], 'method and URL of the status request');
      assertEqual(request.headers.get('authorization'), authorization ?? null, 'Authorization header');
    },
  };
}

function healthWithoutStatusUrlCase(entry: FixtureCase, status: number | null, healthy: boolean): WireCase {
  return {
    id: `${SUITE_NAME}.${entry.id}`,
    level: 'required',
    since: SINCE_1_2,
    title: `health_check() of an agent without a status URL is ${healthy} when the substrate answers HTTP ${status}, and probes only the agent's URL`,
    section: SECTION_HEALTH,
    run: async (impl) => {
      const sent: unknown[] = [];
      const connector = await impl.createConnector({
        agentId: 'perry',
        url: AGENT_URL,
        now: Date.now,
        fetch: async (url) => {
          sent.push(url);
          if (status === null) throw new TypeError('fetch failed');
          return new Response(null, { status });
        },
      });
      assertEqual(await connector.health_check(), healthy, 'health_check()');
      for (const url of sent) assertEqual(url, AGENT_URL, 'URL of a request health_check() sent');
    },
  };
}

/**
 * `wake(agent_id, opts)` of an agent without a wake URL: the context delivered to the agent's URL
 * instead (one POST), and a receipt with `woken: false` and the session the receiver's answer names,
 * else the resolved one (AgentConnector v1.0 §WakeReceipt.session_id, §Graceful degradation on wake).
 */
function degradedWakeCase(entry: FixtureCase, location: string): WireCase {
  const agentId = readString(entry['agent_id'], `${location}.agent_id`);
  const opts = readObject(entry['opts'], `${location}.opts`);
  const status = readPositiveInteger(entry['status'], `${location}.status`);
  const responseBody = readString(entry['response_body'], `${location}.response_body`);
  const receipt = readObject(entry['receipt'], `${location}.receipt`);
  return {
    id: `${SUITE_NAME}.${entry.id}`,
    level: 'required',
    since: SINCE_1_2,
    title: `wake('${agentId}', ${formatValue(opts)}) without a wake URL delivers to the agent and reports ${formatValue(receipt)}`,
    section: SECTION_WAKE,
    run: async (impl) => {
      const sent: { readonly url: string; readonly method: string | undefined }[] = [];
      const connector = await impl.createConnector({
        agentId,
        url: AGENT_URL,
        now: Date.now,
        fetch: async (url, init) => {
          sent.push({ url, method: init.method });
          return new Response(responseBody, { status });
        },
      });
      const woken = (await connector.wake(agentId, opts)) as unknown as Record<string, unknown>;
      assertEqual(sent, [{ url: AGENT_URL, method: 'POST' }], 'requests sent by one degraded wake()');
      const reported = Object.fromEntries(Object.keys(receipt).map((key) => [key, woken[key]]));
      assertEqual(reported, receipt, 'WakeReceipt (the fixture receipt fields)');
    },
  };
}

/** A body that yields the UTF-8 bytes of `text` one per chunk, as a slow network may deliver them. */
function byteByByte(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      if (next < bytes.length) controller.enqueue(bytes.slice(next, ++next));
      else controller.close();
    },
  });
}

/** The payload of every receipt case: the answer decides the outcome, not the payload. */
const RECEIPT_PAYLOAD: DeliveryPayload = {
  kind: 'augment',
  content: 'x',
  meta: { dispatch_id: 'd', sent_at: 0, origin: { skill_name: 's', trigger_kind: 'inline' } },
};

/** The request body as text: a string as sent, bytes read as UTF-8; anything else is reported as is. */
function bodyText(body: unknown): unknown {
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  assertTrue(typeof body === 'string', `the request body must be text or bytes, got ${formatValue(body)}`);
  return body;
}

type ReceiptExpectation =
  | { readonly receipt: Record<string, unknown> }
  | {
      readonly error: string;
      readonly causeKind: string | undefined;
      readonly httpStatus: number | undefined;
    };

function readReceiptExpectation(entry: FixtureCase, location: string): ReceiptExpectation {
  if (entry['receipt'] !== undefined) return { receipt: readObject(entry['receipt'], `${location}.receipt`) };
  return {
    error: readString(entry['error'], `${location}.error`),
    causeKind:
      entry['cause_kind'] === undefined
        ? undefined
        : readString(entry['cause_kind'], `${location}.cause_kind`),
    httpStatus:
      entry['http_status'] === undefined
        ? undefined
        : readPositiveInteger(entry['http_status'], `${location}.http_status`),
  };
}
