import {
  buildSessionKey,
  type CapabilityDescriptor,
  decodeOpResult,
  descriptorSupportsOp,
  type GatewayFrameInput,
  mintRelayToken,
  newRequestId,
  OUTBOUND_OPS,
  type OutboundActionInput,
  type OutboundOp,
  parseDescriptorValue,
  RELAY_CLOSE_REASON_EXPIRED,
  RELAY_CLOSE_REASON_UNAUTHORIZED,
  RELAY_CLOSE_UNAUTHORIZED,
  relayAuthorizationHeader,
  relayWebSocketUrl,
  sessionSourceFromWire,
} from '@agentwire/relay';
import { assertEqual, fail, formatValue } from '../../assert.js';
import { ConformanceError, isConformanceError } from '../../errors.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { sampleActions } from '../relay/sample-actions.js';
import { RELAY_SUITE_VERSION } from '../relay/suite-version.js';
import { GatewayProbe, lineType, openOrFail, quoteLine, type ReceivedLine } from './gateway-probe.js';
import type { WebSocketClose } from './websocket-client.js';

type FieldKind = 'integer' | 'string' | 'boolean' | 'length-unit' | 'string-list';

/** The JSON type of every descriptor field (relay contract §3.1); optional ones may be absent. */
const DESCRIPTOR_FIELD_KINDS: readonly (readonly [name: string, kind: FieldKind, required: boolean])[] = [
  ['contract_version', 'integer', true],
  ['platform', 'string', true],
  ['label', 'string', true],
  ['max_message_length', 'integer', true],
  ['supports_draft_streaming', 'boolean', true],
  ['supports_edit', 'boolean', true],
  ['supports_threads', 'boolean', true],
  ['markdown_dialect', 'string', true],
  ['len_unit', 'length-unit', true],
  ['emoji', 'string', false],
  ['platform_hint', 'string', false],
  ['pii_safe', 'boolean', false],
  ['supports_context', 'boolean', false],
  ['supported_ops', 'string-list', false],
];

const KIND_TEXT: Readonly<Record<FieldKind, string>> = {
  integer: 'an integer',
  string: 'a string',
  boolean: 'a boolean',
  'length-unit': '"chars" or "utf16"',
  'string-list': 'a list of strings',
};

/**
 * The type errors of a descriptor as the connector sent it: the gateway's `from_json` checks no types
 * (a string `max_message_length` slips through and breaks later), so the wire object is checked here.
 * Returns one message per wrong field; empty when every field has its type.
 */
export function descriptorTypeErrors(descriptor: unknown): string[] {
  if (typeof descriptor !== 'object' || descriptor === null || Array.isArray(descriptor)) {
    return [`descriptor must be an object, got ${formatValue(descriptor)}`];
  }
  const fields = descriptor as Readonly<Record<string, unknown>>;
  const errors: string[] = [];
  for (const [name, kind, required] of DESCRIPTOR_FIELD_KINDS) {
    if (!Object.hasOwn(fields, name)) {
      if (required) errors.push(`descriptor.${name} is missing`);
      continue;
    }
    const value = fields[name];
    if (!hasKind(value, kind)) {
      errors.push(`descriptor.${name} must be ${KIND_TEXT[kind]}, got ${formatValue(value)}`);
    }
  }
  return errors;
}

function hasKind(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case 'integer':
      return Number.isInteger(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'length-unit':
      return value === 'chars' || value === 'utf16';
    case 'string-list':
      return Array.isArray(value) && value.every((op) => typeof op === 'string');
  }
}

/** Keys every `event` carries as a careful connector writes it (`createMessageEvent`). */
const EVENT_KEYS = ['text', 'message_type', 'message_id', 'reply_to_message_id', 'media_urls', 'source'];
/** Keys `SessionSource.to_dict()` always writes that the session key is built from. */
const SOURCE_KEYS = ['platform', 'chat_id', 'chat_type', 'user_id'];

/**
 * What is wrong with one `inbound` line: it must decode with the codec, carry the always-present event
 * and source keys, give a session key, and name a `scope_id` where the gateway needs one: on Slack,
 * whose session keys and egress metadata carry the workspace (relay-reference §6, §18.2). Elsewhere the
 * gateway keys the session without it (a Telegram forum event without `scope_id` keys
 * `agent:main:telegram:forum:<chat>:<thread>`), so its absence is no fault.
 */
export function inboundProblems(line: ReceivedLine): string[] {
  if (line.error !== undefined) return [`undecodable inbound ${quoteLine(line)}: ${line.error.message}`];
  const event = (line.json as { readonly event?: unknown }).event;
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    return [`inbound without an event object: ${quoteLine(line)}`];
  }
  const fields = event as Readonly<Record<string, unknown>>;
  const problems = EVENT_KEYS.filter((key) => !Object.hasOwn(fields, key)).map(
    (key) => `event.${key} is missing in ${quoteLine(line)}`,
  );
  const source = fields['source'];
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return problems;
  const sourceFields = source as Readonly<Record<string, unknown>>;
  for (const key of SOURCE_KEYS) {
    if (!Object.hasOwn(sourceFields, key))
      problems.push(`event.source.${key} is missing in ${quoteLine(line)}`);
  }
  const scopeId = sourceFields['scope_id'];
  if (sourceFields['platform'] === 'slack' && (typeof scopeId !== 'string' || scopeId === '')) {
    problems.push(
      `event.source.scope_id must name the Slack workspace (the gateway keys Slack sessions by it), got ${formatValue(scopeId)}`,
    );
  }
  try {
    buildSessionKey(sessionSourceFromWire(sourceFields));
  } catch (error) {
    problems.push(
      `no session key derivable from event.source: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return problems;
}

const CHAT_ID = 'agentwire-conformance-chat';
const CONTENT = 'agentwire conformance probe';

/**
 * A minimal valid action for every op of the baseline op table (relay contract §7.2), as the gateway
 * writes it. A connector under test executes them for real: point the suite at a test chat.
 */
export const SAMPLE_ACTIONS = sampleActions({ chatId: CHAT_ID, platform: 'relay', content: CONTENT });

/** An `op` no contract version defines: every connector must answer it with `success: false`. */
export const UNSUPPORTED_OP = 'agentwire_conformance_unsupported';

/** Options of {@link relayConnectorSuite}. */
export interface RelayConnectorSuiteOptions {
  /** The connector's relay URL (`ws://host/relay`), or its base URL (`https://host`: `/relay` is appended). */
  readonly url: string;
  /** The gateway id the connector knows (`GATEWAY_RELAY_ID`). */
  readonly gatewayId: string;
  /** That gateway's secret (`GATEWAY_RELAY_SECRET`). */
  readonly secret: string;
  /** The platform every `hello` names. Default `'relay'`, the gateway's default identity. */
  readonly platform?: string;
  /** The `botId` of every `hello`. Default `''`. */
  readonly botId?: string;
  /** The clock tokens are minted with, in milliseconds since the epoch. Default `Date.now`. */
  readonly now?: () => number;
  /** How long the connector gets for each answer (descriptor, result, close). Default 3000 ms. */
  readonly patienceMs?: number;
  /** How long the suite listens for `inbound` frames after a handshake. Default 1500 ms. */
  readonly inboundWindowMs?: number;
}

/** What the suite saw on its first connection: the handshake and the inbound frames that followed it. */
export interface RelayHandshakeRecord {
  /** Why the dial with a valid token did not give a connection. */
  readonly refused?: string;
  /** How that connection ended when the connector closed it before the suite did. */
  readonly closedEarly?: WebSocketClose;
  /** The first `descriptor` line answering the hello. */
  readonly descriptorLine?: ReceivedLine;
  /** That descriptor, read with the gateway's rules. */
  readonly descriptor?: CapabilityDescriptor;
  /** Every `inbound` line received within the inbound window. */
  readonly inbound: readonly ReceivedLine[];
  /** The `bufferId`s the suite acknowledged with `inbound_ack`. */
  readonly ackedBufferIds: readonly string[];
}

/** What every case of {@link relayConnectorSuite} receives. */
export interface RelayConnectorContext {
  readonly url: string;
  readonly gatewayId: string;
  readonly secret: string;
  readonly platform: string;
  readonly botId: string;
  readonly now: () => number;
  readonly patienceMs: number;
  readonly inboundWindowMs: number;
  readonly handshake: RelayHandshakeRecord;
}

const SUITE_NAME = 'relay.live';
const DEFAULT_PATIENCE_MS = 3000;
const DEFAULT_INBOUND_WINDOW_MS = 1500;
/** How long after its `inbound_ack`s the first connection stays open, so the acks are taken. */
const ACK_SETTLE_MS = 300;
/** How far in the past the expired token was minted: its 300-second lifetime is long over. */
const EXPIRED_BY_SECONDS = 3600;

type RelayLiveCase = ConformanceCase<RelayConnectorContext>;

/**
 * A black-box suite for a live relay connector: it plays the gateway over WebSocket (contract §2) and
 * checks upgrade auth (a valid token accepted; none, a wrong secret and an expired token closed with
 * 4401 `unauthorized` / `expired`, §11–§12), the descriptor answering a `hello` (§3), an
 * `outbound_result` with the same `requestId` and a well-formed result for every op the descriptor
 * advertises (§7.2), `success: false` for an unsupported op, the `inbound` frames the connector sends
 * within a short window (§4: decodable, always-present keys, a derivable session key, `scope_id` on Slack),
 * no redelivery after `inbound_ack` (§2.6), and a connection that survives an `interrupt` (§8).
 *
 * Capabilities, found on the first connection: `op:<op>` for each op the descriptor supports,
 * `inbound` when the connector sent inbound frames, `buffered-inbound` when some carried a `bufferId`.
 * The ops are executed for real: point the suite at a test connector or a test chat.
 *
 * @throws {ConformanceError} `invalid_relay_live_options`: for a missing URL, gateway id or secret, or a bad
 *   duration.
 * @example
 * ```ts
 * const report = await runSuite(
 *   relayConnectorSuite({ url: 'ws://127.0.0.1:8080/relay', gatewayId: 'gw-1', secret, platform: 'discord' }),
 * );
 * console.log(formatReportTable([report]));
 * ```
 */
export function relayConnectorSuite(
  options: RelayConnectorSuiteOptions,
): ConformanceSuite<RelayConnectorContext> {
  const resolved = resolveOptions(options);
  return {
    name: SUITE_NAME,
    version: RELAY_SUITE_VERSION,
    description:
      'A live relay connector, driven over WebSocket by a gateway: auth, hello/descriptor, outbound ops, inbound frames, acks and interrupts.',
    cases: [
      ...authCases(),
      descriptorCase(),
      ...OUTBOUND_OPS.map(opCase),
      unsupportedOpCase(),
      inboundCase(),
      redeliveryCase(),
      interruptCase(),
    ],
    needs: {
      ...Object.fromEntries(
        OUTBOUND_OPS.map((op) => [
          `op:${op}`,
          { provide: `${op} in the descriptor's supported_ops (an op the connector implements)` },
        ]),
      ),
      inbound: {
        provide:
          'an inbound event waiting for this gateway when the run starts: have the connector buffer one for its tenant (the suite listens for inboundWindowMs after the hello)',
      },
      'buffered-inbound': {
        provide:
          'a buffered inbound event (delivered with a bufferId) waiting for this gateway when the run starts',
      },
    },
    setup: async () => {
      const handshake = await firstHandshake(resolved);
      const capabilities = new Set<string>();
      const descriptor = handshake.descriptor;
      if (descriptor !== undefined) {
        for (const op of OUTBOUND_OPS) if (descriptorSupportsOp(descriptor, op)) capabilities.add(`op:${op}`);
      }
      if (handshake.inbound.length > 0) capabilities.add('inbound');
      if (handshake.ackedBufferIds.length > 0) capabilities.add('buffered-inbound');
      return { ctx: { ...resolved, handshake }, capabilities };
    },
  };
}

function resolveOptions(options: RelayConnectorSuiteOptions): Omit<RelayConnectorContext, 'handshake'> {
  if (options === null || typeof options !== 'object')
    throw new ConformanceError('invalid_relay_live_options', 'options must be an object');
  for (const key of ['url', 'gatewayId', 'secret'] as const) {
    if (typeof options[key] !== 'string' || options[key] === '') {
      throw new ConformanceError('invalid_relay_live_options', `${key} must be a non-empty string`);
    }
  }
  const url = relayWebSocketUrl(options.url);
  if (!/^wss?:\/\//.test(url) || !URL.canParse(url)) {
    throw new ConformanceError(
      'invalid_relay_live_options',
      `url must be a ws(s):// or http(s):// URL, got ${JSON.stringify(options.url)}`,
    );
  }
  return {
    url,
    gatewayId: options.gatewayId,
    secret: options.secret,
    platform: options.platform ?? 'relay',
    botId: options.botId ?? '',
    now: options.now ?? Date.now,
    patienceMs: positiveMs(options.patienceMs, DEFAULT_PATIENCE_MS, 'patienceMs'),
    inboundWindowMs: positiveMs(options.inboundWindowMs, DEFAULT_INBOUND_WINDOW_MS, 'inboundWindowMs'),
  };
}

function positiveMs(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new ConformanceError(
      'invalid_relay_live_options',
      `${name} must be a positive number of milliseconds, got ${String(value)}`,
    );
  }
  return value;
}

type Settings = Omit<RelayConnectorContext, 'handshake'>;

function validTokenHeaders(settings: Settings): Record<string, string> {
  const token = mintRelayToken(settings.gatewayId, settings.secret, { now: settings.now() / 1000 });
  return { Authorization: relayAuthorizationHeader(token) };
}

function helloFrame(settings: Settings): GatewayFrameInput {
  return { type: 'hello', platform: settings.platform, botId: settings.botId };
}

const isDescriptor = (line: ReceivedLine) => lineType(line) === 'descriptor';

/**
 * The platform of the gateway's default identity (`GATEWAY_RELAY_PLATFORMS` unset). The gateway never
 * learns which platform fronts it from the hello (relay contract §1): a connector answers a hello for
 * `relay` with the descriptor of the platform it serves (the relay server's `fallbackPlatform`), so the
 * descriptor names that platform, not `relay`.
 */
const DEFAULT_IDENTITY_PLATFORM = 'relay';

/**
 * Why a hello got no descriptor, said so that the user can act on it: the close that ended the
 * connection (a 4401 names the token's gateway id and secret), or the wait that ran out.
 */
function noDescriptorCause(settings: Settings, closed: WebSocketClose | undefined): string {
  if (closed === undefined) {
    const hint =
      settings.platform === DEFAULT_IDENTITY_PLATFORM
        ? ` for the gateway's default platform "${DEFAULT_IDENTITY_PLATFORM}" (a connector answers it only when it serves "${DEFAULT_IDENTITY_PLATFORM}" or a fallback platform; pass --platform NAME to say hello for the platform it serves)`
        : ` for platform ${formatValue(settings.platform)} (does the connector serve it?)`;
    return `no descriptor within ${settings.patienceMs} ms of the hello${hint}`;
  }
  if (closed.code === RELAY_CLOSE_UNAUTHORIZED) {
    if (closed.reason === RELAY_CLOSE_REASON_EXPIRED) {
      return `the connector closed the connection with ${RELAY_CLOSE_UNAUTHORIZED} (expired) instead of answering the hello: it reads the fresh token as expired: check this machine's clock against the connector's`;
    }
    return `the connector closed the connection with ${RELAY_CLOSE_UNAUTHORIZED} (${closed.reason || 'no reason'}) instead of answering the hello: it refused the token of gateway ${formatValue(settings.gatewayId)}: check --gateway-id / --secret`;
  }
  return `the connector closed the connection (code ${closed.code}, reason ${formatValue(closed.reason)}) instead of answering the hello`;
}

/** Dials with a valid token, says hello, and records the descriptor and the inbound frames that follow. */
async function firstHandshake(settings: Settings): Promise<RelayHandshakeRecord> {
  let probe: GatewayProbe;
  try {
    probe = await GatewayProbe.open(settings.url, validTokenHeaders(settings), settings.patienceMs);
  } catch (error) {
    if (!isConformanceError(error, 'live_connection_failed')) throw error;
    return { refused: error.message, inbound: [], ackedBufferIds: [] };
  }
  try {
    probe.send(helloFrame(settings));
    const descriptorLine = await probe.next(isDescriptor, settings.patienceMs);
    await probe.collect(settings.inboundWindowMs);
    const inbound = probe.lines.filter((line) => lineType(line) === 'inbound');
    const ackedBufferIds: string[] = [];
    for (const line of inbound) {
      const bufferId = line.frame?.type === 'inbound' ? line.frame.bufferId : undefined;
      if (typeof bufferId !== 'string' || bufferId === '' || ackedBufferIds.includes(bufferId)) continue;
      probe.send({ type: 'inbound_ack', bufferId });
      ackedBufferIds.push(bufferId);
    }
    if (ackedBufferIds.length > 0) await probe.collect(ACK_SETTLE_MS);
    const closedEarly = probe.open ? undefined : await probe.closed;
    return {
      ...(closedEarly === undefined ? {} : { closedEarly }),
      ...(descriptorLine === undefined ? {} : { descriptorLine }),
      ...readDescriptor(descriptorLine),
      inbound,
      ackedBufferIds,
    };
  } finally {
    await probe.close();
  }
}

function readDescriptor(line: ReceivedLine | undefined): { descriptor?: CapabilityDescriptor } {
  if (line?.frame?.type !== 'descriptor') return {};
  try {
    return { descriptor: parseDescriptorValue((line.json as { readonly descriptor?: unknown }).descriptor) };
  } catch {
    return {};
  }
}

function authCases(): RelayLiveCase[] {
  const common = { level: 'required', since: RELAY_SUITE_VERSION } as const;
  return [
    {
      ...common,
      id: `${SUITE_NAME}.auth.valid-token-accepted`,
      title: 'an upgrade with a fresh valid token is accepted and kept open',
      section: 'relay-reference §2.2, §11',
      run: (ctx) => {
        const { handshake } = ctx;
        if (handshake.refused !== undefined)
          fail(`an upgrade with a valid token failed: ${handshake.refused}`);
        const closed = handshake.closedEarly;
        if (closed?.code === RELAY_CLOSE_UNAUTHORIZED) {
          fail(`an upgrade with a valid token was refused: ${noDescriptorCause(ctx, closed)}`);
        }
        if (closed !== undefined) {
          fail(
            `the connector closed a connection with a valid token (code ${closed.code}, reason ${formatValue(closed.reason)})`,
          );
        }
      },
    },
    {
      ...common,
      id: `${SUITE_NAME}.auth.missing-token`,
      title: 'an upgrade without a token is closed with 4401 "unauthorized"',
      section: 'relay-reference §12',
      run: (ctx) => expectAuthClose(ctx, {}, 'without a token', RELAY_CLOSE_REASON_UNAUTHORIZED),
    },
    {
      ...common,
      id: `${SUITE_NAME}.auth.wrong-secret`,
      title: 'an upgrade with a token signed by another secret is closed with 4401 "unauthorized"',
      section: 'relay-reference §11.2, §12',
      run: (ctx) => {
        const token = mintRelayToken(ctx.gatewayId, `${ctx.secret}-not-the-secret`, {
          now: ctx.now() / 1000,
        });
        return expectAuthClose(
          ctx,
          { Authorization: relayAuthorizationHeader(token) },
          'with a token signed by a wrong secret',
          RELAY_CLOSE_REASON_UNAUTHORIZED,
        );
      },
    },
    {
      ...common,
      id: `${SUITE_NAME}.auth.expired-token`,
      title: 'an upgrade with an expired token is closed with 4401 "expired"',
      section: 'relay-reference §11.2, §12',
      run: (ctx) => {
        const token = mintRelayToken(ctx.gatewayId, ctx.secret, {
          now: ctx.now() / 1000 - EXPIRED_BY_SECONDS,
          ttlSeconds: 300,
        });
        return expectAuthClose(
          ctx,
          { Authorization: relayAuthorizationHeader(token) },
          'with a token that expired an hour ago',
          RELAY_CLOSE_REASON_EXPIRED,
        );
      },
    },
  ];
}

async function expectAuthClose(
  ctx: RelayConnectorContext,
  headers: Record<string, string>,
  what: string,
  reason: string,
): Promise<void> {
  const expected = `close ${RELAY_CLOSE_UNAUTHORIZED} ${formatValue(reason)}`;
  let probe: GatewayProbe;
  try {
    probe = await GatewayProbe.open(ctx.url, headers, ctx.patienceMs);
  } catch (error) {
    if (!isConformanceError(error, 'live_connection_failed')) throw error;
    fail(`an upgrade ${what}: ${error.message}; expected the upgrade accepted, then ${expected}`, error);
  }
  try {
    probe.send(helloFrame(ctx));
    const closed = await probe.waitClosed(ctx.patienceMs);
    if (closed === undefined) {
      const answered = probe.lines.some(isDescriptor) ? ' and answered its hello with a descriptor' : '';
      fail(
        `the connector accepted an upgrade ${what}${answered}: still open after ${ctx.patienceMs} ms; expected ${expected}`,
      );
    }
    assertEqual(closed.code, RELAY_CLOSE_UNAUTHORIZED, `close code of an upgrade ${what}`);
    assertEqual(closed.reason, reason, `close reason of an upgrade ${what}`);
  } finally {
    await probe.close();
  }
}

function descriptorCase(): RelayLiveCase {
  return {
    id: `${SUITE_NAME}.hello.descriptor`,
    title:
      'a hello is answered with a well-typed descriptor naming the hello’d platform (any, for the default "relay")',
    section: 'relay-reference §2.4, §3',
    level: 'required',
    since: RELAY_SUITE_VERSION,
    run: (ctx) => {
      const { handshake } = ctx;
      if (handshake.refused !== undefined) fail(`no connection to say hello on: ${handshake.refused}`);
      const line = handshake.descriptorLine;
      if (line === undefined) fail(noDescriptorCause(ctx, handshake.closedEarly));
      if (line.error !== undefined)
        fail(`the descriptor frame does not decode: ${line.error.message}; line ${quoteLine(line)}`);
      const wire = (line.json as { readonly descriptor?: unknown }).descriptor;
      const typeErrors = descriptorTypeErrors(wire);
      if (typeErrors.length > 0) fail(`the descriptor is mistyped: ${typeErrors.join('; ')}`);
      let descriptor: CapabilityDescriptor;
      try {
        descriptor = parseDescriptorValue(wire);
      } catch (error) {
        fail(`parseDescriptor refuses the descriptor: ${(error as Error).message}`, error);
      }
      if (ctx.platform !== DEFAULT_IDENTITY_PLATFORM) {
        assertEqual(descriptor.platform, ctx.platform, 'descriptor.platform after a hello for that platform');
      } else if (descriptor.platform === '') {
        fail(
          `the descriptor answering a hello for "${DEFAULT_IDENTITY_PLATFORM}" names no platform; expected the platform the connector serves`,
        );
      }
    },
  };
}

/** Sends one outbound action on `probe` and returns the `result` of its well-formed answer. */
async function exchange(
  ctx: RelayConnectorContext,
  probe: GatewayProbe,
  action: OutboundActionInput,
  label: string,
): Promise<Record<string, unknown>> {
  const requestId = newRequestId();
  const from = probe.lines.length;
  probe.send({ type: 'outbound', requestId, action });
  const answer = await probe.next((line) => lineType(line) === 'outbound_result', ctx.patienceMs, from);
  if (answer === undefined) {
    const ended = probe.open ? '' : ' (the connection closed)';
    fail(`no outbound_result for ${label} (requestId ${requestId}) within ${ctx.patienceMs} ms${ended}`);
  }
  if (answer.error !== undefined || answer.frame?.type !== 'outbound_result') {
    fail(
      `the answer to ${label} (requestId ${requestId}) is not a valid outbound_result: ${answer.error?.message ?? 'not decodable'}; line ${quoteLine(answer)}`,
    );
  }
  if (answer.frame.requestId !== requestId) {
    fail(
      `${label} was sent with requestId ${requestId} but answered with requestId ${formatValue(answer.frame.requestId)}`,
    );
  }
  return answer.frame.result;
}

/** Dials with a valid token, says hello and waits for the descriptor, then runs `body`; always closes. */
async function withSession<T>(
  ctx: RelayConnectorContext,
  body: (probe: GatewayProbe) => Promise<T>,
): Promise<T> {
  const probe = await openOrFail(
    ctx.url,
    validTokenHeaders(ctx),
    ctx.patienceMs,
    'an upgrade with a valid token',
  );
  try {
    probe.send(helloFrame(ctx));
    if ((await probe.next(isDescriptor, ctx.patienceMs)) === undefined) {
      fail(noDescriptorCause(ctx, probe.open ? undefined : await probe.closed));
    }
    return await body(probe);
  } finally {
    await probe.close();
  }
}

function opCase(op: OutboundOp): RelayLiveCase {
  return {
    id: `${SUITE_NAME}.outbound.${op}`,
    title: `an advertised ${op} is answered with an outbound_result carrying its requestId and a ${op} result`,
    section: 'relay-reference §2.4, §7.2',
    level: 'required',
    since: RELAY_SUITE_VERSION,
    requires: `op:${op}`,
    run: (ctx) =>
      withSession(ctx, async (probe) => {
        const result = await exchange(ctx, probe, SAMPLE_ACTIONS[op] as OutboundActionInput, op);
        try {
          decodeOpResult(op, result);
        } catch (error) {
          fail(`malformed ${op} result ${formatValue(result)}: ${(error as Error).message}`, error);
        }
      }),
  };
}

const unsupportedAction: OutboundActionInput = {
  op: 'unknown',
  rawOp: UNSUPPORTED_OP,
  raw: { op: UNSUPPORTED_OP, chat_id: 'agentwire-conformance-chat', metadata: {} },
};

function unsupportedOpCase(): RelayLiveCase {
  return {
    id: `${SUITE_NAME}.outbound.unsupported-op`,
    title: 'an op the connector does not support is answered with success: false, not silence',
    section: 'relay-reference §7.2',
    level: 'required',
    since: RELAY_SUITE_VERSION,
    run: (ctx) =>
      withSession(ctx, async (probe) => {
        const result = await exchange(ctx, probe, unsupportedAction, `the unsupported op ${UNSUPPORTED_OP}`);
        if (result['success'] !== false) {
          fail(
            `the unsupported op ${UNSUPPORTED_OP} was answered with ${formatValue(result)}; expected success: false`,
          );
        }
      }),
  };
}

function inboundCase(): RelayLiveCase {
  return {
    id: `${SUITE_NAME}.inbound.valid`,
    title: 'inbound frames decode, carry the always-present keys (scope_id on Slack), and give a session key',
    section: 'relay-reference §2.4, §4, §6',
    level: 'required',
    since: RELAY_SUITE_VERSION,
    requires: 'inbound',
    run: ({ handshake }) => {
      const problems = handshake.inbound.flatMap(inboundProblems);
      if (problems.length > 0) fail(problems.join('; '));
    },
  };
}

function redeliveryCase(): RelayLiveCase {
  return {
    id: `${SUITE_NAME}.inbound.no-redelivery-after-ack`,
    title: 'a buffered inbound frame acknowledged with inbound_ack is not delivered again',
    section: 'relay-reference §2.4, §2.6',
    level: 'required',
    since: RELAY_SUITE_VERSION,
    requires: 'buffered-inbound',
    run: (ctx) =>
      withSession(ctx, async (probe) => {
        await probe.collect(ctx.inboundWindowMs);
        const acked = new Set(ctx.handshake.ackedBufferIds);
        const again = probe.lines.flatMap((line) => {
          const bufferId = line.frame?.type === 'inbound' ? line.frame.bufferId : undefined;
          return typeof bufferId === 'string' && acked.has(bufferId) ? [bufferId] : [];
        });
        if (again.length > 0) {
          fail(
            `bufferId ${[...new Set(again)].join(', ')} delivered again on a new connection after its inbound_ack`,
          );
        }
      }),
  };
}

function interruptCase(): RelayLiveCase {
  return {
    id: `${SUITE_NAME}.interrupt.connection-survives`,
    title: 'after an interrupt frame the connection stays open and still answers outbound frames',
    section: 'relay-reference §2.4, §8',
    level: 'required',
    since: RELAY_SUITE_VERSION,
    run: (ctx) =>
      withSession(ctx, async (probe) => {
        probe.send({
          type: 'interrupt',
          session_key: `agent:main:${ctx.platform}:dm:agentwire-conformance-chat`,
          reason: 'agentwire conformance',
        });
        await exchange(ctx, probe, unsupportedAction, 'an outbound sent after the interrupt');
        if (!probe.open) fail('the connector closed the connection after an interrupt');
      }),
  };
}
