import { decodeBase64, isRefusal } from '@agentwire/internal';
import { assertEqual, assertTrue, fail } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import type { FixtureCase } from '../../fixtures/fixture-file.js';
import {
  readNonNegativeInteger,
  readObject,
  readPositiveInteger,
  readString,
  sinceOf,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase } from '../../suite.js';
import { levelForTags } from '../relay/case-level.js';
import { RELAY_EDGE_SUITE_VERSION } from '../relay/suite-version.js';
import type {
  EdgeHandoff,
  EdgeHttpResponse,
  EdgeWebhookRequest,
  EdgeWebhookWorld,
  RelayEdgeImplementation,
} from './edge-implementation.js';
import { base64ToBytes, bytesEqual, containsBytes } from './edge-implementation.js';

const SECTION =
  'relay contract §3.1, §6; docs/relay-edge.md (the flow of one provider event, tenant resolution)';

/** The member and capability of each provider's handler. */
const PROVIDERS = {
  discord: { member: 'discordWebhookEdge', capability: 'discord-handler' },
  twilio: { member: 'twilioWebhookEdge', capability: 'twilio-handler' },
  wecom: { member: 'weComWebhookEdge', capability: 'wecom-handler' },
} as const;

type Provider = keyof typeof PROVIDERS;

interface ExpectedBind {
  readonly tenant: string;
  readonly sessionKey: string;
  readonly kind: string;
  readonly credential: string;
  readonly ttlSeconds: number | undefined;
}

interface ExpectedForward {
  readonly tenant: string;
  readonly platform: string;
  readonly botId: string;
  readonly method: string;
  readonly path: string;
  readonly headers: readonly [string, string][];
  readonly body: Uint8Array | undefined;
  readonly bodyJson: unknown;
  readonly profile: string | null;
}

type ExpectedHandoff = { readonly bind: ExpectedBind } | { readonly forward: ExpectedForward };

const encoder = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** `edge-webhooks.json`'s `world`. */
export function readWebhookWorld(value: unknown, location: string): EdgeWebhookWorld {
  const world = readObject(value, location);
  const wecom = readObject(world['wecom'], `${location}.wecom`);
  const routes = world['routes'];
  if (
    !Array.isArray(routes) ||
    !routes.every(
      (route: unknown) =>
        Array.isArray(route) && route.length === 3 && route.every((part) => typeof part === 'string'),
    )
  ) {
    throw invalidFixtureError(`${location}.routes`, 'expected [platform, routeKey, tenant] string triples');
  }
  const profiles = readObject(world['profiles'], `${location}.profiles`);
  return {
    now: readPositiveInteger(world['now'], `${location}.now`),
    discordPublicKey: readString(world['discord_public_key'], `${location}.discord_public_key`),
    twilioAuthToken: readString(world['twilio_auth_token'], `${location}.twilio_auth_token`),
    wecom: {
      token: readString(wecom['token'], `${location}.wecom.token`),
      encodingAesKey: readString(wecom['encoding_aes_key'], `${location}.wecom.encoding_aes_key`),
      corpId: readString(wecom['corp_id'], `${location}.wecom.corp_id`),
    },
    routes: routes as [string, string, string][],
    profiles: Object.fromEntries(
      Object.entries(profiles).map(([tenant, profile]) => [
        tenant,
        readString(profile, `${location}.profiles.${tenant}`),
      ]),
    ),
  };
}

/** The conformance case of one `edge-webhooks.json` case. */
export function webhookCase(
  entry: FixtureCase,
  location: string,
  world: EdgeWebhookWorld,
  suiteName: string,
): ConformanceCase<RelayEdgeImplementation> {
  const provider = readString(entry['provider'], `${location}.provider`);
  if (!(provider in PROVIDERS)) {
    throw invalidFixtureError(`${location}.provider`, 'expected "discord", "twilio" or "wecom"');
  }
  const { member, capability } = PROVIDERS[provider as Provider];
  const request = readRequest(entry['request'], `${location}.request`);
  const expected = readObject(entry['expected'], `${location}.expected`);
  const status = readPositiveInteger(expected['status'], `${location}.expected.status`);
  const handoffs = readHandoffs(expected['handoffs'], `${location}.expected.handoffs`);
  return {
    id: `${suiteName}.webhooks.${entry.id}`,
    title: `${request.method} ${new URL(request.url).pathname} → ${status}, ${handoffs.length} handed off: ${entry.id}`,
    section: SECTION,
    level: levelForTags(entry.tags),
    since: sinceOf(entry, location, RELAY_EDGE_SUITE_VERSION),
    requires: capability,
    run: async (impl) => {
      const edge = await impl[member]?.(world);
      if (edge === undefined) fail(`${member}(world) must return an edge`);
      try {
        const response = await edge.handle(request);
        checkAnswer(response, expected, status, impl.edgeErrorBodies === true);
        checkHandoffs(await edge.handoffs(), handoffs);
      } finally {
        await edge.close?.();
      }
    },
  };
}

function checkAnswer(
  response: EdgeHttpResponse,
  expected: Record<string, unknown>,
  status: number,
  compareErrorCodes: boolean,
): void {
  assertEqual(response.status, status, 'status');
  if ('json' in expected) assertEqual(jsonOf(response.body, 'the answer'), expected['json'], 'the answer');
  if ('body_text' in expected) {
    const text = readString(expected['body_text'], 'expected.body_text');
    assertTrue(
      bytesEqual(response.body, encoder.encode(text)),
      `the answer must be ${JSON.stringify(text)}, got ${response.body.length} other bytes`,
    );
  }
  if ('content_type' in expected) {
    const mediaType = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    assertEqual(mediaType, expected['content_type'], 'the media type of the answer');
  }
  if ('allow' in expected) {
    const allowed = (response.headers['allow'] ?? '')
      .split(',')
      .map((method) => method.trim().toUpperCase())
      .filter((method) => method !== '');
    assertEqual([...new Set(allowed)].sort(), expected['allow'], 'the methods the Allow header lists');
  }
  if (compareErrorCodes && 'error' in expected) {
    const body = jsonOf(response.body, 'the refusal');
    const error = body !== null && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
    assertEqual(error, expected['error'], 'the refusal body.error');
  }
}

function checkHandoffs(actual: readonly EdgeHandoff[], expected: readonly ExpectedHandoff[]): void {
  assertEqual(
    actual.map((handoff) => handoff.type),
    expected.map((handoff) => ('bind' in handoff ? 'bind' : 'forward')),
    'what was handed to the relay, in order (bindings before their forward)',
  );
  let binds: ExpectedBind[] = [];
  let actualBinds: EdgeHandoff[] = [];
  const credentials: string[] = [];
  expected.forEach((handoff, index) => {
    const got = actual[index]!;
    if ('bind' in handoff) {
      binds.push(handoff.bind);
      actualBinds.push(got);
      credentials.push(handoff.bind.credential);
      return;
    }
    checkBinds(actualBinds, binds);
    binds = [];
    actualBinds = [];
    if (got.type !== 'forward') fail('expected a forward');
    const want = handoff.forward;
    const at = `the forward to ${want.tenant}`;
    assertEqual(
      { tenant: got.tenant, platform: got.platform, botId: got.botId, method: got.method, path: got.path },
      {
        tenant: want.tenant,
        platform: want.platform,
        botId: want.botId,
        method: want.method,
        path: want.path,
      },
      at,
    );
    const headers = got.headers.map(([name, value]) => [name.toLowerCase(), value]).sort(comparePairs);
    assertEqual(headers, [...want.headers].sort(comparePairs), `${at}: headers`);
    const body = decodeBase64(got.bodyB64);
    if (isRefusal(body)) fail(`${at}: bodyB64 must be standard base64 with padding`);
    if (want.body !== undefined) {
      assertTrue(
        bytesEqual(body, want.body),
        `${at}: the body must be the ${want.body.length} bytes expected, got ${body.length} other bytes`,
      );
    }
    if (want.bodyJson !== undefined)
      assertEqual(jsonOf(body, `${at}: the body`), want.bodyJson, `${at}: body`);
    for (const credential of credentials) {
      assertTrue(
        !containsBytes(body, encoder.encode(credential)),
        `${at}: the bound credential must not be forwarded`,
      );
    }
    assertEqual(
      got.profile === undefined || got.profile === '' ? null : got.profile,
      want.profile,
      `${at}: profile`,
    );
  });
  checkBinds(actualBinds, binds);
}

/** The bindings of one forward, in any order. */
function checkBinds(actual: readonly EdgeHandoff[], expected: readonly ExpectedBind[]): void {
  const got = actual.flatMap((handoff) =>
    handoff.type === 'bind'
      ? [
          {
            tenant: handoff.tenant,
            sessionKey: handoff.sessionKey,
            kind: handoff.kind,
            credential: handoff.credential,
          },
        ]
      : [],
  );
  const want = expected.map(({ ttlSeconds: _ttl, ...bind }) => bind);
  const byKey = (a: { sessionKey: string }, b: { sessionKey: string }) =>
    a.sessionKey < b.sessionKey ? -1 : a.sessionKey > b.sessionKey ? 1 : 0;
  assertEqual([...got].sort(byKey), [...want].sort(byKey), 'the credentials bound for follow_up');
  for (const handoff of actual) {
    if (handoff.type !== 'bind' || handoff.ttlSeconds === undefined) continue;
    const ttl = expected.find((bind) => bind.sessionKey === handoff.sessionKey)?.ttlSeconds;
    if (ttl !== undefined)
      assertEqual(handoff.ttlSeconds, ttl, `lifetime of the binding under ${handoff.sessionKey}`);
  }
}

function comparePairs(a: readonly string[], b: readonly string[]): number {
  const left = `${a[0]}\u0000${a[1]}`;
  const right = `${b[0]}\u0000${b[1]}`;
  return left < right ? -1 : left > right ? 1 : 0;
}

function jsonOf(bytes: Uint8Array, what: string): unknown {
  try {
    return JSON.parse(strictUtf8.decode(bytes));
  } catch {
    fail(`${what} must be UTF-8 JSON, got ${bytes.length} bytes`);
  }
}

function readRequest(value: unknown, location: string): EdgeWebhookRequest {
  const request = readObject(value, location);
  const headers = request['headers'];
  if (
    !Array.isArray(headers) ||
    !headers.every(
      (pair: unknown) => Array.isArray(pair) && pair.length === 2 && pair.every((p) => typeof p === 'string'),
    )
  ) {
    throw invalidFixtureError(`${location}.headers`, 'expected [name, value] string pairs');
  }
  const body = base64ToBytes(readString(request['body_b64'], `${location}.body_b64`));
  const pad =
    request['body_pad_spaces'] === undefined
      ? 0
      : readNonNegativeInteger(request['body_pad_spaces'], `${location}.body_pad_spaces`);
  const padded = new Uint8Array(body.length + pad).fill(0x20);
  padded.set(body);
  return {
    method: readString(request['method'], `${location}.method`),
    url: readString(request['url'], `${location}.url`),
    headers: headers as [string, string][],
    body: padded,
  };
}

function readHandoffs(value: unknown, location: string): ExpectedHandoff[] {
  if (!Array.isArray(value)) throw invalidFixtureError(location, 'expected an array');
  return value.map((raw: unknown, i): ExpectedHandoff => {
    const at = `${location}[${i}]`;
    const handoff = readObject(raw, at);
    if ('bind' in handoff) {
      const bind = readObject(handoff['bind'], `${at}.bind`);
      return {
        bind: {
          tenant: readString(bind['tenant'], `${at}.bind.tenant`),
          sessionKey: readString(bind['session_key'], `${at}.bind.session_key`),
          kind: readString(bind['kind'], `${at}.bind.kind`),
          credential: readString(bind['credential'], `${at}.bind.credential`),
          ttlSeconds:
            bind['ttl_seconds'] === undefined
              ? undefined
              : readPositiveInteger(bind['ttl_seconds'], `${at}.bind.ttl_seconds`),
        },
      };
    }
    const forward = readObject(handoff['forward'], `${at}.forward`);
    const headers = forward['headers'];
    if (
      !Array.isArray(headers) ||
      !headers.every(
        (pair: unknown) =>
          Array.isArray(pair) && pair.length === 2 && pair.every((p) => typeof p === 'string'),
      )
    ) {
      throw invalidFixtureError(`${at}.forward.headers`, 'expected [name, value] string pairs');
    }
    if ('body_b64' in forward === 'body_json' in forward) {
      throw invalidFixtureError(`${at}.forward`, 'expected body_b64 or body_json');
    }
    return {
      forward: {
        tenant: readString(forward['tenant'], `${at}.forward.tenant`),
        platform: readString(forward['platform'], `${at}.forward.platform`),
        botId: readString(forward['bot_id'], `${at}.forward.bot_id`),
        method: readString(forward['method'], `${at}.forward.method`),
        path: readString(forward['path'], `${at}.forward.path`),
        headers: headers as [string, string][],
        body:
          forward['body_b64'] === undefined
            ? undefined
            : base64ToBytes(readString(forward['body_b64'], `${at}.forward.body_b64`)),
        bodyJson: forward['body_json'],
        profile:
          forward['profile'] === undefined ? null : readString(forward['profile'], `${at}.forward.profile`),
      },
    };
  });
}
