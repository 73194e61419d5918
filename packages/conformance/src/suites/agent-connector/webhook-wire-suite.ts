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
const AGENT_URL = 'https://agents.example/in';
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
    return {
      ...common,
      title: `deliver('${agentId}', ${payload.kind}) sends the fixture's body${signature === null ? ' unsigned' : ' and X-Signature'}`,
      section: SECTION_REQUEST,
      run: async (impl) => {
        const sent: SentRequest[] = [];
        const connector = await impl.createConnector({
          agentId,
          url: AGENT_URL,
          ...(secret === undefined ? {} : { hmacSecret: secret }),
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
      },
    };
  }
  if (entry.tags.includes('receipt')) {
    const status = readPositiveInteger(entry['status'], `${location}.status`);
    const responseBody = readString(entry['response_body'], `${location}.response_body`);
    const now = readNonNegativeInteger(entry['now'], `${location}.now`);
    const expected = readReceiptExpectation(entry, location);
    const deliver = async (impl: WebhookWireImplementation) => {
      const connector = await impl.createConnector({
        agentId: 'perry',
        url: AGENT_URL,
        now: () => now,
        fetch: async () => new Response(responseBody, { status }),
      });
      return connector.deliver('perry', RECEIPT_PAYLOAD);
    };
    return {
      ...common,
      title: `an HTTP ${status} answer ${formatValue(responseBody)} ${'receipt' in expected ? 'makes the fixture receipt' : 'fails the delivery'}`,
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
  throw invalidFixtureError(`${location}.tags`, 'expected a "request" or a "receipt" tag');
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
