// Frames that name no platform — every `get_chat_info`, a `follow_up`, an op for a chat the gateway has
// not seen — on a connection that said hello for several platforms; and a gateway `interrupt`, which
// names only a session key.
import { describe, expect, it } from 'vitest';
import { createMessageEvent } from '../message-event.js';
import { buildSessionKey } from '../session-key.js';
import type { PlatformAdapter } from './platform-adapter.js';
import { RecentChats } from './recent-chats.js';
import {
  connectGateway,
  discordDescriptor,
  requestId,
  settle,
  startServer,
  TENANT,
  type TestGateway,
} from './server-test-support.js';

/** An adapter whose `get_chat_info` and `send` name the platform that answered. */
function answering(platform: string, interrupts: unknown[] = []): PlatformAdapter {
  return {
    descriptor: { ...discordDescriptor, platform, label: platform },
    send: (action, context) => ({
      success: true,
      message_id: `${platform}/${context.botId}:${action.chat_id}`,
    }),
    get_chat_info: (action) => ({
      success: true,
      chat_info: { name: `${platform}:${action.chat_id}`, type: 'group' },
    }),
    onInterrupt: (sessionKey, _reason, context) => {
      interrupts.push({ sessionKey, ...context });
    },
  };
}

const slackSource = { platform: 'slack', chat_type: 'group', chat_id: 'C42', user_id: 'U1' } as const;

async function chatInfo(gateway: TestGateway, n: number, chatId: string): Promise<unknown> {
  gateway.send({
    type: 'outbound',
    requestId: requestId(n),
    action: { op: 'get_chat_info', chat_id: chatId },
  });
  return (await gateway.result(requestId(n)))['chat_info'];
}

describe('frames without a platform', () => {
  it("go to the platform of the chat's latest inbound event delivered here, else the session default", async () => {
    const server = await startServer(answering('discord'), {
      platforms: { discord: answering('discord'), slack: answering('slack') },
    });
    const gateway = await connectGateway(server, [
      ['discord', 'app1'],
      ['slack', 'B1'],
    ]);
    expect(await chatInfo(gateway, 1, 'C42')).toEqual({ name: 'discord:C42', type: 'group' });
    await server.deliverInbound(TENANT, createMessageEvent({ text: 'hi', source: slackSource }));
    expect(await chatInfo(gateway, 2, 'C42')).toEqual({ name: 'slack:C42', type: 'group' });
    // Another tenant's chat of the same id is not this tenant's.
    await server.deliverInbound(
      'tenant-b',
      createMessageEvent({ text: 'hi', source: { ...slackSource, chat_id: 'D7' } }),
    );
    expect(await chatInfo(gateway, 3, 'D7')).toEqual({ name: 'discord:D7', type: 'group' });
    // A frame that names its platform goes there, whatever the chat's history.
    gateway.send({
      type: 'outbound',
      requestId: requestId(4),
      platform: 'discord',
      action: { op: 'send', chat_id: 'C42', content: 'x' },
    });
    expect((await gateway.result(requestId(4)))['message_id']).toBe('discord/app1:C42');
  });

  it('go where routeChat says, and fail when it names a platform not announced or throws', async () => {
    const routed: unknown[] = [];
    const server = await startServer(answering('discord'), {
      platforms: { discord: answering('discord'), slack: answering('slack') },
      routeChat: (chatId, context) => {
        routed.push([chatId, context]);
        if (chatId === 'boom') throw new Error('lookup down');
        if (chatId.startsWith('tg')) return 'telegram';
        return chatId.startsWith('C') ? { platform: 'slack', botId: 'B2' } : undefined;
      },
    });
    const errors: Error[] = [];
    server.on('error', (error) => errors.push(error));
    const gateway = await connectGateway(server, [
      ['discord', 'app1'],
      ['slack', 'B1'],
      ['slack', 'B2'],
    ]);
    gateway.send({
      type: 'outbound',
      requestId: requestId(1),
      action: { op: 'send', chat_id: 'C9', content: 'x' },
    });
    expect((await gateway.result(requestId(1)))['message_id']).toBe('slack/B2:C9');
    expect(routed[0]).toEqual([
      'C9',
      {
        tenant: TENANT,
        gatewayId: 'gw-1',
        op: 'send',
        identities: [
          { platform: 'discord', botId: 'app1' },
          { platform: 'slack', botId: 'B1' },
          { platform: 'slack', botId: 'B2' },
        ],
      },
    ]);
    expect(await chatInfo(gateway, 2, '555')).toEqual({ name: 'discord:555', type: 'group' });
    gateway.send({
      type: 'outbound',
      requestId: requestId(3),
      action: { op: 'get_chat_info', chat_id: 'tg1' },
    });
    expect(await gateway.result(requestId(3))).toEqual({
      success: false,
      error: 'routeChat chose platform telegram, which was not announced in a hello on this connection',
    });
    gateway.send({
      type: 'outbound',
      requestId: requestId(4),
      action: { op: 'get_chat_info', chat_id: 'boom' },
    });
    expect(await gateway.result(requestId(4))).toEqual({
      success: false,
      error: 'routeChat failed for chat boom',
    });
    expect(errors.map((error) => error.message).join()).toContain('lookup down');
  });
});

describe('routeChat that hangs', () => {
  it('is bounded: its frames count as running, and each is answered within outboundTimeoutMs', async () => {
    const server = await startServer(answering('discord'), {
      platforms: { discord: answering('discord'), slack: answering('slack') },
      maxRunningOutbound: 2,
      outboundTimeoutMs: 150,
      routeChat: () => new Promise(() => undefined),
    });
    const gateway = await connectGateway(server, [
      ['discord', 'app1'],
      ['slack', 'B1'],
    ]);
    for (const n of [1, 2, 3]) {
      gateway.send({
        type: 'outbound',
        requestId: requestId(n),
        action: { op: 'get_chat_info', chat_id: `c${n}` },
      });
    }
    // The third is refused at once: two frames are already waiting for the rule.
    expect(await gateway.result(requestId(3))).toEqual({
      success: false,
      error: 'busy: 2 outbound calls are already running on this connection',
    });
    expect(await gateway.result(requestId(1))).toEqual({
      success: false,
      error: 'routeChat did not answer for chat c1 within 150 ms',
    });
    expect((await gateway.result(requestId(2)))['success']).toBe(false);
    // Then the connection serves again.
    gateway.send({
      type: 'outbound',
      requestId: requestId(4),
      platform: 'slack',
      action: { op: 'send', chat_id: 'C1', content: 'x' },
    });
    expect(await gateway.result(requestId(4))).toEqual({ success: true, message_id: 'slack/B1:C1' });
  });
});

describe('a gateway interrupt', () => {
  it("reaches the adapter of the session's chat with its chat id, when this server delivered an event of it", async () => {
    const interrupts: unknown[] = [];
    const server = await startServer(answering('discord', interrupts), {
      platforms: { discord: answering('discord', interrupts), slack: answering('slack', interrupts) },
    });
    const gateway = await connectGateway(server, [
      ['discord', 'app1'],
      ['slack', 'B1'],
    ]);
    await server.deliverInbound(TENANT, createMessageEvent({ text: 'hi', source: slackSource }));
    const known = buildSessionKey(slackSource);
    gateway.send({ type: 'interrupt', session_key: known });
    gateway.send({ type: 'interrupt', session_key: 'agent:main:discord:dm:never-seen' });
    while (interrupts.length < 2) await settle();
    expect(interrupts).toEqual([
      { sessionKey: known, tenant: TENANT, gatewayId: 'gw-1', platform: 'slack', botId: 'B1', chatId: 'C42' },
      {
        sessionKey: 'agent:main:discord:dm:never-seen',
        tenant: TENANT,
        gatewayId: 'gw-1',
        platform: 'discord',
        botId: 'app1',
        chatId: undefined,
      },
    ]);
    // What the adapter needs to pass the stop on, or to clear typing in the chat:
    expect(await server.deliverInterrupt(TENANT, known, 'C42')).toEqual({ delivered: true });
  });

  it("is given no chat id when the session's chat is on a platform this connection did not announce", async () => {
    const interrupts: unknown[] = [];
    const server = await startServer(answering('discord', interrupts), {
      platforms: { discord: answering('discord', interrupts), slack: answering('slack', interrupts) },
    });
    const gateway = await connectGateway(server, [['discord', 'app1']]);
    await server.deliverInbound(TENANT, createMessageEvent({ text: 'hi', source: slackSource }));
    gateway.send({ type: 'interrupt', session_key: buildSessionKey(slackSource) });
    while (interrupts.length < 1) await settle();
    expect(interrupts[0]).toMatchObject({ platform: 'discord', chatId: undefined });
  });

  it("of a follow_up's session goes to the session's chat's platform too", async () => {
    const server = await startServer(answering('discord'), {
      platforms: {
        discord: answering('discord'),
        slack: {
          ...answering('slack'),
          follow_up: (_a, c) => ({ success: true, message_id: `slack:${c.platform}` }),
        },
      },
    });
    const gateway = await connectGateway(server, [
      ['discord', 'app1'],
      ['slack', 'B1'],
    ]);
    await server.deliverInbound(TENANT, createMessageEvent({ text: 'hi', source: slackSource }));
    // The same chat id seen later on another platform does not move the slack session.
    const discordSource = { ...slackSource, platform: 'discord' } as const;
    await server.deliverInbound(TENANT, createMessageEvent({ text: 'hi', source: discordSource }));
    const sessionKey = buildSessionKey(slackSource);
    await server.bindCapability({
      tenant: TENANT,
      session_key: sessionKey,
      kind: 'k',
      credential: 'c',
      ttl_ms: 60_000,
    });
    gateway.send({
      type: 'outbound',
      requestId: requestId(1),
      action: { op: 'follow_up', session_key: sessionKey, kind: 'k', content: 'x' },
    });
    expect(await gateway.result(requestId(1))).toEqual({ success: true, message_id: 'slack:slack' });
  });
});

describe('RecentChats', () => {
  const source = (chat: string, platform = 'discord') => ({
    platform,
    chat_id: chat,
    chat_type: 'dm',
    user_id: 'u1',
  });

  it('forgets the least recently delivered chat and session past its limit', () => {
    const chats = new RecentChats(2);
    chats.remember('t', source('a'));
    chats.remember('t', source('b', 'telegram'));
    chats.remember('t', source('a'));
    chats.remember('t', source('c'));
    expect(chats.platformOf('t', 'b')).toBeUndefined();
    expect(chats.platformOf('t', 'a')).toBe('discord');
    expect(chats.platformOf('t', 'c')).toBe('discord');
    expect(chats.chatOf('t', 'agent:main:telegram:dm:b')).toBeUndefined();
    expect(chats.chatOf('t', 'agent:main:discord:dm:a')).toEqual({ chatId: 'a', platform: 'discord' });
    // Tenants are kept apart, and a numeric chat id is read as its text.
    chats.remember('u', { ...source('7'), chat_id: 7 });
    expect(chats.platformOf('u', '7')).toBe('discord');
    expect(chats.platformOf('t', '7')).toBeUndefined();
  });

  it('keeps a burst in one chat as one touch, and still sees a chat whose platform changed', () => {
    const chats = new RecentChats(2);
    chats.remember('t', source('a'));
    chats.remember('t', source('a'));
    chats.remember('t', source('b'));
    chats.remember('t', source('b', 'telegram'));
    expect(chats.platformOf('t', 'b')).toBe('telegram');
    chats.remember('t', source('c'));
    expect(chats.platformOf('t', 'a')).toBeUndefined();
    expect(chats.platformOf('t', 'b')).toBe('telegram');
    expect(chats.chatOf('t', 'agent:main:telegram:dm:b')).toEqual({ chatId: 'b', platform: 'telegram' });
  });

  it('skips a source it cannot read', () => {
    const chats = new RecentChats();
    for (const unreadable of [null, 'discord', { platform: 1, chat_id: 'x' }, { platform: 'discord' }]) {
      chats.remember('t', unreadable);
    }
    expect(chats.platformOf('t', 'x')).toBeUndefined();
    expect(chats.platformOf('t', 'undefined')).toBeUndefined();
  });
});
