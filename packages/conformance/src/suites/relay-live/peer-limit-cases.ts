import {
  encodeFrame,
  newRequestId,
  type OutboundActionInput,
  RELAY_CLOSE_UNAUTHORIZED,
} from '@agentwire/relay';
import { fail, formatValue } from '../../assert.js';
import { type GatewayProbe, lineType, quoteLine, type ReceivedLine } from './gateway-probe.js';
import {
  answerTo,
  exchange,
  helloFrame,
  inboundMessageId,
  isDescriptor,
  operatorEvent,
  type RelayConnectorContext,
  type RelayConnectorLimits,
  type RelayLiveCase,
  receiveEvents,
  SAMPLE_ACTIONS,
  SUITE_NAME,
  since11,
  UNSERVED_PLATFORM,
  unsupportedAction,
  withSession,
} from './relay-connector-suite.js';
import { ABNORMAL_CLOSURE, type WebSocketClose } from './websocket-client.js';

/** The close code of a connection dropped for a limit (RFC 6455 "policy violation"). */
const POLICY_VIOLATION = 1008;

/**
 * Lines a gateway may write by mistake that are no frame (not JSON, not an object, a hello without its
 * fields): refused, and none names a `requestId` that could still be answered.
 */
const MALFORMED_LINES = [
  'agentwire conformance: not a frame\n',
  '["agentwire", "conformance"]\n',
  '{"type": "hello", "platform": 7}\n',
] as const;

/** Repeated hellos of identities already counted, sent before the one identity past the limit. */
const REPEATED_HELLOS = 3;

/** The UTF-8 size of the text of each event the `flow.*` cases deliver. */
const FLOW_EVENT_BYTES = 200_000;

/**
 * What the `flow.*` cases deliver beyond `dropBacklogBytes`: more than the kernel's buffers of a
 * loopback connection hold (a few MiB), so that a connector that does not wait for its backlog passes
 * the drop bound however much the kernel takes.
 */
const FLOW_KERNEL_ALLOWANCE = 16 * 1024 * 1024;

/**
 * The cases of the bounds a connector states (`limits`): each bound served up to it and enforced past
 * it, and flow control with a gateway whose reader stalls for a while (nothing lost) or for good
 * (dropped).
 */
export function peerLimitCases(): RelayLiveCase[] {
  return [
    refusedLinesCase(),
    identitiesCase(),
    runningCallsCase(),
    unansweredBurstCase(),
    pausedReaderCase(),
    goingIdleWhileHeldCase(),
    stalledReaderCase(),
  ];
}

/** The stated limits; the cases that call it require the `limits` capability. */
function limitsOf(ctx: RelayConnectorContext): RelayConnectorLimits {
  if (ctx.limits === undefined) fail('no limits were given');
  return ctx.limits;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/**
 * Fails unless the connection ends within the patience, closed for a limit: 1008, or 1006 when the
 * connector tore the TCP connection down right after its close frame (as it does for a gateway that
 * does not read).
 */
async function expectDropped(ctx: RelayConnectorContext, probe: GatewayProbe, what: string): Promise<void> {
  const closed = await probe.waitClosed(ctx.patienceMs);
  if (closed === undefined) {
    fail(
      `${what}, the connection was still open after ${ctx.patienceMs} ms; expected it dropped (close 1008)`,
    );
  }
  expectLimitClose(closed, what);
}

function expectLimitClose(closed: WebSocketClose, what: string): void {
  if (closed.code === POLICY_VIOLATION || closed.code === ABNORMAL_CLOSURE) return;
  const revoked =
    closed.code === RELAY_CLOSE_UNAUTHORIZED
      ? ', which the gateway reads as a revocation and never dials again'
      : '';
  fail(
    `${what}, the connection was closed with code ${closed.code} (reason ${formatValue(closed.reason)})${revoked}; expected 1008 (policy violation)`,
  );
}

function refusedLinesCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.limits.refused-lines-drop`,
    title:
      'a connection is served through limits.refusedLines refused lines (malformed, hellos for unserved platforms) and dropped with 1008 at the next one',
    section: 'relay-reference §2.3, §2.4',
    requires: 'limits',
    run: (ctx) =>
      withSession(ctx, async (probe) => {
        const { refusedLines } = limitsOf(ctx);
        // A connector with a fallback platform answers a hello for an unserved one: then it is no refused line.
        const unservedHello = { type: 'hello', platform: UNSERVED_PLATFORM, botId: '' } as const;
        const from = probe.lines.length;
        probe.send(unservedHello);
        await exchange(ctx, probe, unsupportedAction, 'an outbound after a hello for an unserved platform');
        const helloRefused = !probe.lines.slice(from).some(isDescriptor);
        let malformed = 0;
        let hellos = helloRefused ? 1 : 0;
        for (let line = hellos; line < refusedLines; line += 1) {
          if (helloRefused && line % 2 === 1) {
            probe.send(unservedHello);
            hellos += 1;
          } else {
            probe.sendText(MALFORMED_LINES[malformed % MALFORMED_LINES.length] as string);
            malformed += 1;
          }
        }
        const sent = `${malformed} malformed line(s) and ${hellos} hello(s) for the unserved platform "${UNSERVED_PLATFORM}"`;
        await exchange(
          ctx,
          probe,
          unsupportedAction,
          `an outbound after ${sent}: ${refusedLines} refused lines, limits.refusedLines`,
        );
        if (!probe.open) fail(`the connection closed after ${sent}, no more than limits.refusedLines`);
        probe.sendText(MALFORMED_LINES[0]);
        await expectDropped(
          ctx,
          probe,
          `after ${sent} and one more malformed line (limits.refusedLines is ${refusedLines})`,
        );
      }),
  };
}

function identitiesCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.limits.identities-drop`,
    title:
      'a connection answers limits.identities distinct identities, and repeated hellos of known ones without counting them, and is dropped with 1008 at one more',
    section: 'relay-reference §2.4, §18.7',
    requires: 'limits',
    run: (ctx) =>
      withSession(ctx, async (probe) => {
        const { identities } = limitsOf(ctx);
        const botHello = (index: number) =>
          ({
            type: 'hello',
            platform: ctx.platform,
            botId: `${ctx.botId}agentwire-conformance-bot-${index}`,
          }) as const;
        const from = probe.lines.length;
        // The session's own hello was the first identity.
        for (let index = 2; index <= identities; index += 1) probe.send(botHello(index));
        for (let repeat = 0; repeat < REPEATED_HELLOS; repeat += 1) {
          probe.send(repeat % 2 === 0 || identities < 2 ? helloFrame(ctx) : botHello(identities));
        }
        const expected = identities - 1 + REPEATED_HELLOS;
        const answered = () => probe.lines.slice(from).filter(isDescriptor).length;
        await probe.next(() => answered() >= expected, ctx.patienceMs, from);
        const sent = `hellos for ${identities} distinct identities (limits.identities) and ${REPEATED_HELLOS} repeated hellos of known ones`;
        if (answered() < expected) {
          const ended = probe.open ? '' : ' and the connection closed: a repeated hello was counted again';
          fail(
            `${sent} got ${answered() + 1} descriptor(s) within ${ctx.patienceMs} ms${ended}; expected one per hello`,
          );
        }
        probe.send(botHello(identities + 1));
        await expectDropped(ctx, probe, `after ${sent}, a hello for one more distinct identity`);
      }),
  };
}

function runningCallsCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.limits.running-calls-busy`,
    title:
      'past limits.runningCalls hanging calls, a send is answered at once with success: false and an error text, and served again once they timed out',
    section: 'relay-reference §7.1, §7.2',
    requires: ['limits', 'faults', 'op:send'],
    run: (ctx) =>
      withSession(ctx, async (probe) => {
        const { runningCalls } = limitsOf(ctx);
        const { hangingChatId = '', outboundTimeoutMs = 0 } = ctx.faults ?? {};
        const send = SAMPLE_ACTIONS.send as OutboundActionInput;
        const hanging = Array.from({ length: runningCalls }, () => newRequestId());
        const from = probe.lines.length;
        for (const requestId of hanging) {
          probe.send({ type: 'outbound', requestId, action: { ...send, chat_id: hangingChatId } as never });
        }
        const requestId = newRequestId();
        probe.send({ type: 'outbound', requestId, action: send });
        const label = `a send to the test chat while ${runningCalls} sends (limits.runningCalls) hang on the platform`;
        const result = await answerTo(ctx, probe, requestId, label, from);
        if (result['success'] !== false || typeof result['error'] !== 'string' || result['error'] === '') {
          fail(
            `${label} was answered with ${formatValue(result)}; expected success: false with an error text (the connection is busy)`,
          );
        }
        const answerAt = probe.lines.findIndex((line) => answeredRequest(line) === requestId);
        const early = probe.lines.slice(from, answerAt).find((line) => lineType(line) === 'outbound_result');
        if (early !== undefined) {
          fail(
            `${label} was answered only after a hanging call was: ${quoteLine(early)}; expected it refused at once, without waiting for a running call`,
          );
        }
        const pending = () =>
          hanging.filter((id) => !probe.lines.some((line) => answeredRequest(line) === id));
        const waitMs = outboundTimeoutMs + ctx.patienceMs;
        await probe.next(() => pending().length === 0, waitMs, from);
        if (pending().length > 0) {
          fail(
            `${pending().length} of the ${runningCalls} hanging sends got no outbound_result within ${waitMs} ms (faults.outboundTimeoutMs and the patience)`,
          );
        }
        const after = 'a send to the test chat once the hanging sends timed out';
        const again = await exchange(ctx, probe, send, after);
        if (ctx.opsSucceed && again['success'] !== true) {
          fail(
            `${after} was answered with ${formatValue(again)}; expected success: true (finished calls no longer count)`,
          );
        }
      }),
  };
}

/** Frames above `limits.unansweredFrames` in the burst of {@link unansweredBurstCase}. */
const UNANSWERED_EXTRA = 10;

/** The most characters of one message of {@link unansweredBurstCase}: half the gateway's 1 MiB. */
const BURST_MESSAGE_CHARS = 512 * 1024;

function unansweredBurstCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.limits.unanswered-burst-then-served`,
    title:
      'an outbound written right after more inbound_acks and interrupts than limits.unansweredFrames, in one message, is still answered',
    section: 'relay-reference §2.3, §2.6, §8',
    requires: 'limits',
    run: (ctx) =>
      withSession(ctx, async (probe) => {
        const { unansweredFrames } = limitsOf(ctx);
        const count = unansweredFrames + UNANSWERED_EXTRA;
        // Ids no connector gave out (so no pending entry is acknowledged), and now and then an interrupt.
        const lines = Array.from({ length: count }, (_, index) =>
          encodeFrame(
            index % 10 === 9
              ? {
                  type: 'interrupt',
                  session_key: `agent:main:${ctx.platform}:dm:agentwire-conformance-chat`,
                  reason: 'agentwire conformance',
                }
              : { type: 'inbound_ack', bufferId: `agentwire-conformance-never-delivered-${index}` },
            { style: 'python' },
          ),
        );
        const requestId = newRequestId();
        lines.push(
          encodeFrame({ type: 'outbound', requestId, action: unsupportedAction }, { style: 'python' }),
        );
        const from = probe.lines.length;
        // As few messages as the gateway's message size allows: the outbound shares one with the last frames.
        let message = '';
        for (const line of lines) {
          if (message.length + line.length > BURST_MESSAGE_CHARS) {
            probe.sendText(message);
            message = '';
          }
          message += line;
        }
        probe.sendText(message);
        await answerTo(
          ctx,
          probe,
          requestId,
          `an outbound written right after ${count} inbound_acks and interrupts (limits.unansweredFrames is ${unansweredFrames})`,
          from,
        );
        await exchange(
          ctx,
          probe,
          unsupportedAction,
          `an outbound after ${count} inbound_acks and interrupts`,
        );
      }),
  };
}

/** The `requestId` of an `outbound_result` line. */
function answeredRequest(line: ReceivedLine): unknown {
  if (lineType(line) !== 'outbound_result') return undefined;
  return (line.json as { readonly requestId?: unknown }).requestId;
}

/** Events of about {@link FLOW_EVENT_BYTES} each, more in all than `dropBacklogBytes` and the kernel's buffers. */
function flowEvents(ctx: RelayConnectorContext, name: string): Record<string, unknown>[] {
  const { dropBacklogBytes } = limitsOf(ctx);
  const count = Math.ceil((dropBacklogBytes + FLOW_KERNEL_ALLOWANCE) / FLOW_EVENT_BYTES);
  return Array.from({ length: count }, (_, index) => {
    const event = operatorEvent(ctx, `${name}-${index + 1}`);
    return { ...event, text: `${event['text']} ${'.'.repeat(FLOW_EVENT_BYTES)}` };
  });
}

/** The size of `events` for a failure message. */
function megabytes(events: readonly Record<string, unknown>[]): string {
  return `${events.length} events of ${FLOW_EVENT_BYTES / 1000} kB`;
}

/** Fails unless `lines` carry `ids` exactly, in order, once each, each with a bufferId. */
function expectEachOnceInOrder(lines: readonly ReceivedLine[], ids: readonly string[], what: string): void {
  const got = lines.map(inboundMessageId);
  const at = got.findIndex((id, index) => id !== ids[index]);
  if (at >= 0 || got.length !== ids.length) {
    const first = at >= 0 ? at : Math.min(got.length, ids.length);
    fail(
      `${what}: ${got.length} inbound frame(s) for the ${ids.length} events; from position ${first + 1} on got ${formatValue(got.slice(first, first + 3))}, expected ${formatValue(ids.slice(first, first + 3))} (each once, in the order delivered)`,
    );
  }
  const unbuffered = lines.find(
    (line) => line.frame?.type !== 'inbound' || typeof line.frame.bufferId !== 'string',
  );
  if (unbuffered !== undefined) fail(`${what}: an event came without a bufferId: ${quoteLine(unbuffered)}`);
}

/**
 * Waits until every one of `ids` came as an inbound line from line `from` on; fails saying how many
 * did not, and how the connection ended when it did.
 */
async function expectArrival(
  ctx: RelayConnectorContext,
  probe: GatewayProbe,
  ids: readonly string[],
  what: string,
  from: number,
): Promise<void> {
  const waitMs = ctx.patienceMs + ctx.inboundWindowMs;
  const missing = () => {
    const arrived = new Set(probe.lines.slice(from).map(inboundMessageId));
    return ids.filter((id) => !arrived.has(id));
  };
  await probe.next(() => missing().length === 0, waitMs, from);
  const left = missing();
  if (left.length === 0) return;
  const closed = probe.open ? undefined : await probe.closed;
  const ended =
    closed === undefined
      ? ''
      : `; the connection closed (code ${closed.code}, reason ${formatValue(closed.reason)})`;
  fail(
    `${what}: ${left.length} of the ${ids.length} events did not arrive within ${waitMs} ms after the gateway read again (the first missing: ${formatValue(left[0])})${ended}`,
  );
}

function pausedReaderCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.flow.paused-reader-loses-nothing`,
    title:
      'events delivered while the gateway reads nothing for a while (well within limits.drainTimeoutMs) all arrive once it reads again, in order, once each, on a connection that stays open',
    section: 'relay-reference §2.2, §2.6',
    requires: ['limits', 'operator'],
    run: async (ctx) => {
      const { drainTimeoutMs } = limitsOf(ctx);
      // Longer than two pings when idleMs is known: a connector must not judge pongs it does not read.
      const pauseMs = Math.min(ctx.idleMs ?? drainTimeoutMs / 2, drainTimeoutMs / 2);
      const events = flowEvents(ctx, 'flow-paused');
      const ids = events.map((event) => event['message_id'] as string);
      const what = `${megabytes(events)} delivered while the gateway read nothing for ${pauseMs} ms`;
      await withSession(ctx, async (probe) => {
        const from = probe.lines.length;
        probe.pause();
        const pausedAt = Date.now();
        const half = Math.ceil(events.length / 2);
        for (const event of events.slice(0, half)) await ctx.operator?.deliverInbound(event);
        // The rest comes while the connector waits for its backlog to drain: it must send them too.
        await sleep(Math.min(200, pauseMs / 4));
        for (const event of events.slice(half)) await ctx.operator?.deliverInbound(event);
        await sleep(pauseMs - (Date.now() - pausedAt));
        probe.resume();
        await expectArrival(ctx, probe, ids, what, from);
        const lines = await receiveEvents(ctx, probe, ids, what, from);
        expectEachOnceInOrder(lines, ids, what);
        // The first ping after reading resumed must find the connection alive.
        const closed = await probe.waitClosed((ctx.idleMs ?? 0) / 2);
        if (closed !== undefined) {
          fail(
            `${what}: the connection closed once they had arrived (code ${closed.code}, reason ${formatValue(closed.reason)}); a gateway that reads slowly must be slowed down, not dropped`,
          );
        }
        await exchange(ctx, probe, unsupportedAction, `an outbound after ${what}`);
      });
    },
  };
}

/** How long {@link goingIdleWhileHeldCase} listens after the `going_idle_ack` for frames that must not come. */
const AFTER_IDLE_ACK_MS = 500;

function goingIdleWhileHeldCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.flow.going-idle-while-held`,
    title:
      'a going_idle the connector reads only once its backlog drains still stops delivery: no inbound after the going_idle_ack, and the next connection gets the rest',
    section: 'relay-reference §2.4, §2.6',
    requires: ['limits', 'operator'],
    run: async (ctx) => {
      const events = flowEvents(ctx, 'flow-idle');
      const ids = events.map((event) => event['message_id'] as string);
      const what = `a going_idle sent while ${megabytes(events)} waited to be read`;
      await withSession(ctx, async (probe) => {
        const from = probe.lines.length;
        probe.pause();
        for (const event of events) await ctx.operator?.deliverInbound(event);
        // The connector has stopped reading the gateway by now: it reads this once the backlog drains.
        probe.send({ type: 'going_idle' });
        probe.resume();
        const waitMs = ctx.patienceMs + ctx.inboundWindowMs;
        const isAck = (line: ReceivedLine) => lineType(line) === 'going_idle_ack';
        const ack = await probe.next(isAck, waitMs, from);
        if (ack === undefined) {
          const ended = probe.open ? '' : ' (the connection closed)';
          fail(`${what}: no going_idle_ack within ${waitMs} ms of reading again${ended}`);
        }
        await probe.collect(AFTER_IDLE_ACK_MS);
        const late = probe.lines
          .slice(probe.lines.indexOf(ack) + 1)
          .filter((line) => ids.includes(inboundMessageId(line) as string));
        if (late.length > 0) {
          fail(
            `${what}: ${late.length} inbound frame(s) came after the going_idle_ack, the first ${quoteLine(late[0] as ReceivedLine)}; a gateway going idle takes nothing after it`,
          );
        }
      });
      // Nothing was acknowledged: the next connection gets every event, and acknowledges them.
      await withSession(ctx, async (probe) => {
        const next = 'the events left unacknowledged by the idle connection, on the next one';
        expectEachOnceInOrder(await receiveEvents(ctx, probe, ids, next), ids, next);
      });
    },
  };
}

function stalledReaderCase(): RelayLiveCase {
  return {
    ...since11,
    id: `${SUITE_NAME}.flow.stalled-reader-dropped`,
    title:
      'a gateway that stops reading while events are delivered is dropped within limits.drainTimeoutMs, and its next connection gets every event',
    section: 'relay-reference §2.2, §2.6',
    requires: ['limits', 'operator'],
    run: async (ctx) => {
      const { drainTimeoutMs } = limitsOf(ctx);
      const events = flowEvents(ctx, 'flow-stalled');
      const ids = events.map((event) => event['message_id'] as string);
      const stallMs = drainTimeoutMs + Math.min(1000, ctx.patienceMs / 2);
      await withSession(ctx, async (probe) => {
        probe.pause();
        for (const event of events) await ctx.operator?.deliverInbound(event);
        await sleep(stallMs);
        // Reading again shows how the connection ended: a dropped one ends once the kernel's data is read.
        probe.resume();
        const what = `after ${megabytes(events)} were delivered to a gateway that then read nothing for ${stallMs} ms (limits.drainTimeoutMs is ${drainTimeoutMs})`;
        const closed = await probe.waitClosed(ctx.patienceMs);
        if (closed === undefined) {
          fail(
            `${what}, the connection was still open ${ctx.patienceMs} ms after it read again; expected it dropped after limits.drainTimeoutMs`,
          );
        }
        expectLimitClose(closed, what);
      });
      // Nothing was acknowledged: the next connection gets every event, and acknowledges them.
      await withSession(ctx, async (probe) => {
        const what = 'the events left unacknowledged by the dropped connection, on the next one';
        expectEachOnceInOrder(await receiveEvents(ctx, probe, ids, what), ids, what);
      });
    },
  };
}
