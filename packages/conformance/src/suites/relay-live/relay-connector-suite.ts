import {
  buildSessionKey,
  type CapabilityDescriptor,
  decodeOpResult,
  descriptorSupportsOp,
  encodeFrame,
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
import { RELAY_LIVE_SUITE_VERSION, RELAY_SUITE_VERSION } from '../relay/suite-version.js';
import { chatRoutingCases } from './chat-routing-cases.js';
import { GatewayProbe, lineType, openOrFail, quoteLine, type ReceivedLine } from './gateway-probe.js';
import { peerLimitCases } from './peer-limit-cases.js';
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
  /**
   * The connector's platform succeeds at every advertised op on the suite's test chat (a test connector
   * whose platform echoes): the `outbound.<op>.succeeds` cases then require `success: true` and the ids
   * the gateway goes on with. Default `false` (a real platform refuses the suite's made-up chat).
   */
  readonly opsSucceed?: boolean;
  /**
   * The `message_id`s of the inbound events the connector buffered for this gateway before the run, in
   * the order they were buffered, when nothing else reaches the buffer during the run: the
   * `inbound.buffer-drained-in-order` case then requires the first connection to get exactly these, in
   * this order, each once.
   */
  readonly bufferedMessageIds?: readonly string[];
  /**
   * How long `connection.survives-idle` keeps a connection without frames, in milliseconds: above two of
   * the connector's ping intervals, it checks that a gateway answering pings is not dropped. The case
   * runs only when it is given.
   */
  readonly idleMs?: number;
  /**
   * The connector's own controls, called during the run: a test connector wires them to its server
   * (the bundled one to `RelayServer.deliverInbound`, `deliverInterrupt` and `revoke`). Enables the
   * `operator.*` cases.
   */
  readonly operator?: RelayConnectorOperator;
  /**
   * Chats of the suite's `send` on which a test connector's platform misbehaves: enables the
   * `outbound.platform-*` cases, which require an answer of `success: false` with an error text under the
   * call's `requestId` and a connection that goes on serving.
   */
  readonly faults?: RelayConnectorFaults;
  /**
   * A second gateway the connector knows (best of another tenant), which the suite's revocation must
   * not touch: with `operator`, enables `operator.revoke-spares-other-gateways`.
   */
  readonly otherGateway?: { readonly gatewayId: string; readonly secret: string };
  /**
   * The per-connection bounds the connector holds a gateway to: enables the `limits.*` cases, which
   * pass each bound by one and require the connection to be served up to it and dropped past it, and
   * (with `operator`) the `flow.*` cases, which stall the suite's reader while events are delivered.
   */
  readonly limits?: RelayConnectorLimits;
  /**
   * A second platform the connector serves to the suite's gateway (its adapter succeeding as the first's
   * does, `opsSucceed`), for which the suite says hello after the first: with the operator's
   * `platformCalls` naming each call's `platform`, enables the `chat-routing.*` cases — frames without a
   * platform (`get_chat_info`, `follow_up`, `interrupt`) sent to the platform their chat lives on.
   */
  readonly secondPlatform?: string;
}

/** See {@link RelayConnectorSuiteOptions.faults}. */
export interface RelayConnectorFaults {
  /** The platform fails every op on this chat (it throws, or reports an error). */
  readonly throwingChatId: string;
  /** The platform answers every op on this chat with something that is not the op's result. */
  readonly malformedChatId: string;
  /** The platform never answers an op on this chat. */
  readonly hangingChatId: string;
  /** How long the connector waits for its platform before it answers a call as failed, in milliseconds. */
  readonly outboundTimeoutMs: number;
}

/**
 * The bounds a connector puts on one gateway connection ({@link RelayConnectorSuiteOptions.limits}),
 * as it states them: the suite holds it to each. Small bounds keep the cases quick.
 */
export interface RelayConnectorLimits {
  /**
   * Lines one connection may have refused (malformed lines, hellos for platforms the connector does
   * not serve) and still be served; the next one drops it (close 1008).
   */
  readonly refusedLines: number;
  /**
   * Distinct `(platform, botId)` identities one connection may say hello for; a repeated hello of a
   * known one is answered again and not counted; one more distinct drops the connection (close 1008).
   */
  readonly identities: number;
  /**
   * Outbound calls one connection may have running at once; one more is answered at once with
   * `success: false` and an error text, without waiting for the running ones.
   */
  readonly runningCalls: number;
  /**
   * Bytes sent to the gateway and not yet taken by its socket above which the connector stops reading
   * the gateway and waits (replay included) until the backlog drains.
   */
  readonly backlogBytes: number;
  /** Backlog above which the connection is dropped at once (at least `backlogBytes`). */
  readonly dropBacklogBytes: number;
  /**
   * How long the backlog may stay above `backlogBytes` with nothing taken by the gateway before the
   * connection is dropped, in milliseconds.
   */
  readonly drainTimeoutMs: number;
  /**
   * Frames that start work and answer nothing (`inbound_ack`, `interrupt`) one connection may have
   * running before the connector stops reading it until some finish; a connector without such a bound
   * states any number (the case sends a few more than it in one message, then an outbound).
   */
  readonly unansweredFrames: number;
}

/**
 * What a connector's operator does, as the suite calls it during a run
 * ({@link RelayConnectorSuiteOptions.operator}); each call resolves once the connector has taken it.
 */
export interface RelayConnectorOperator {
  /**
   * Delivers `event`, a wire `event` object as the gateway reads it, to the suite's gateway: sent now when
   * the gateway is connected, buffered until it connects otherwise.
   */
  deliverInbound(event: Readonly<Record<string, unknown>>): Promise<unknown>;
  /** Tells the connected gateway to stop the turn of `sessionKey` and clear typing in `chatId` (`interrupt_inbound`). */
  interruptInbound(sessionKey: string, chatId: string): Promise<unknown>;
  /**
   * Drops the gateway's live connections as a revocation does (close 4401). Revoke the connections
   * only: the suite dials again with the same secret afterwards.
   */
  revokeConnections(): Promise<unknown>;
  /**
   * The calls the connector's platform received for the outbound frame `requestId`, in the order it
   * received them (none when it received none). Optional: a test connector that records its platform's
   * calls enables the `outbound.<op>.reaches-platform` cases, which require exactly one call of the
   * frame's op carrying every field of the action the gateway sent.
   */
  platformCalls?(requestId: string): readonly RelayPlatformCall[] | Promise<readonly RelayPlatformCall[]>;
  /**
   * Binds a `follow_up` capability of `kind` for the session `sessionKey` to the suite's gateway (its
   * tenant), as the connector does when its platform hands it one. Optional: enables
   * `operator.follow-up-bound`, which requires the gateway's `follow_up` for that session and kind to
   * succeed (with `platformCalls`, to reach the platform as a `follow_up`).
   */
  bindFollowUp?(sessionKey: string, kind: string): Promise<unknown>;
  /**
   * The interrupts the connector's platforms were told of for `sessionKey`, in order. Optional: with
   * `secondPlatform`, enables `chat-routing.interrupt-to-chat-platform`.
   */
  platformInterrupts?(
    sessionKey: string,
  ): readonly RelayPlatformInterrupt[] | Promise<readonly RelayPlatformInterrupt[]>;
}

/** One interrupt a test connector's platform was told of ({@link RelayConnectorOperator.platformInterrupts}). */
export interface RelayPlatformInterrupt {
  /** The platform whose adapter was told. */
  readonly platform: string;
  /** The chat it was told to stop in, when the connector gave one. */
  readonly chatId?: string;
}

/** One call a test connector's platform received ({@link RelayConnectorOperator.platformCalls}). */
export interface RelayPlatformCall {
  /** The op, as the gateway names it (`send`, `edit`, …). */
  readonly op: string;
  /** The platform whose adapter received it (needed by the `chat-routing.*` cases). */
  readonly platform?: string;
  /** The action the platform was given, with the gateway's field names (`chat_id`, `content`, …). */
  readonly action: Readonly<Record<string, unknown>>;
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
  /** What the connector had sent after its last newline when the suite closed the connection. */
  readonly unterminated?: string;
  /** The UTF-8 size of the largest WebSocket message the connector sent on it, in bytes. */
  readonly largestMessageBytes?: number;
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
  readonly opsSucceed: boolean;
  readonly bufferedMessageIds: readonly string[] | undefined;
  readonly idleMs: number | undefined;
  readonly operator: RelayConnectorOperator | undefined;
  readonly faults: RelayConnectorFaults | undefined;
  readonly limits: RelayConnectorLimits | undefined;
  readonly otherGateway: RelayConnectorSuiteOptions['otherGateway'];
  readonly secondPlatform: string | undefined;
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

// What the cases of peer-limit-cases.ts build on.
export type { RelayLiveCase };
export {
  answerTo,
  exchange,
  helloFrame,
  inboundMessageId,
  isDescriptor,
  operatorEvent,
  receiveEvents,
  SUITE_NAME,
  since11,
  since12,
  UNSERVED_PLATFORM,
  unsupportedAction,
  withSession,
};

/**
 * A black-box suite for a live relay connector: it plays the gateway over WebSocket (contract §2) and
 * checks upgrade auth (a valid token accepted; none, a wrong secret and an expired token closed with
 * 4401 `unauthorized` / `expired`, §11–§12), the descriptor answering a `hello` (§3), an
 * `outbound_result` with the same `requestId` and a well-formed result for every op the descriptor
 * advertises (§7.2), `success: false` for an unsupported op, the `inbound` frames the connector sends
 * within a short window (§4: decodable, always-present keys, a derivable session key, `scope_id` on Slack),
 * no redelivery after `inbound_ack` (§2.6), and a connection that survives an `interrupt` (§8).
 * Since 1.1.0 also (suite version 1.1.0 of `relay.live`) the routing of outbound frames to hello'd
 * identities (§18.6, §20.4), NDJSON framing both ways (§2.3), `going_idle_ack`, the replacement of an
 * older connection (§20.2) and robustness to odd but possible frames; with `opsSucceed`,
 * `bufferedMessageIds` or `idleMs`, results with their ids, the drained buffer, and pings.
 *
 * Capabilities, found on the first connection: `op:<op>` for each op the descriptor supports,
 * `inbound` when the connector sent inbound frames, `buffered-inbound` when some carried a `bufferId`;
 * `ops-succeed`, `known-buffer` and `idle-window` from the options `opsSucceed`, `bufferedMessageIds`
 * and `idleMs`; `faults`, `operator`, `limits` and `other-gateway` from the options of those names, and
 * `platform-calls` and `follow-up-binding` from the optional operator members `platformCalls` and
 * `bindFollowUp`.
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
    version: RELAY_LIVE_SUITE_VERSION,
    description:
      'A live relay connector, driven over WebSocket by a gateway: auth, hello/descriptor, outbound ops, inbound frames, acks and interrupts.',
    cases: [
      ...authCases(),
      descriptorCase(),
      ...OUTBOUND_OPS.map(opCase),
      unsupportedOpCase(),
      inboundCase(),
      drainedInOrderCase(),
      redeliveryCase(),
      interruptCase(),
      descriptorPerHelloCase(),
      unservedHelloCase(),
      ...routingCases(),
      framingCase(),
      terminatedLinesCase(),
      messageSizeCase(),
      malformedOutboundCase(),
      goingIdleCase(),
      replacementCase(),
      interruptBeforeHelloCase(),
      survivesIdleCase(),
      oversizedMessageCase(),
      ...SUCCEEDING_OPS.map(succeedsCase),
      ...SUCCEEDING_OPS.map(reachesPlatformCase),
      routedSucceedsCase(),
      sequentialCallsCase(),
      unboundFollowUpCase(),
      unansweredPingsCase(),
      ...faultCases(),
      ...operatorCases(),
      goingIdleBuffersCase(),
      goingIdleBeforeHelloCase(),
      revokeSparesOthersCase(),
      idleHelloKeepsSessionCase(),
      lateHelloKeepsSessionCase(),
      boundFollowUpCase(),
      ...peerLimitCases(),
      ...chatRoutingCases(),
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
      'idle-window': {
        provide: 'idleMs: longer than two of the connector’s ping intervals',
      },
      'known-buffer': {
        provide:
          'bufferedMessageIds: the message_ids of the inbound events buffered for this gateway before the run, in order (nothing else reaching the buffer during it)',
      },
      faults: {
        provide:
          'faults: the chats on which a test connector’s platform throws, answers a malformed result, or never answers, and the connector’s outbound timeout',
      },
      operator: {
        provide:
          'operator: deliverInbound, interruptInbound and revokeConnections wired to the connector (a test connector in the same process)',
      },
      'other-gateway': {
        provide: 'otherGateway: the id and secret of a second gateway the connector knows',
      },
      'follow-up-binding': {
        provide:
          'operator.bindFollowUp: binds a follow_up capability of a kind for a session to the suite’s gateway',
      },
      'platform-calls': {
        provide:
          'operator.platformCalls: the calls a test connector’s platform received for a requestId, as it received them',
      },
      'ops-succeed': {
        provide:
          'opsSucceed: true, for a test connector whose platform succeeds at every op it advertises on the suite’s test chat',
      },
      'second-platform': {
        provide:
          'secondPlatform: a second platform the connector serves to the suite’s gateway (with operator.platformCalls naming each call’s platform)',
      },
      'platform-interrupts': {
        provide:
          'operator.platformInterrupts: the interrupts a test connector’s platforms were told of, per session',
      },
      limits: {
        provide:
          'limits: the connector’s per-connection bounds (refused lines, identities, running calls, send backlog, drop backlog and drain timeout), set small for a test connector so the cases stay quick',
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
      if (resolved.opsSucceed) capabilities.add('ops-succeed');
      if (resolved.bufferedMessageIds !== undefined) capabilities.add('known-buffer');
      if (resolved.idleMs !== undefined) capabilities.add('idle-window');
      if (resolved.operator !== undefined) capabilities.add('operator');
      if (resolved.operator?.platformCalls !== undefined) capabilities.add('platform-calls');
      if (resolved.operator?.bindFollowUp !== undefined) capabilities.add('follow-up-binding');
      if (resolved.faults !== undefined) capabilities.add('faults');
      if (resolved.otherGateway !== undefined) capabilities.add('other-gateway');
      if (resolved.limits !== undefined) capabilities.add('limits');
      if (resolved.secondPlatform !== undefined) capabilities.add('second-platform');
      if (resolved.operator?.platformInterrupts !== undefined) capabilities.add('platform-interrupts');
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
    opsSucceed: options.opsSucceed === true,
    bufferedMessageIds: bufferedIds(options.bufferedMessageIds),
    idleMs: options.idleMs === undefined ? undefined : positiveMs(options.idleMs, 0, 'idleMs'),
    operator: checkedOperator(options.operator),
    faults: checkedFaults(options.faults),
    limits: checkedLimits(options.limits),
    otherGateway: checkedOtherGateway(options.otherGateway),
    secondPlatform: checkedSecondPlatform(options.secondPlatform, options.platform ?? 'relay'),
  };
}

function checkedSecondPlatform(second: unknown, first: string): string | undefined {
  if (second === undefined) return undefined;
  if (typeof second !== 'string' || second === '' || second === first) {
    throw new ConformanceError(
      'invalid_relay_live_options',
      'secondPlatform must be a non-empty platform name other than platform',
    );
  }
  return second;
}

function checkedOtherGateway(
  other: RelayConnectorSuiteOptions['otherGateway'],
): RelayConnectorSuiteOptions['otherGateway'] {
  if (other === undefined) return undefined;
  if (
    other === null ||
    typeof other !== 'object' ||
    typeof other.gatewayId !== 'string' ||
    other.gatewayId === '' ||
    typeof other.secret !== 'string' ||
    other.secret === ''
  ) {
    throw new ConformanceError(
      'invalid_relay_live_options',
      'otherGateway must name a non-empty gatewayId and secret',
    );
  }
  return { gatewayId: other.gatewayId, secret: other.secret };
}

function checkedFaults(faults: RelayConnectorFaults | undefined): RelayConnectorFaults | undefined {
  if (faults === undefined) return undefined;
  const chats = ['throwingChatId', 'malformedChatId', 'hangingChatId'] as const;
  if (
    faults === null ||
    typeof faults !== 'object' ||
    chats.some((name) => typeof faults[name] !== 'string' || faults[name] === '')
  ) {
    throw new ConformanceError(
      'invalid_relay_live_options',
      `faults must name non-empty chat ids ${chats.join(', ')}`,
    );
  }
  return {
    ...faults,
    outboundTimeoutMs: positiveMs(faults.outboundTimeoutMs, 0, 'faults.outboundTimeoutMs'),
  };
}

function checkedLimits(limits: RelayConnectorLimits | undefined): RelayConnectorLimits | undefined {
  if (limits === undefined) return undefined;
  const counts = [
    'refusedLines',
    'identities',
    'runningCalls',
    'backlogBytes',
    'dropBacklogBytes',
    'drainTimeoutMs',
    'unansweredFrames',
  ] as const;
  if (
    limits === null ||
    typeof limits !== 'object' ||
    counts.some((name) => !Number.isSafeInteger(limits[name]) || limits[name] <= 0)
  ) {
    throw new ConformanceError(
      'invalid_relay_live_options',
      `limits must give ${counts.join(', ')} as positive integers`,
    );
  }
  if (limits.dropBacklogBytes < limits.backlogBytes) {
    throw new ConformanceError(
      'invalid_relay_live_options',
      `limits.dropBacklogBytes (${limits.dropBacklogBytes}) must be at least limits.backlogBytes (${limits.backlogBytes})`,
    );
  }
  return Object.fromEntries(counts.map((name) => [name, limits[name]])) as unknown as RelayConnectorLimits;
}

function checkedOperator(operator: RelayConnectorOperator | undefined): RelayConnectorOperator | undefined {
  if (operator === undefined) return undefined;
  const members = ['deliverInbound', 'interruptInbound', 'revokeConnections'] as const;
  if (
    operator === null ||
    typeof operator !== 'object' ||
    members.some((name) => typeof operator[name] !== 'function') ||
    (['platformCalls', 'bindFollowUp', 'platformInterrupts'] as const).some(
      (name) => operator[name] !== undefined && typeof operator[name] !== 'function',
    )
  ) {
    throw new ConformanceError(
      'invalid_relay_live_options',
      `operator must be an object with the methods ${members.join(', ')} (and optionally platformCalls, bindFollowUp, platformInterrupts)`,
    );
  }
  return operator;
}

function bufferedIds(ids: readonly string[] | undefined): readonly string[] | undefined {
  if (ids === undefined) return undefined;
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || id === '')) {
    throw new ConformanceError(
      'invalid_relay_live_options',
      'bufferedMessageIds must be a list of non-empty strings',
    );
  }
  return [...ids];
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
      unterminated: probe.unterminated,
      largestMessageBytes: probe.largestMessageBytes,
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

/** The frame `platform` and `botId` an outbound names (absent when the gateway does not know the chat). */
interface OutboundRoute {
  readonly platform?: string;
  readonly botId?: string;
}

/** Sends one outbound action on `probe` and returns the `result` of its well-formed answer. */
async function exchange(
  ctx: RelayConnectorContext,
  probe: GatewayProbe,
  action: OutboundActionInput,
  label: string,
  route: OutboundRoute = {},
): Promise<Record<string, unknown>> {
  const requestId = newRequestId();
  const from = probe.lines.length;
  probe.send({ type: 'outbound', requestId, action, ...route });
  return answerTo(ctx, probe, requestId, label, from);
}

/**
 * The `result` of the well-formed `outbound_result` answering `requestId` among the lines from index
 * `from` on; fails when none comes within the patience, or the answer is not one.
 */
async function answerTo(
  ctx: RelayConnectorContext,
  probe: GatewayProbe,
  requestId: string,
  label: string,
  from: number,
): Promise<Record<string, unknown>> {
  const answer = await probe.next(
    // An answer naming another request is skipped (several may be in flight); one naming none is this one.
    (line) =>
      lineType(line) === 'outbound_result' &&
      (answerRequestId(line) === requestId || typeof answerRequestId(line) !== 'string'),
    ctx.patienceMs,
    from,
  );
  if (answer === undefined) {
    const other = probe.lines.slice(from).find((line) => lineType(line) === 'outbound_result');
    if (other !== undefined && answerRequestId(other) !== requestId) {
      fail(
        `${label} was sent with requestId ${requestId} but answered with requestId ${formatValue(answerRequestId(other))}`,
      );
    }
    const ended = probe.open ? '' : ' (the connection closed)';
    fail(`no outbound_result for ${label} (requestId ${requestId}) within ${ctx.patienceMs} ms${ended}`);
  }
  if (answer.error !== undefined || answer.frame?.type !== 'outbound_result') {
    fail(
      `the answer to ${label} (requestId ${requestId}) is not a valid outbound_result: ${answer.error?.message ?? 'not decodable'}; line ${quoteLine(answer)}`,
    );
  }
  return answer.frame.result;
}

/** The `requestId` an `outbound_result` line names, as sent (decoded or not). */
function answerRequestId(line: ReceivedLine): unknown {
  const json = line.json as { readonly requestId?: unknown } | null | undefined;
  return typeof json === 'object' && json !== null ? json.requestId : undefined;
}

/** Dials with a valid token (`what` names the upgrade in a failure) and runs `body`; always closes. */
async function withConnection<T>(
  ctx: RelayConnectorContext,
  body: (probe: GatewayProbe) => Promise<T>,
  what = 'an upgrade with a valid token',
): Promise<T> {
  const probe = await openOrFail(ctx.url, validTokenHeaders(ctx), ctx.patienceMs, what);
  try {
    return await body(probe);
  } finally {
    await probe.close();
  }
}

/** Says hello on `probe` and waits for the descriptor; fails when none comes. */
async function greet(ctx: RelayConnectorContext, probe: GatewayProbe): Promise<void> {
  probe.send(helloFrame(ctx));
  if ((await probe.next(isDescriptor, ctx.patienceMs)) === undefined) {
    fail(noDescriptorCause(ctx, probe.open ? undefined : await probe.closed));
  }
}

/** Dials with a valid token, says hello and waits for the descriptor, then runs `body`; always closes. */
async function withSession<T>(
  ctx: RelayConnectorContext,
  body: (probe: GatewayProbe) => Promise<T>,
): Promise<T> {
  return withConnection(ctx, async (probe) => {
    await greet(ctx, probe);
    return body(probe);
  });
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

const since11 = { level: 'required', since: '1.1.0' } as const;
/** The cases `relay.live` 1.2.0 added (the chat routing of frames without a platform). */
const since12 = { level: 'required', since: RELAY_LIVE_SUITE_VERSION } as const;

/** The `send` the routing cases target a platform or bot with. */
const routedSend = SAMPLE_ACTIONS.send as OutboundActionInput;

/** A platform no gateway announces: an outbound naming it must be refused. */
const UNANNOUNCED_PLATFORM = 'agentwire-conformance-unannounced';

function descriptorPerHelloCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.hello.descriptor-per-hello`,
    title: 'every hello on a connection is answered with its own descriptor, a repeated one too',
    section: 'relay-reference §2.4, §18.7',
    run: (ctx) =>
      withSession(ctx, async (probe) => {
        const from = probe.lines.length;
        probe.send({
          type: 'hello',
          platform: ctx.platform,
          botId: `${ctx.botId}agentwire-conformance-second-bot`,
        });
        probe.send(helloFrame(ctx));
        const count = () => probe.lines.slice(from).filter(isDescriptor).length;
        await probe.next(() => count() >= 2, ctx.patienceMs, from);
        if (count() < 2) {
          fail(
            `two more hellos (another botId, then the first hello again) got ${count()} descriptor(s) within ${ctx.patienceMs} ms; expected one per hello`,
          );
        }
      }),
  };
}

/** Fails unless `result` reports a failure with an error text (which the gateway shows the user). */
export function expectRefused(result: Record<string, unknown>, label: string): void {
  if (result['success'] !== false) {
    fail(`${label} was answered with ${formatValue(result)}; expected success: false`);
  }
  if (typeof result['error'] !== 'string' || result['error'] === '') {
    fail(
      `${label} was answered with ${formatValue(result)}: success: false without an error text, which the gateway shows the user`,
    );
  }
}

function routingCases(): RelayLiveCase[] {
  return [
    {
      ...since11,
      id: `${SUITE_NAME}.outbound.unannounced-platform-refused`,
      title: 'an outbound naming a platform no hello announced is answered with success: false',
      section: 'relay-reference §7.1, §18.6, §20.4',
      run: (ctx) =>
        withSession(ctx, async (probe) => {
          const label = `a send for platform "${UNANNOUNCED_PLATFORM}", never announced in a hello`;
          const result = await exchange(ctx, probe, routedSend, label, { platform: UNANNOUNCED_PLATFORM });
          expectRefused(result, label);
        }),
    },
    {
      ...since11,
      id: `${SUITE_NAME}.outbound.unannounced-bot-refused`,
      title:
        'an outbound naming the hello’d platform with a botId no hello announced is answered with success: false',
      section: 'relay-reference §2.4, §18.6',
      run: (ctx) =>
        withSession(ctx, async (probe) => {
          const botId = `${ctx.botId}agentwire-conformance-other-bot`;
          const label = `a send for platform ${formatValue(ctx.platform)} and botId ${formatValue(botId)}, never announced in a hello`;
          const result = await exchange(ctx, probe, routedSend, label, { platform: ctx.platform, botId });
          expectRefused(result, label);
        }),
    },
    {
      ...since11,
      id: `${SUITE_NAME}.outbound.before-hello`,
      title:
        'an outbound on a connection that said no hello yet is answered with success: false, not silence',
      section: 'relay-reference §2.4, §18.5',
      run: async (ctx) => {
        await withConnection(ctx, async (probe) => {
          const label = 'a send before any hello';
          const result = await exchange(ctx, probe, routedSend, label);
          expectRefused(result, label);
        });
      },
    },
  ];
}

function framingCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.framing.batched-and-split`,
    title:
      'outbound frames batched in one message, and one frame split across three messages, are each answered once',
    section: 'relay-reference §2.3',
    run: (ctx) =>
      withSession(ctx, async (probe) => {
        const requestIds = [newRequestId(), newRequestId(), newRequestId(), newRequestId(), newRequestId()];
        const [first, second, third, fourth, fifth] = requestIds.map((requestId) =>
          encodeFrame({ type: 'outbound', requestId, action: unsupportedAction }, { style: 'python' }),
        ) as [string, string, string, string, string];
        const [cut, secondCut] = [Math.floor(third.length / 3), Math.floor((2 * third.length) / 3)];
        const from = probe.lines.length;
        probe.sendText(first + second + third.slice(0, cut));
        // A message holding no newline at all: the middle of a frame.
        probe.sendText(third.slice(cut, secondCut));
        probe.sendText(third.slice(secondCut));
        // A message of whole frames only, ending in a newline.
        probe.sendText(fourth + fifth);
        const labels = [
          'the first of two frames in one message',
          'the second of two frames in one message',
          'a frame split across three messages',
          'the first of two whole frames in one message',
          'the second of two whole frames in one message',
        ];
        for (const [index, requestId] of requestIds.entries()) {
          await answerTo(ctx, probe, requestId, labels[index] as string, from);
        }
        // Answers come in order: once a later call is answered, a second answer to any of these would be in.
        await exchange(ctx, probe, unsupportedAction, 'an outbound after the batched and split frames');
        for (const [index, requestId] of requestIds.entries()) {
          const answers = probe.lines
            .slice(from)
            .filter((line) => lineType(line) === 'outbound_result' && answerRequestId(line) === requestId);
          if (answers.length !== 1)
            fail(`${labels[index]} was answered ${answers.length} times; expected once`);
        }
      }),
  };
}

function malformedOutboundCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.outbound.malformed-answered`,
    title: 'an outbound whose action is malformed is still answered under its requestId, with success: false',
    section: 'relay-reference §2.4, §18.5',
    run: (ctx) =>
      withSession(ctx, async (probe) => {
        const requestId = newRequestId();
        const from = probe.lines.length;
        // A send without chat_id and content: its requestId is all the connector can answer.
        probe.sendText(`{"type": "outbound", "requestId": "${requestId}", "action": {"op": "send"}}\n`);
        const label = 'a send without chat_id and content';
        const result = await answerTo(ctx, probe, requestId, label, from);
        expectRefused(result, label);
      }),
  };
}

function goingIdleCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.going-idle.acknowledged`,
    title: 'a going_idle is answered with going_idle_ack',
    section: 'relay-reference §2.4, §2.6',
    run: (ctx) =>
      withSession(ctx, async (probe) => {
        const from = probe.lines.length;
        probe.send({ type: 'going_idle' });
        const ack = await probe.next((line) => lineType(line) === 'going_idle_ack', ctx.patienceMs, from);
        if (ack === undefined) fail(`no going_idle_ack within ${ctx.patienceMs} ms of a going_idle`);
        if (ack.error !== undefined) fail(`the going_idle_ack does not decode: ${ack.error.message}`);
      }),
  };
}

function replacementCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.session.new-connection-replaces-old`,
    title:
      'a new authenticated connection of the same gateway closes the older one (not with 4401) and serves the session',
    section: 'relay-reference §12, §20.2',
    run: async (ctx) => {
      await withConnection(
        ctx,
        async (older) => {
          await greet(ctx, older);
          await withSession(ctx, async (newer) => {
            const closed = await older.waitClosed(ctx.patienceMs);
            if (closed === undefined) {
              fail(
                `the older connection was still open ${ctx.patienceMs} ms after a new one of the same gateway said hello; expected it closed (a gateway re-dials over sockets it no longer reads)`,
              );
            }
            if (closed.code === RELAY_CLOSE_UNAUTHORIZED) {
              fail(
                `the older connection was closed with ${RELAY_CLOSE_UNAUTHORIZED} (${closed.reason}), which a gateway past its handshake reads as revoked`,
              );
            }
            await exchange(ctx, newer, unsupportedAction, 'an outbound on the newer connection');
            if (!newer.open) fail('the connector closed the newer connection too');
          });
        },
        'the first upgrade',
      );
    },
  };
}

/**
 * The ops a test connector must succeed at (`opsSucceed`): all but `follow_up`, which needs a
 * capability bound for its session (relay-reference §9) that the suite cannot bind.
 */
const SUCCEEDING_OPS = OUTBOUND_OPS.filter((op) => op !== 'follow_up');

/** The result keys the gateway goes on with after a success (relay-reference §7.2). */
function successProblem(op: OutboundOp, result: Record<string, unknown>): string | undefined {
  const nonEmpty = (value: unknown) => typeof value === 'string' && value !== '';
  switch (op) {
    case 'send':
    case 'send_media':
    case 'prompt':
      return nonEmpty(result['message_id']) ? undefined : 'a non-empty message_id';
    case 'thread_create':
      return nonEmpty(result['thread_id']) || nonEmpty(result['message_id'])
        ? undefined
        : 'a non-empty thread_id or message_id';
    case 'get_chat_info': {
      const info = result['chat_info'] ?? result;
      const name = (info as { readonly name?: unknown } | null)?.name;
      return typeof name === 'string' ? undefined : 'chat_info with a string name';
    }
    default:
      return undefined;
  }
}

function succeedsCase(op: OutboundOp): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.outbound.${op}.succeeds`,
    title: `a test connector answers an advertised ${op} with success: true and the ids the gateway goes on with`,
    section: 'relay-reference §7.2',
    requires: [`op:${op}`, 'ops-succeed'],
    run: (ctx) =>
      withSession(ctx, async (probe) => {
        const result = await exchange(ctx, probe, SAMPLE_ACTIONS[op] as OutboundActionInput, op);
        if (result['success'] !== true)
          fail(`${op} was answered with ${formatValue(result)}; expected success: true`);
        const missing = successProblem(op, result);
        if (missing !== undefined)
          fail(`the successful ${op} result ${formatValue(result)} lacks ${missing}`);
      }),
  };
}

function reachesPlatformCase(op: OutboundOp): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.outbound.${op}.reaches-platform`,
    title: `an advertised ${op} reaches the platform once, as ${op}, with every field the gateway sent`,
    section: 'relay-reference §7.1, §7.2',
    requires: [`op:${op}`, 'platform-calls'],
    run: (ctx) =>
      withSession(ctx, async (probe) => {
        const action = SAMPLE_ACTIONS[op] as Readonly<Record<string, unknown>>;
        const requestId = newRequestId();
        const from = probe.lines.length;
        probe.send({ type: 'outbound', requestId, action: action as OutboundActionInput });
        await answerTo(ctx, probe, requestId, op, from);
        const calls = (await ctx.operator?.platformCalls?.(requestId)) ?? [];
        if (calls.length !== 1) {
          fail(
            `the ${op} with requestId ${requestId} reached the platform ${calls.length} times (${formatValue(calls.map((call) => call.op))}); expected once`,
          );
        }
        const [call] = calls as [RelayPlatformCall];
        if (call.op !== op) fail(`the gateway's ${op} reached the platform as ${formatValue(call.op)}`);
        for (const [key, value] of Object.entries(action)) {
          if (key === 'op') continue;
          assertEqual(call.action[key], value, `${key} of the ${op} the platform received`);
        }
      }),
  };
}

function routedSucceedsCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.outbound.routed-to-announced-identity`,
    title: 'an outbound naming the hello’d platform (and its botId) is executed by that identity',
    section: 'relay-reference §2.4, §7.1, §18.6',
    requires: ['op:send', 'ops-succeed'],
    run: (ctx) =>
      withSession(ctx, async (probe) => {
        // The gateway omits botId, never sends it as "", when the identity has none (§20.4).
        const route =
          ctx.botId === '' ? { platform: ctx.platform } : { platform: ctx.platform, botId: ctx.botId };
        const label = `a send for the hello'd platform ${formatValue(ctx.platform)}`;
        const result = await exchange(ctx, probe, routedSend, label, route);
        if (result['success'] !== true)
          fail(`${label} was answered with ${formatValue(result)}; expected success: true`);
        if (ctx.botId === '') return;
        // The same platform without a bot id: the gateway then names the platform alone (§20.4).
        const from = probe.lines.length;
        probe.send({ type: 'hello', platform: ctx.platform, botId: '' });
        if ((await probe.next(isDescriptor, ctx.patienceMs, from)) === undefined) {
          fail(
            `no descriptor within ${ctx.patienceMs} ms of a hello for ${formatValue(ctx.platform)} without a bot id`,
          );
        }
        const bare = `a send naming the platform ${formatValue(ctx.platform)} alone, after a hello without a bot id`;
        const answer = await exchange(ctx, probe, routedSend, bare, { platform: ctx.platform });
        if (answer['success'] !== true)
          fail(`${bare} was answered with ${formatValue(answer)}; expected success: true`);
      }),
  };
}

function terminatedLinesCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.framing.lines-terminated`,
    title: 'everything the connector sent after the hello (descriptor, inbound frames) ends with a newline',
    section: 'relay-reference §2.3',
    run: ({ handshake }) => {
      if (handshake.refused !== undefined) fail(`no connection to listen on: ${handshake.refused}`);
      const rest = handshake.unterminated ?? '';
      if (rest !== '') {
        fail(
          `the connector sent ${formatValue(rest.length > 200 ? `${rest.slice(0, 200)}…` : rest)} without a closing newline; the gateway never processes a line until its newline comes`,
        );
      }
    },
  };
}

/** How many outbound calls {@link sequentialCallsCase} makes on one connection, one after another. */
const SEQUENTIAL_CALLS = 300;

function sequentialCallsCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.outbound.sequential-calls-keep-succeeding`,
    title: `a test connector still executes outbound calls after ${SEQUENTIAL_CALLS} finished ones on the same connection`,
    section: 'relay-reference §2.4, §7.2',
    requires: ['op:typing', 'ops-succeed'],
    run: (ctx) =>
      withSession(ctx, async (probe) => {
        // A gateway keeps one connection for its life: finished calls must not count against it.
        for (let call = 1; call <= SEQUENTIAL_CALLS; call += 1) {
          const label = `typing call ${call} of ${SEQUENTIAL_CALLS}, each sent once the previous one was answered`;
          const result = await exchange(ctx, probe, SAMPLE_ACTIONS.typing as OutboundActionInput, label);
          if (result['success'] !== true)
            fail(`${label} was answered with ${formatValue(result)}; expected success: true`);
        }
      }),
  };
}

function unboundFollowUpCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.outbound.follow_up.unbound-refused`,
    title: 'a follow_up for a session no capability was bound for is answered with success: false',
    section: 'relay-reference §9',
    requires: 'op:follow_up',
    run: (ctx) =>
      withSession(ctx, async (probe) => {
        const action = SAMPLE_ACTIONS.follow_up as OutboundActionInput;
        const label = `a follow_up for the session ${formatValue((action as { readonly session_key?: unknown }).session_key)}, which holds no capability`;
        const result = await exchange(ctx, probe, action, label);
        expectRefused(result, label);
      }),
  };
}

function drainedInOrderCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.inbound.buffer-drained-in-order`,
    title:
      'after the hello the connector sends every buffered inbound event, in the order buffered, each once with its own bufferId',
    section: 'relay-reference §2.4, §2.6, §18.8',
    requires: 'known-buffer',
    run: ({ handshake, bufferedMessageIds = [] }) => {
      const got = handshake.inbound.map((line) => {
        const event = (line.json as { readonly event?: { readonly message_id?: unknown } } | undefined)
          ?.event;
        return event?.message_id;
      });
      const bufferIds = handshake.inbound.map((line) =>
        line.frame?.type === 'inbound' ? line.frame.bufferId : undefined,
      );
      const missingBufferId = bufferIds.findIndex((id) => typeof id !== 'string' || id === '');
      if (missingBufferId >= 0) {
        fail(
          `the buffered inbound frame ${missingBufferId + 1} carries no bufferId: ${quoteLine(handshake.inbound[missingBufferId] as ReceivedLine)}`,
        );
      }
      const repeated = bufferIds.find((id, index) => bufferIds.indexOf(id) !== index);
      if (repeated !== undefined)
        fail(`bufferId ${formatValue(repeated)} was delivered twice on one connection`);
      const first = got.findIndex((id, index) => id !== bufferedMessageIds[index]);
      if (first >= 0 || got.length !== bufferedMessageIds.length) {
        const at = first >= 0 ? first : Math.min(got.length, bufferedMessageIds.length);
        fail(
          `the first connection got ${got.length} inbound event(s) of the ${bufferedMessageIds.length} buffered; from position ${at + 1} on it got ${formatValue(got.slice(at, at + 3))}, expected ${formatValue(bufferedMessageIds.slice(at, at + 3))}`,
        );
      }
    },
  };
}

/**
 * The largest WebSocket message the gateway's client takes (Python `websockets`' default `max_size`,
 * 2^20 bytes): a larger one closes its connection with 1009.
 */
const GATEWAY_MAX_MESSAGE_BYTES = 1024 * 1024;

function messageSizeCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.framing.messages-within-gateway-limit`,
    title: `no WebSocket message of the connector exceeds the gateway client's ${GATEWAY_MAX_MESSAGE_BYTES} bytes, however much it replays`,
    section: 'relay-reference §2.2, §2.3',
    run: ({ handshake }) => {
      if (handshake.refused !== undefined) fail(`no connection to listen on: ${handshake.refused}`);
      const largest = handshake.largestMessageBytes ?? 0;
      if (largest > GATEWAY_MAX_MESSAGE_BYTES) {
        fail(
          `the connector sent a WebSocket message of ${largest} bytes; the gateway's client closes its connection (1009) above ${GATEWAY_MAX_MESSAGE_BYTES}: split batched lines across messages`,
        );
      }
    },
  };
}

function interruptBeforeHelloCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.interrupt.before-hello`,
    title:
      'an interrupt before any hello leaves the connection usable: the hello after it gets its descriptor',
    section: 'relay-reference §2.4, §8',
    run: async (ctx) => {
      await withConnection(ctx, async (probe) => {
        probe.send({
          type: 'interrupt',
          session_key: `agent:main:${ctx.platform}:dm:agentwire-conformance-chat`,
          reason: 'agentwire conformance',
        });
        probe.send(helloFrame(ctx));
        if ((await probe.next(isDescriptor, ctx.patienceMs)) === undefined) {
          fail(
            `after an interrupt before any hello: ${noDescriptorCause(ctx, probe.open ? undefined : await probe.closed)}`,
          );
        }
        await exchange(ctx, probe, unsupportedAction, 'an outbound after the interrupt and the hello');
      });
    },
  };
}

/** The size of the message {@link oversizedMessageCase} sends: twice what the gateway's client takes. */
const OVERSIZED_MESSAGE_BYTES = 2 * GATEWAY_MAX_MESSAGE_BYTES;

function oversizedMessageCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.limits.oversized-message-contained`,
    title: `a ${OVERSIZED_MESSAGE_BYTES}-byte message costs at most its own connection: the connector still serves a new one`,
    section: 'relay-reference §2.3, §20.2',
    run: async (ctx) => {
      await withSession(ctx, async (probe) => {
        const requestId = newRequestId();
        const head = `{"type": "outbound", "requestId": "${requestId}", "action": {"op": "${UNSUPPORTED_OP}", "chat_id": "agentwire-conformance-chat", "content": "`;
        const tail = '", "metadata": {}}}\n';
        probe.sendText(head + 'x'.repeat(OVERSIZED_MESSAGE_BYTES - head.length - tail.length) + tail);
        // Closed (1009) or answered: either is the connector's choice. It must not take the server down.
        await probe.next(
          (line) => lineType(line) === 'outbound_result' && answerRequestId(line) === requestId,
          ctx.patienceMs,
        );
      });
      await withSession(ctx, (probe) =>
        exchange(
          ctx,
          probe,
          unsupportedAction,
          'an outbound on a new connection after the oversized message',
        ),
      );
    },
  };
}

/** A platform no connector serves: the gateway says hello for every platform it fronts (§2.4). */
const UNSERVED_PLATFORM = 'agentwire-conformance-unserved';

function unservedHelloCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.hello.unserved-platform-harmless`,
    title:
      'a hello for a platform the connector does not serve leaves the connection usable for the next hello',
    section: 'relay-reference §2.4, §18.7',
    run: async (ctx) => {
      await withConnection(ctx, async (probe) => {
        // A connector may answer it (with a fallback platform's descriptor) or not; the next hello must be.
        probe.send({ type: 'hello', platform: UNSERVED_PLATFORM, botId: '' });
        const from = probe.lines.length;
        probe.send(helloFrame(ctx));
        await probe.next(
          () => probe.lines.filter(isDescriptor).length >= 1 && probe.lines.slice(from).some(isDescriptor),
          ctx.patienceMs,
        );
        const descriptors = probe.lines.filter(isDescriptor).length;
        if (descriptors === 0) {
          fail(
            `after a hello for the unserved platform "${UNSERVED_PLATFORM}": ${noDescriptorCause(ctx, probe.open ? undefined : await probe.closed)}`,
          );
        }
        await exchange(ctx, probe, unsupportedAction, 'an outbound after a hello for an unserved platform');
      });
    },
  };
}

function survivesIdleCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.connection.survives-idle`,
    title: 'a connection whose gateway answers pings but sends no frame stays open and still answers',
    section: 'relay-reference §2.2, §20.1',
    requires: 'idle-window',
    run: ({ idleMs = 0, ...ctx }) =>
      withSession({ ...ctx, idleMs }, async (probe) => {
        const closed = await probe.waitClosed(idleMs);
        if (closed !== undefined) {
          fail(
            `the connector closed a connection that answered its pings after less than ${idleMs} ms without frames (code ${closed.code}, reason ${formatValue(closed.reason)})`,
          );
        }
        await exchange(
          { ...ctx, idleMs },
          probe,
          unsupportedAction,
          `an outbound after ${idleMs} ms without frames`,
        );
      }),
  };
}

function unansweredPingsCase(): RelayLiveCase {
  return {
    id: `${SUITE_NAME}.connection.unanswered-pings-dropped`,
    title:
      'a connection whose gateway stops answering pings is closed, so a hung gateway holds no connection for good',
    section: 'relay-reference §2.2, §20.1',
    level: 'recommended',
    since: '1.1.0',
    requires: 'idle-window',
    run: (ctx) =>
      withSession(ctx, async (probe) => {
        const idleMs = ctx.idleMs ?? 0;
        probe.ignorePings();
        const closed = await probe.waitClosed(2 * idleMs);
        if (closed === undefined) {
          fail(
            `the connection of a gateway that answered no ping was still open after ${2 * idleMs} ms (twice idleMs); expected the connector to close it`,
          );
        }
        if (closed.code === RELAY_CLOSE_UNAUTHORIZED) {
          fail(
            `the connection of a gateway that answered no ping was closed with ${RELAY_CLOSE_UNAUTHORIZED}, which the gateway reads as a revocation and never dials again`,
          );
        }
      }),
  };
}

/** The message ids of the operator cases' events: unique to the run, so earlier events do not count. */
/** Part of every operator event and chat of a run, so that a connector serving several runs keeps them apart. */
export const OPERATOR_RUN = Math.random().toString(36).slice(2, 10);

/** A direct message from the suite's test chat, as a connector delivers one (`createMessageEvent`). */
function operatorEvent(ctx: RelayConnectorContext, name: string): Record<string, unknown> {
  return {
    text: `agentwire conformance ${name}`,
    message_type: 'text',
    message_id: `agentwire-conformance-${OPERATOR_RUN}-${name}`,
    reply_to_message_id: null,
    media_urls: [],
    source: {
      platform: ctx.platform,
      chat_id: CHAT_ID,
      chat_name: null,
      chat_type: 'dm',
      user_id: 'agentwire-conformance-user',
      user_name: 'agentwire conformance',
      thread_id: null,
      chat_topic: null,
    },
  };
}

/** The `message_id` of an inbound line's event. */
function inboundMessageId(line: ReceivedLine): unknown {
  if (lineType(line) !== 'inbound') return undefined;
  return (line.json as { readonly event?: { readonly message_id?: unknown } } | undefined)?.event?.message_id;
}

/** The inbound lines from `from` on that carry one of `messageIds`. */
function linesOf(probe: GatewayProbe, messageIds: readonly string[], from = 0): ReceivedLine[] {
  return probe.lines.slice(from).filter((line) => messageIds.includes(inboundMessageId(line) as string));
}

/**
 * Waits until every one of `messageIds` came as an inbound line (from line `from` on), checks each line
 * as the gateway reads it, acknowledges the buffered ones, and returns the lines in arrival order.
 */
async function receiveEvents(
  ctx: RelayConnectorContext,
  probe: GatewayProbe,
  messageIds: readonly string[],
  what: string,
  from = 0,
): Promise<ReceivedLine[]> {
  const arrived = () => new Set(linesOf(probe, messageIds, from).map(inboundMessageId));
  await probe.next(() => arrived().size === messageIds.length, ctx.patienceMs + ctx.inboundWindowMs, from);
  const lines = linesOf(probe, messageIds, from);
  const missing = messageIds.filter((id) => !arrived().has(id));
  if (missing.length > 0) {
    const ended = probe.open ? '' : ' (the connection closed)';
    fail(
      `${what}: no inbound frame with message_id ${missing.map((id) => formatValue(id)).join(', ')} within ${ctx.patienceMs + ctx.inboundWindowMs} ms${ended}`,
    );
  }
  const problems = lines.flatMap(inboundProblems);
  if (problems.length > 0) fail(`${what}: ${problems.join('; ')}`);
  for (const line of lines) {
    const bufferId = line.frame?.type === 'inbound' ? line.frame.bufferId : undefined;
    if (typeof bufferId === 'string' && bufferId !== '') probe.send({ type: 'inbound_ack', bufferId });
  }
  await probe.collect(ACK_SETTLE_MS);
  return lines;
}

/** Fails when a second connection gets any of `messageIds` again after they were acknowledged. */
async function notDeliveredAgain(ctx: RelayConnectorContext, messageIds: readonly string[]): Promise<void> {
  await withSession(ctx, async (probe) => {
    await probe.collect(ctx.inboundWindowMs);
    const again = linesOf(probe, messageIds).map(inboundMessageId);
    if (again.length > 0) {
      fail(
        `message_id ${[...new Set(again)].map((id) => formatValue(id)).join(', ')} delivered again on a new connection after its inbound_ack`,
      );
    }
  });
}

function operatorCases(): RelayLiveCase[] {
  const operatorCase = { ...since11, requires: 'operator' } as const;
  return [
    {
      ...operatorCase,
      id: `${SUITE_NAME}.operator.inbound-while-connected`,
      title:
        'events delivered while the gateway is connected arrive on its connection at once, in order, each with a bufferId, and not again after their inbound_ack',
      section: 'relay-reference §2.4, §2.6, §4',
      run: async (ctx) => {
        const events = ['live-1', 'live-2', 'live-3'].map((name) => operatorEvent(ctx, name));
        const ids = events.map((event) => event['message_id'] as string);
        await withSession(ctx, async (probe) => {
          await probe.collect(ctx.inboundWindowMs);
          const from = probe.lines.length;
          for (const event of events) await ctx.operator?.deliverInbound(event);
          const lines = await receiveEvents(ctx, probe, ids, 'events delivered during a session', from);
          const order = lines.map(inboundMessageId);
          assertEqual(order, ids, 'the message_ids of the inbound frames, in the order they arrived');
          const unbuffered = lines.find(
            (line) => line.frame?.type !== 'inbound' || typeof line.frame.bufferId !== 'string',
          );
          if (unbuffered !== undefined) {
            fail(
              `an event delivered to a connected gateway came without a bufferId, so a gateway that drops the connection before handling it loses it: ${quoteLine(unbuffered)}`,
            );
          }
        });
        await notDeliveredAgain(ctx, ids);
      },
    },
    {
      ...operatorCase,
      ...since12,
      id: `${SUITE_NAME}.operator.concurrent-inbound-all-arrive`,
      title:
        'events delivered at the same moment (the operator’s calls overlapping) all arrive on the connection at once, each once, none left waiting for a later event',
      section: 'relay-reference §2.4, §2.6, §4',
      run: async (ctx) => {
        const events = Array.from({ length: 12 }, (_, index) => operatorEvent(ctx, `burst-${index + 1}`));
        const ids = events.map((event) => event['message_id'] as string);
        await withSession(ctx, async (probe) => {
          await probe.collect(ctx.inboundWindowMs);
          const from = probe.lines.length;
          // Each call resolves once the connector took its event; none may wait for another to be woken.
          await Promise.all(events.map((event) => ctx.operator?.deliverInbound(event)));
          const lines = await receiveEvents(ctx, probe, ids, 'events delivered at the same moment', from);
          if (lines.length !== ids.length) {
            fail(
              `${ids.length} events delivered at the same moment arrived as ${lines.length} inbound frames`,
            );
          }
        });
        await notDeliveredAgain(ctx, ids);
      },
    },
    {
      ...operatorCase,
      id: `${SUITE_NAME}.operator.inbound-while-away`,
      title:
        'an event delivered while no connection of the gateway is open waits for it and arrives on its next connection, once',
      section: 'relay-reference §2.4, §2.6, §18.8',
      run: async (ctx) => {
        const event = operatorEvent(ctx, 'away');
        const id = event['message_id'] as string;
        await ctx.operator?.deliverInbound(event);
        await withSession(ctx, async (probe) => {
          const [line] = await receiveEvents(
            ctx,
            probe,
            [id],
            'an event delivered while the gateway was away',
          );
          const arrivals = linesOf(probe, [id]).length;
          if (arrivals > 1)
            fail(`the event delivered while the gateway was away came ${arrivals} times on one connection`);
          const text = (line?.json as { readonly event?: { readonly text?: unknown } } | undefined)?.event
            ?.text;
          assertEqual(text, event['text'], 'event.text of the delivered event');
        });
        await notDeliveredAgain(ctx, [id]);
      },
    },
    {
      ...operatorCase,
      id: `${SUITE_NAME}.operator.interrupt-inbound`,
      title:
        'an interrupt the operator sends reaches the connected gateway once, as interrupt_inbound with its session_key and chat_id, however many hellos it said',
      section: 'relay-reference §2.4, §8',
      run: (ctx) =>
        withSession(ctx, async (probe) => {
          // A second hello on the connection must not make it a second listener.
          const afterHello = probe.lines.length;
          probe.send(helloFrame(ctx));
          await probe.next(isDescriptor, ctx.patienceMs, afterHello);
          const sessionKey = `agent:main:${ctx.platform}:dm:${CHAT_ID}`;
          const from = probe.lines.length;
          await ctx.operator?.interruptInbound(sessionKey, CHAT_ID);
          const isInterrupt = (line: ReceivedLine) => lineType(line) === 'interrupt_inbound';
          const line = await probe.next(isInterrupt, ctx.patienceMs, from);
          if (line === undefined) {
            fail(`no interrupt_inbound within ${ctx.patienceMs} ms of the operator's interrupt`);
          }
          assertEqual(
            line.json,
            { type: 'interrupt_inbound', session_key: sessionKey, chat_id: CHAT_ID },
            'the interrupt_inbound frame',
          );
          await probe.collect(ACK_SETTLE_MS);
          const count = probe.lines.slice(from).filter(isInterrupt).length;
          if (count !== 1) fail(`one interrupt from the operator reached the gateway ${count} times`);
          await exchange(ctx, probe, unsupportedAction, 'an outbound after the interrupt_inbound');
        }),
    },
    {
      ...operatorCase,
      id: `${SUITE_NAME}.operator.revoke-closes-4401`,
      title:
        'revoking the gateway closes its live connection with 4401 unauthorized, which tells the gateway to stop dialling',
      section: 'relay-reference §11, §12',
      run: async (ctx) => {
        await withSession(ctx, async (probe) => {
          await ctx.operator?.revokeConnections();
          const closed = await probe.waitClosed(ctx.patienceMs);
          if (closed === undefined) {
            fail(`the connection was still open ${ctx.patienceMs} ms after the operator revoked the gateway`);
          }
          assertEqual(
            { code: closed.code, reason: closed.reason },
            { code: RELAY_CLOSE_UNAUTHORIZED, reason: RELAY_CLOSE_REASON_UNAUTHORIZED },
            'the close of a revoked connection',
          );
        });
        // Only the connections were revoked: the gateway's next dial is served.
        await withSession(ctx, async (probe) => {
          await exchange(
            ctx,
            probe,
            unsupportedAction,
            'an outbound on a connection dialled after the revocation',
          );
        });
      },
    },
  ];
}

/**
 * After `going_idle` the connector sends nothing more on that connection: an event the operator delivers
 * then stays buffered for the gateway's next connection, and an interrupt goes nowhere.
 */
function goingIdleBuffersCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.operator.going-idle-holds-events`,
    title:
      'after going_idle_ack the connection gets no more frames: an event delivered then arrives on the next connection, once',
    section: 'relay-reference §2.4, §2.6',
    requires: 'operator',
    run: async (ctx) => {
      const event = operatorEvent(ctx, 'after-going-idle');
      const id = event['message_id'] as string;
      await withSession(ctx, async (probe) => {
        await probe.collect(ctx.inboundWindowMs);
        const from = probe.lines.length;
        probe.send({ type: 'going_idle' });
        const ack = await probe.next((line) => lineType(line) === 'going_idle_ack', ctx.patienceMs, from);
        if (ack === undefined) fail(`no going_idle_ack within ${ctx.patienceMs} ms of a going_idle`);
        const afterAck = probe.lines.length;
        await ctx.operator?.deliverInbound(event);
        await ctx.operator?.interruptInbound(`agent:main:${ctx.platform}:dm:${CHAT_ID}`, CHAT_ID);
        await probe.collect(ctx.inboundWindowMs);
        const late = probe.lines.slice(afterAck);
        if (late.length > 0) {
          fail(
            `the connection went on sending after its going_idle_ack: ${late.map((line) => quoteLine(line)).join(', ')}`,
          );
        }
      });
      await withSession(ctx, async (probe) => {
        await receiveEvents(ctx, probe, [id], 'an event delivered after the last connection went idle');
        const arrivals = linesOf(probe, [id]).length;
        if (arrivals > 1)
          fail(`the event delivered after going_idle came ${arrivals} times on one connection`);
      });
      await notDeliveredAgain(ctx, [id]);
    },
  };
}

/** A connection that goes idle right after its hello never becomes the session: the active one stays. */
function idleHelloKeepsSessionCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.session.idle-connection-replaces-nothing`,
    title:
      'a second connection that says hello and going_idle in one message does not replace the active connection',
    section: 'relay-reference §2.4, §20.2',
    run: (ctx) =>
      withSession(ctx, async (active) => {
        await withConnection(ctx, async (idle) => {
          idle.sendText(
            encodeFrame(helloFrame(ctx), { style: 'python' }) +
              encodeFrame({ type: 'going_idle' }, { style: 'python' }),
          );
          const ack = await idle.next((line) => lineType(line) === 'going_idle_ack', ctx.patienceMs);
          if (ack === undefined)
            fail(`no going_idle_ack within ${ctx.patienceMs} ms of a hello and going_idle`);
          await active.collect(ACK_SETTLE_MS);
        });
        if (!active.open) {
          const closed = await active.closed;
          fail(
            `the active connection was closed (${closed.code} ${formatValue(closed.reason)}) by a connection that went idle after its hello`,
          );
        }
        await exchange(ctx, active, unsupportedAction, 'an outbound on the active connection');
      }),
  };
}

/**
 * The newest connection is the session: an older one that says its hello only after a newer one did
 * must not close the newer one.
 */
function lateHelloKeepsSessionCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.session.older-connection-replaces-nothing`,
    title:
      'a connection dialled before the active one, saying its hello only now, does not replace the newer active connection',
    section: 'relay-reference §12, §20.2',
    run: (ctx) =>
      withConnection(ctx, async (older) => {
        await withSession(ctx, async (newer) => {
          older.send(helloFrame(ctx));
          if ((await older.next(isDescriptor, ctx.patienceMs)) === undefined && older.open) {
            fail(`no descriptor within ${ctx.patienceMs} ms of the older connection's hello`);
          }
          await newer.collect(ACK_SETTLE_MS);
          if (!newer.open) {
            const closed = await newer.closed;
            fail(
              `the newer connection was closed (${closed.code} ${formatValue(closed.reason)}) when an older one said its hello`,
            );
          }
          await exchange(ctx, newer, unsupportedAction, 'an outbound on the newer connection');
        });
      }),
  };
}

/** A `follow_up` for a session the connector holds a capability for reaches the platform and succeeds. */
function boundFollowUpCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.operator.follow-up-bound`,
    title:
      'a follow_up for a session and kind the connector holds a capability for succeeds, and reaches the platform as a follow_up',
    section: 'relay-reference §9',
    requires: ['op:follow_up', 'follow-up-binding', 'ops-succeed'],
    run: (ctx) =>
      withSession(ctx, async (probe) => {
        const action = {
          ...(SAMPLE_ACTIONS.follow_up as object),
          session_key: `agent:main:${ctx.platform}:dm:${CHAT_ID}-${OPERATOR_RUN}`,
        } as Readonly<Record<string, unknown>>;
        await ctx.operator?.bindFollowUp?.(action['session_key'] as string, action['kind'] as string);
        const requestId = newRequestId();
        const from = probe.lines.length;
        probe.send({ type: 'outbound', requestId, action: action as OutboundActionInput });
        const label = 'a follow_up for a session whose capability the connector holds';
        const result = await answerTo(ctx, probe, requestId, label, from);
        if (result['success'] !== true)
          fail(`${label} was answered with ${formatValue(result)}; expected success: true`);
        if (ctx.operator?.platformCalls === undefined) return;
        const calls = await ctx.operator.platformCalls(requestId);
        assertEqual(
          calls.map((call) => call.op),
          ['follow_up'],
          `the platform calls made for ${label}`,
        );
        for (const key of ['session_key', 'kind', 'content']) {
          assertEqual(calls[0]?.action[key], action[key], `${key} of the follow_up the platform received`);
        }
      }),
  };
}

/** A connection whose first frame is `going_idle` never starts delivering, even after a hello. */
function goingIdleBeforeHelloCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.operator.going-idle-before-hello`,
    title:
      'a connection that says going_idle before its hello gets no inbound frames after the hello; the waiting event arrives on the next connection',
    section: 'relay-reference §2.4, §2.6',
    requires: 'operator',
    run: async (ctx) => {
      const event = operatorEvent(ctx, 'idle-before-hello');
      const id = event['message_id'] as string;
      await ctx.operator?.deliverInbound(event);
      await withConnection(ctx, async (probe) => {
        probe.send({ type: 'going_idle' });
        if ((await probe.next((line) => lineType(line) === 'going_idle_ack', ctx.patienceMs)) === undefined) {
          fail(`no going_idle_ack within ${ctx.patienceMs} ms of a going_idle before any hello`);
        }
        probe.send(helloFrame(ctx));
        await probe.collect(ctx.inboundWindowMs);
        const inbound = probe.lines.filter((line) => lineType(line) === 'inbound');
        if (inbound.length > 0) {
          fail(
            `a connection that went idle before its hello got inbound frames after it: ${inbound.map((line) => quoteLine(line)).join(', ')}`,
          );
        }
      });
      await withSession(ctx, async (probe) => {
        await receiveEvents(ctx, probe, [id], 'an event that waited while a connection was idle');
      });
    },
  };
}

/** A revocation closes the revoked gateway's connections only. */
function revokeSparesOthersCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.operator.revoke-spares-other-gateways`,
    title: "revoking the suite's gateway leaves another gateway's connection open and serving",
    section: 'relay-reference §11, §12',
    requires: ['operator', 'other-gateway'],
    run: async (ctx) => {
      const other = { ...ctx, ...(ctx.otherGateway as { gatewayId: string; secret: string }) };
      await withSession(other, async (spared) => {
        await withSession(ctx, async (revoked) => {
          await ctx.operator?.revokeConnections();
          if ((await revoked.waitClosed(ctx.patienceMs)) === undefined) {
            fail(`the connection was still open ${ctx.patienceMs} ms after the operator revoked the gateway`);
          }
        });
        if (!spared.open) {
          const closed = await spared.closed;
          fail(
            `revoking ${formatValue(ctx.gatewayId)} also closed the connection of ${formatValue(other.gatewayId)} (${closed.code} ${formatValue(closed.reason)})`,
          );
        }
        await exchange(other, spared, unsupportedAction, 'an outbound on the other gateway’s connection');
      });
    },
  };
}

function faultCases(): RelayLiveCase[] {
  const faultCase = { ...since11, requires: ['faults', 'op:send'] } as const;
  /** The suite's `send`, to `chatId`. */
  const sendTo = (chatId: string) =>
    ({ ...(SAMPLE_ACTIONS.send as object), chat_id: chatId }) as OutboundActionInput;
  return [
    {
      ...faultCase,
      id: `${SUITE_NAME}.outbound.platform-error-answered`,
      title:
        'a send the platform fails is answered success: false with an error text, and the connection goes on serving',
      section: 'relay-reference §7.1, §7.2',
      run: (ctx) =>
        withSession(ctx, async (probe) => {
          const label = 'a send to the chat whose platform fails';
          expectRefused(await exchange(ctx, probe, sendTo(ctx.faults?.throwingChatId ?? ''), label), label);
          await exchange(ctx, probe, unsupportedAction, 'an outbound after the failed send');
        }),
    },
    {
      ...faultCase,
      id: `${SUITE_NAME}.outbound.platform-malformed-refused`,
      title:
        'a send the platform answers with something that is not a send result is answered success: false, never passed on as a success',
      section: 'relay-reference §7.2',
      run: (ctx) =>
        withSession(ctx, async (probe) => {
          const label = 'a send to the chat whose platform answers a malformed result';
          expectRefused(await exchange(ctx, probe, sendTo(ctx.faults?.malformedChatId ?? ''), label), label);
        }),
    },
    {
      ...faultCase,
      id: `${SUITE_NAME}.outbound.platform-hang-timed-out`,
      title:
        "a send the platform never answers is answered success: false once the connector's outbound timeout has passed for it, not before, while a failing send is answered at once",
      section: 'relay-reference §7.1, §18.5',
      run: (ctx) =>
        withSession(ctx, async (probe) => {
          const timeoutMs = ctx.faults?.outboundTimeoutMs ?? 0;
          const hanging = sendTo(ctx.faults?.hangingChatId ?? '');
          const label = `a send to the chat whose platform never answers (outboundTimeoutMs ${timeoutMs})`;
          const patient = { ...ctx, patienceMs: timeoutMs + ctx.patienceMs };
          // One message: a hanging send, then one the platform fails, which must not wait for the first.
          const [first, failing, second] = [newRequestId(), newRequestId(), newRequestId()];
          const from = probe.lines.length;
          const firstSentAt = performance.now();
          probe.sendText(
            encodeFrame({ type: 'outbound', requestId: first, action: hanging }) +
              encodeFrame({
                type: 'outbound',
                requestId: failing,
                action: sendTo(ctx.faults?.throwingChatId ?? ''),
              }),
          );
          const failingLabel = 'a send to the chat whose platform fails, sent after a hanging one';
          expectRefused(await answerTo(ctx, probe, failing, failingLabel, from), failingLabel);
          const answered = (requestId: string) =>
            probe.lines
              .slice(from)
              .some((line) => lineType(line) === 'outbound_result' && answerRequestId(line) === requestId);
          if (answered(first)) {
            fail(`${label} was answered before the send the platform failed, which should not wait for it`);
          }
          // A second hanging send, well inside the first one's timeout: it gets a whole timeout of its own.
          await probe.collect(Math.max(0, timeoutMs * 0.4 - (performance.now() - firstSentAt)));
          const secondSentAt = performance.now();
          probe.send({ type: 'outbound', requestId: second, action: hanging });
          for (const [requestId, sentAt, which] of [
            [first, firstSentAt, 'first'],
            [second, secondSentAt, 'second'],
          ] as const) {
            expectRefused(await answerTo(patient, probe, requestId, `${label}, the ${which}`, from), label);
            const waited = performance.now() - sentAt;
            // A lower bound only: the connector cannot answer sooner, however loaded the machine is.
            if (waited < timeoutMs * 0.9) {
              fail(
                `${label}, the ${which}, was answered ${Math.round(waited)} ms after it was sent: before the timeout had passed for it`,
              );
            }
          }
          await exchange(ctx, probe, unsupportedAction, 'an outbound after the timed-out sends');
        }),
    },
  ];
}
