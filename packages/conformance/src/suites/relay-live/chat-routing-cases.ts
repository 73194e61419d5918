import { newRequestId, type OutboundActionInput } from '@agentwire/relay';
import { fail, formatValue } from '../../assert.js';
import type { GatewayProbe } from './gateway-probe.js';
import {
  answerTo,
  isDescriptor,
  OPERATOR_RUN,
  operatorEvent,
  type RelayConnectorContext,
  type RelayLiveCase,
  type RelayPlatformCall,
  type RelayPlatformInterrupt,
  receiveEvents,
  SUITE_NAME,
  since12,
  withSession,
} from './relay-connector-suite.js';

/**
 * What the gateway leaves out of frames and a connector serving several platforms on one connection
 * must fill in (relay-reference §2.4, §7.1, §8): a `get_chat_info` (the gateway never names its
 * platform), a `follow_up`, an `interrupt` carry no platform. A connector sends each to the platform
 * the chat lives on — the platform of the chat's latest inbound event it delivered — and a frame for a
 * chat it never delivered to the identity of the first hello. Needs `secondPlatform` and the operator's
 * `platformCalls` (which then name each call's platform); the interrupt case `platformInterrupts`.
 */
export function chatRoutingCases(): RelayLiveCase[] {
  const routingCase = { ...since12, requires: ['second-platform', 'platform-calls'] } as const;
  return [
    {
      ...routingCase,
      id: `${SUITE_NAME}.chat-routing.frame-without-platform-to-chat-platform`,
      title:
        'a get_chat_info or send without a platform goes to the platform of its chat’s latest inbound event, a chat never delivered to the first hello’s platform, and a named platform wins',
      section: 'relay-reference §2.4, §7.1, §18.6',
      run: (ctx) =>
        withBothPlatforms(ctx, async (probe, second) => {
          const chat = `agentwire-conformance-routed-chat-${OPERATOR_RUN}`;
          await deliverOn(ctx, probe, second, chat, 'routed-1');
          await expectRoutedTo(ctx, probe, { op: 'get_chat_info', chat_id: chat }, {}, second);
          await expectRoutedTo(ctx, probe, sendTo(chat), {}, second);
          // A platform the frame names is the one, whatever the chat's.
          await expectRoutedTo(ctx, probe, sendTo(chat), { platform: ctx.platform }, ctx.platform);
          // A chat this connector never delivered: the identity of the first hello.
          const unknown = {
            op: 'get_chat_info',
            chat_id: `agentwire-conformance-unknown-chat-${OPERATOR_RUN}`,
          } as const;
          await expectRoutedTo(ctx, probe, unknown, {}, ctx.platform);
          // The chat's latest inbound event decides: now on the first platform.
          await deliverOn(ctx, probe, ctx.platform, chat, 'routed-2');
          await expectRoutedTo(ctx, probe, { op: 'get_chat_info', chat_id: chat }, {}, ctx.platform);
        }),
    },
    {
      ...routingCase,
      id: `${SUITE_NAME}.chat-routing.unannounced-chat-platform-to-first`,
      title:
        'a get_chat_info without a platform for a chat whose platform this connection did not announce goes to the first hello’s platform, not refused',
      section: 'relay-reference §2.4, §7.1, §18.6',
      run: (ctx) =>
        withSession(ctx, async (probe) => {
          // Only the first platform said hello here; the chat's latest event is of the second.
          const second = ctx.secondPlatform as string;
          const chat = `agentwire-conformance-unannounced-chat-${OPERATOR_RUN}`;
          await probe.collect(ctx.inboundWindowMs);
          await deliverOn(ctx, probe, second, chat, 'unannounced-1');
          await expectRoutedTo(ctx, probe, { op: 'get_chat_info', chat_id: chat }, {}, ctx.platform);
        }),
    },
    {
      ...routingCase,
      id: `${SUITE_NAME}.chat-routing.follow-up-to-session-platform`,
      title: 'a follow_up without a platform goes to the platform of its session’s chat',
      section: 'relay-reference §2.4, §7.1, §9',
      requires: ['second-platform', 'platform-calls', 'follow-up-binding'],
      run: (ctx) =>
        withBothPlatforms(ctx, async (probe, second) => {
          const chat = `agentwire-conformance-follow-up-chat-${OPERATOR_RUN}`;
          await deliverOn(ctx, probe, second, chat, 'follow-up-1');
          const sessionKey = dmSessionKey(second, chat);
          await ctx.operator?.bindFollowUp?.(sessionKey, 'conformance');
          const followUp = {
            op: 'follow_up',
            session_key: sessionKey,
            kind: 'conformance',
            content: 'agentwire conformance follow-up',
          } as const;
          await expectRoutedTo(ctx, probe, followUp, {}, second);
        }),
    },
    {
      ...since12,
      requires: ['second-platform', 'platform-interrupts'],
      id: `${SUITE_NAME}.chat-routing.interrupt-to-chat-platform`,
      title:
        'an interrupt reaches the adapter of its session’s chat’s platform with the chat id; one for a session never delivered, or whose platform the connection did not announce, the first hello’s adapter without a chat id',
      section: 'relay-reference §2.4, §8',
      run: (ctx) =>
        withBothPlatforms(ctx, async (probe, second) => {
          const chat = `agentwire-conformance-interrupted-chat-${OPERATOR_RUN}`;
          await deliverOn(ctx, probe, second, chat, 'interrupt-1');
          const sessionKey = dmSessionKey(second, chat);
          await expectInterruptedOn(ctx, probe, sessionKey, { platform: second, chatId: chat });
          const unknown = dmSessionKey(second, `agentwire-conformance-never-delivered-${OPERATOR_RUN}`);
          await expectInterruptedOn(ctx, probe, unknown, { platform: ctx.platform });
        }).then(() =>
          // A connection that announced only the first platform: its adapter, and no chat of another platform.
          withSession(ctx, async (probe) => {
            const second = ctx.secondPlatform as string;
            const chat = `agentwire-conformance-interrupted-elsewhere-${OPERATOR_RUN}`;
            await probe.collect(ctx.inboundWindowMs);
            await deliverOn(ctx, probe, second, chat, 'interrupt-2');
            await expectInterruptedOn(ctx, probe, dmSessionKey(second, chat), { platform: ctx.platform });
          }),
        ),
    },
  ];
}

/** A session with a hello for the suite's platform, then one for the second platform. */
function withBothPlatforms(
  ctx: RelayConnectorContext,
  body: (probe: GatewayProbe, second: string) => Promise<void>,
): Promise<void> {
  return withSession(ctx, async (probe) => {
    const second = ctx.secondPlatform as string;
    const from = probe.lines.length;
    probe.send({ type: 'hello', platform: second, botId: '' });
    if ((await probe.next(isDescriptor, ctx.patienceMs, from)) === undefined) {
      fail(
        `no descriptor within ${ctx.patienceMs} ms of a hello for the second platform ${formatValue(second)}`,
      );
    }
    // What was buffered before is taken and acknowledged first, so that it does not interleave.
    await probe.collect(ctx.inboundWindowMs);
    await body(probe, second);
  });
}

/** Delivers a direct message of `chat` on `platform` through the operator, and receives it. */
async function deliverOn(
  ctx: RelayConnectorContext,
  probe: GatewayProbe,
  platform: string,
  chat: string,
  name: string,
): Promise<void> {
  const event = operatorEvent(ctx, name);
  const source = { ...(event['source'] as Record<string, unknown>), platform, chat_id: chat };
  const from = probe.lines.length;
  await ctx.operator?.deliverInbound({ ...event, source });
  await receiveEvents(
    ctx,
    probe,
    [event['message_id'] as string],
    `an event of ${chat} on ${platform}`,
    from,
  );
}

/** The gateway's session key of a direct message (`agent:main:<platform>:dm:<chat>`). */
function dmSessionKey(platform: string, chat: string): string {
  return `agent:main:${platform}:dm:${chat}`;
}

function sendTo(chat: string): OutboundActionInput {
  return {
    op: 'send',
    chat_id: chat,
    content: 'agentwire conformance routed send',
    reply_to: null,
    metadata: {},
  };
}

/** Sends `action` (with `route`), and requires one call of it, on `platform`, and a successful answer. */
async function expectRoutedTo(
  ctx: RelayConnectorContext,
  probe: GatewayProbe,
  action: OutboundActionInput,
  route: { readonly platform?: string },
  platform: string,
): Promise<void> {
  const requestId = newRequestId();
  const from = probe.lines.length;
  const label = `a ${action.op}${route.platform === undefined ? ' without a platform' : ` for ${route.platform}`}`;
  probe.send({ type: 'outbound', requestId, action, ...route });
  const result = await answerTo(ctx, probe, requestId, label, from);
  if (result['success'] !== true)
    fail(`${label} was answered ${formatValue(result)}; expected success: true`);
  const calls: readonly RelayPlatformCall[] = (await ctx.operator?.platformCalls?.(requestId)) ?? [];
  if (calls.length !== 1) fail(`${label} reached the platform ${calls.length} times; expected once`);
  const [call] = calls as [RelayPlatformCall];
  if (call.platform !== platform) {
    const fields = action as unknown as Readonly<Record<string, unknown>>;
    const target = fields['chat_id'] ?? fields['session_key'];
    fail(
      `${label} for ${formatValue(target)} went to ${formatValue(call.platform)}; expected ${formatValue(platform)}`,
    );
  }
}

/** Sends an `interrupt` for `sessionKey` and requires the one call it makes to be `expected`. */
async function expectInterruptedOn(
  ctx: RelayConnectorContext,
  probe: GatewayProbe,
  sessionKey: string,
  expected: { readonly platform: string; readonly chatId?: string },
): Promise<void> {
  probe.send({ type: 'interrupt', session_key: sessionKey, reason: 'agentwire conformance' });
  const interrupts = ctx.operator?.platformInterrupts;
  let calls: readonly RelayPlatformInterrupt[] = [];
  // An interrupt is answered by nothing: wait for the call, then a little more for any second one.
  const deadline = Date.now() + ctx.patienceMs;
  while (Date.now() < deadline) {
    calls = (await interrupts?.(sessionKey)) ?? [];
    if (calls.length > 0) break;
    await probe.collect(20);
  }
  await probe.collect(50);
  calls = (await interrupts?.(sessionKey)) ?? [];
  if (!probe.open) fail('the connector closed the connection after an interrupt');
  if (calls.length !== 1) {
    fail(
      `the interrupt of ${sessionKey} reached a platform ${calls.length} times within ${ctx.patienceMs} ms; expected once`,
    );
  }
  const [call] = calls as [RelayPlatformInterrupt];
  if (call.platform !== expected.platform || call.chatId !== expected.chatId) {
    fail(`the interrupt of ${sessionKey} reached ${formatValue(call)}; expected ${formatValue(expected)}`);
  }
}
