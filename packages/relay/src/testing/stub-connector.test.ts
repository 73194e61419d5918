import { describe, expect, it } from 'vitest';
import { eventFromWire, type MessageEvent } from '../message-event.js';
import type { PassthroughDelivery, RelayTransport } from '../transport.js';
import { StubConnector } from './stub-connector.js';
import { DISCORD_DESCRIPTOR, discordEvent } from './test-support.js';

const FORWARD: PassthroughDelivery = {
  platform: 'discord',
  botId: 'app',
  method: 'POST',
  path: '/interactions',
  headers: [['content-type', 'application/json']],
  body: new TextEncoder().encode('{"type":1}'),
  profile: null,
};

describe('StubConnector', () => {
  it('is a RelayTransport with a fixed descriptor and connection flag', async () => {
    const stub: RelayTransport = new StubConnector(DISCORD_DESCRIPTOR);
    const concrete = stub as StubConnector;
    expect(concrete.connected).toBe(false);
    expect(await stub.connect()).toBe(true);
    expect(concrete.connected).toBe(true);
    expect(await stub.handshake()).toBe(DISCORD_DESCRIPTOR);
    await stub.disconnect();
    expect(concrete.connected).toBe(false);
  });

  it('records every outbound action with its platform, in order', async () => {
    const stub = new StubConnector(DISCORD_DESCRIPTOR);
    const send = { op: 'send', chat_id: 'chan1', content: 'hi' } as const;
    const typing = { op: 'typing', chat_id: 'chan1' } as const;
    await stub.sendOutbound(send, { platform: 'discord' });
    await stub.sendOutbound(typing);
    expect(stub.sent).toEqual([send, typing]);
    expect(stub.sent[0]).toBe(send);
    expect(stub.sentPlatforms).toEqual(['discord', null]);
  });

  it('answers each op with the Python stub canned results', async () => {
    const stub = new StubConnector(DISCORD_DESCRIPTOR);
    expect(await stub.sendOutbound({ op: 'send', chat_id: 'c', content: 'x' })).toEqual({
      success: true,
      message_id: 'm1',
    });
    expect(
      await stub.sendOutbound({
        op: 'send_media',
        chat_id: 'c',
        media_kind: 'image',
        source_url: 'https://x/y.png',
      }),
    ).toEqual({ success: true, message_id: 'md1' });
    expect(
      await stub.sendOutbound({
        op: 'prompt',
        chat_id: 'c',
        content: 'ok?',
        prompt_kind: 'approval',
        prompt_id: 'a1b2c3d4',
        options: [{ id: 'once', label: 'Allow once' }],
      }),
    ).toEqual({ success: true, message_id: 'pm1' });
    expect(await stub.sendOutbound({ op: 'react', chat_id: 'c', message_id: 'm', emoji: '👀' })).toEqual({
      success: true,
    });
    expect(await stub.sendOutbound({ op: 'edit', chat_id: 'c', message_id: 'm', content: 'y' })).toEqual({
      success: true,
    });
    expect(await stub.sendOutbound({ op: 'thread_create', chat_id: 'c', thread_name: 'handoff' })).toEqual({
      success: true,
    });
    expect(await stub.sendOutbound({ op: 'unknown', rawOp: 'draft', raw: { op: 'draft' } })).toEqual({
      success: true,
    });
    expect(
      await stub.sendFollowUp({
        op: 'follow_up',
        session_key: 'k',
        kind: 'discord.interaction_token',
        content: 'x',
      }),
    ).toEqual({ success: true, message_id: 'f1' });
  });

  it('uses overridden canned results on every later call, as copies', async () => {
    const stub = new StubConnector(DISCORD_DESCRIPTOR);
    stub.nextSendResult = { success: false, error: 'egress declined: not approved' };
    stub.nextMediaResult = { success: false, error: 'too big' };
    stub.nextPromptResult = { success: false };
    stub.nextReactResult = { success: false };
    stub.nextFollowUpResult = { success: false, error: 'capability expired' };
    stub.nextResults.thread_create = { success: true, thread_id: 'th9' };
    const send = { op: 'send', chat_id: 'c', content: 'x' } as const;
    const first = await stub.sendOutbound(send);
    const second = await stub.sendOutbound(send);
    expect(first).toEqual({ success: false, error: 'egress declined: not approved' });
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(first).not.toBe(stub.nextSendResult);
    expect(stub.nextResults.send).toBe(stub.nextSendResult);
    expect(
      await stub.sendOutbound({ op: 'send_media', chat_id: 'c', media_kind: 'image', source_url: 'u' }),
    ).toEqual({ success: false, error: 'too big' });
    expect(
      await stub.sendOutbound({
        op: 'prompt',
        chat_id: 'c',
        content: 'q',
        prompt_kind: 'clarify',
        prompt_id: 'p',
        options: [],
      }),
    ).toEqual({ success: false });
    expect(await stub.sendOutbound({ op: 'react', chat_id: 'c', message_id: 'm', emoji: 'x' })).toEqual({
      success: false,
    });
    expect(await stub.sendOutbound({ op: 'thread_create', chat_id: 'c', thread_name: 'n' })).toEqual({
      success: true,
      thread_id: 'th9',
    });
    expect(
      await stub.sendFollowUp({
        op: 'follow_up',
        session_key: 'k',
        kind: 'discord.interaction_token',
        content: 'x',
      }),
    ).toEqual({ success: false, error: 'capability expired' });
  });

  it('records follow-ups apart from sent actions, with their platform', async () => {
    const stub = new StubConnector(DISCORD_DESCRIPTOR);
    const action = {
      op: 'follow_up',
      session_key: 'agent:main:discord:group:chan1:u1',
      kind: 'discord.interaction_token',
      content: 'done',
    } as const;
    await stub.sendFollowUp(action, { platform: 'discord' });
    expect(stub.followUps).toEqual([action]);
    expect(stub.followUpPlatforms).toEqual(['discord']);
    expect(stub.sent).toEqual([]);
  });

  it('answers getChatInfo from the fixture map, else {name: chatId, type: "dm"}', async () => {
    const stub = new StubConnector(DISCORD_DESCRIPTOR);
    stub.chatInfo.set('chan1', { name: 'general', type: 'group' });
    expect(await stub.getChatInfo('chan1')).toEqual({ name: 'general', type: 'group' });
    expect(await stub.getChatInfo('other')).toEqual({ name: 'other', type: 'dm' });
  });

  it('records interrupts with a null reason by default', async () => {
    const stub = new StubConnector(DISCORD_DESCRIPTOR);
    await stub.sendInterrupt('agent:main:telegram:dm:42');
    await stub.sendInterrupt('agent:main:discord:group:chan1:u1', 'user stop');
    expect(stub.interrupts).toEqual([
      { sessionKey: 'agent:main:telegram:dm:42', reason: null },
      { sessionKey: 'agent:main:discord:group:chan1:u1', reason: 'user stop' },
    ]);
  });

  it('pushInbound awaits the installed inbound handler', async () => {
    const stub = new StubConnector(DISCORD_DESCRIPTOR);
    const seen: MessageEvent[] = [];
    stub.onInbound(async (event) => {
      await Promise.resolve();
      seen.push(event);
    });
    const event = eventFromWire(discordEvent('hello'));
    await stub.pushInbound(event);
    expect(seen).toEqual([event]);
  });

  it('pushInterrupt and pushPassthrough reach their handlers', async () => {
    const stub = new StubConnector(DISCORD_DESCRIPTOR);
    const interrupts: [string, string][] = [];
    const forwards: [PassthroughDelivery, string | null][] = [];
    stub.onInterruptInbound((sessionKey, chatId) => {
      interrupts.push([sessionKey, chatId]);
    });
    stub.onPassthrough((forward, bufferId) => {
      forwards.push([forward, bufferId]);
    });
    await stub.pushInterrupt('agent:main:discord:group:chan1:u1', 'chan1');
    await stub.pushPassthrough(FORWARD);
    await stub.pushPassthrough(FORWARD, 'pb-1');
    expect(interrupts).toEqual([['agent:main:discord:group:chan1:u1', 'chan1']]);
    expect(forwards).toEqual([
      [FORWARD, null],
      [FORWARD, 'pb-1'],
    ]);
  });

  it('a later handler replaces the earlier one', async () => {
    const stub = new StubConnector(DISCORD_DESCRIPTOR);
    const calls: string[] = [];
    stub.onInbound(() => {
      calls.push('first');
    });
    stub.onInbound(() => {
      calls.push('second');
    });
    await stub.pushInbound(eventFromWire(discordEvent('x')));
    expect(calls).toEqual(['second']);
  });

  it('push drivers throw handler_missing before a handler is installed', async () => {
    const stub = new StubConnector(DISCORD_DESCRIPTOR);
    const inbound = stub.pushInbound(eventFromWire(discordEvent('x')));
    await expect(inbound).rejects.toMatchObject({ code: 'handler_missing' });
    await expect(inbound).rejects.toMatchObject({ code: 'handler_missing', details: { handler: 'inbound' } });
    await expect(stub.pushInterrupt('k', 'c')).rejects.toMatchObject({
      code: 'handler_missing',
      details: { handler: 'interrupt_inbound' },
    });
    await expect(stub.pushPassthrough(FORWARD)).rejects.toMatchObject({
      name: 'RelayError',
      code: 'handler_missing',
      details: { handler: 'passthrough' },
    });
  });

  it('propagates what the handler throws to the driver', async () => {
    const stub = new StubConnector(DISCORD_DESCRIPTOR);
    stub.onInbound(() => {
      throw new Error('handler failed');
    });
    await expect(stub.pushInbound(eventFromWire(discordEvent('x')))).rejects.toThrow('handler failed');
  });
});
