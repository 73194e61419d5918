import { describe, expect, it, vi } from 'vitest';
import type { OutboundAction } from '../frames/actions.js';
import { decodeGatewayFrame } from '../frames/decode.js';
import type { OutboundResultObject } from '../frames/frames.js';
import { GATEWAY_LINES, REQUEST_ID } from '../frames/test-frames.js';
import type { MessageEvent } from '../message-event.js';
import { encodePassthroughBody } from '../passthrough.js';
import type { PassthroughDelivery, RelayTransportError } from '../transport.js';
import { createLinkedTransportPair, type LinkedTransportPairOptions } from './linked-pair.js';
import { DISCORD_DESCRIPTOR, discordEvent, TELEGRAM_DESCRIPTOR } from './test-support.js';

const DISCORD_HELLO = decodeGatewayFrame(GATEWAY_LINES.helloDiscord);
if (DISCORD_HELLO.type !== 'hello') throw new Error('test frame is not a hello');

async function connectedPair(options: Partial<LinkedTransportPairOptions> = {}) {
  const pair = createLinkedTransportPair({
    connector: { descriptor: DISCORD_DESCRIPTOR, onOutbound: () => ({ success: true }) },
    ...options,
  });
  expect(await pair.gateway.connect()).toBe(true);
  await pair.gateway.handshake();
  return pair;
}

function linesTo(pair: { wire: readonly { direction: string; data: unknown }[] }, direction: string) {
  return pair.wire.filter((record) => record.direction === direction).map((record) => record.data);
}

describe('createLinkedTransportPair: handshake', () => {
  it('sends one hello per identity and resolves handshake with the first descriptor', async () => {
    const pair = createLinkedTransportPair({
      identities: [
        { platform: 'discord', botId: 'appShared', command_manifest: DISCORD_HELLO.command_manifest ?? [] },
        { platform: 'telegram', botId: '' },
      ],
      connector: {
        descriptor: (hello) => (hello.platform === 'discord' ? DISCORD_DESCRIPTOR : TELEGRAM_DESCRIPTOR),
      },
    });
    expect(pair.gateway.connected).toBe(false);
    expect(await pair.gateway.connect()).toBe(true);
    expect(pair.gateway.connected).toBe(true);
    expect(await pair.gateway.handshake()).toEqual(DISCORD_DESCRIPTOR);
    await pair.flush();
    expect(pair.connector.hellos.map((hello) => [hello.platform, hello.botId])).toEqual([
      ['discord', 'appShared'],
      ['telegram', ''],
    ]);
    expect(linesTo(pair, 'to_connector')).toEqual([
      GATEWAY_LINES.helloDiscord,
      '{"type": "hello", "platform": "telegram", "botId": ""}\n',
    ]);
    expect(await pair.gateway.handshake()).toEqual(DISCORD_DESCRIPTOR);
    expect(pair.gateway.descriptorFor('telegram')).toEqual(TELEGRAM_DESCRIPTOR);
    expect(pair.gateway.descriptorFor('discord')).toEqual(DISCORD_DESCRIPTOR);
    expect(pair.gateway.descriptorFor('slack')).toBeUndefined();
  });

  it('defaults to the relay identity with an empty botId', async () => {
    const pair = await connectedPair();
    expect(linesTo(pair, 'to_connector')).toEqual([GATEWAY_LINES.helloRelay]);
  });

  it('rejects handshake before connect with not_connected', async () => {
    const pair = createLinkedTransportPair({ connector: { descriptor: DISCORD_DESCRIPTOR } });
    await expect(pair.gateway.handshake()).rejects.toMatchObject({ code: 'not_connected' });
  });

  it('times out a handshake the connector never answers, retryably', async () => {
    const pair = createLinkedTransportPair({
      handshakeTimeoutMs: 20,
      connector: { descriptor: () => undefined },
    });
    await pair.gateway.connect();
    const error = await pair.gateway.handshake().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'RelayTransportError', code: 'handshake_timeout' });
    expect(error).toMatchObject({ retryable: true, details: { timeoutMs: 20 } });
  });

  it('rejects a descriptor missing required fields with a non-retryable typed error', async () => {
    const pair = createLinkedTransportPair({ connector: { descriptor: () => undefined } });
    await pair.gateway.connect();
    const handshake = pair.gateway.handshake();
    pair.connector.sendRaw('{"type":"descriptor","descriptor":{"platform":"discord"}}\n');
    const error = await handshake.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'RelayTransportError', code: 'descriptor_rejected' });
    expect(error).toMatchObject({ retryable: false, code: 'descriptor_rejected' });
    expect((error as Error).cause).toBe(pair.gateway.errors[0]);
  });

  it('resolves connect() false when the connector refuses the connection', async () => {
    const pair = createLinkedTransportPair({ connector: { descriptor: DISCORD_DESCRIPTOR } });
    pair.connector.accepting = false;
    expect(await pair.gateway.connect()).toBe(false);
    expect(pair.gateway.connected).toBe(false);
    await expect(pair.gateway.sendInterrupt('k')).rejects.toMatchObject({ code: 'not_connected' });
  });

  it('re-sends the hellos on a reconnect and takes the new connection’s descriptor', async () => {
    let answer = DISCORD_DESCRIPTOR;
    const pair = createLinkedTransportPair({ connector: { descriptor: () => answer } });
    await pair.gateway.connect();
    expect(await pair.gateway.handshake()).toEqual(DISCORD_DESCRIPTOR);
    await pair.gateway.disconnect();
    await pair.flush();
    expect(pair.connector.connected).toBe(false);
    answer = TELEGRAM_DESCRIPTOR;
    await pair.gateway.connect();
    expect(await pair.gateway.handshake()).toEqual(TELEGRAM_DESCRIPTOR);
    expect(pair.connector.hellos).toHaveLength(2);
  });
});

describe('createLinkedTransportPair: outbound', () => {
  it('writes the gateway’s exact outbound bytes and returns the connector’s result', async () => {
    const actions: OutboundAction[] = [];
    const pair = await connectedPair({
      identities: [{ platform: 'discord', botId: 'appShared' }],
      newRequestId: () => REQUEST_ID,
      connector: {
        descriptor: DISCORD_DESCRIPTOR,
        onOutbound: (action) => {
          actions.push(action);
          return { success: true, message_id: 'm1' };
        },
      },
    });
    const result = await pair.gateway.sendOutbound(
      {
        op: 'send',
        chat_id: 'chan1',
        content: 'hi 😀 café',
        metadata: { notify: true, scope_id: 'guildA', user_id: 'u1' },
      },
      { platform: 'discord' },
    );
    expect(result).toEqual({ success: true, message_id: 'm1' });
    expect(linesTo(pair, 'to_connector').at(-1)).toBe(GATEWAY_LINES.send);
    expect(linesTo(pair, 'to_gateway').at(-1)).toBe(
      `{"type":"outbound_result","requestId":"${REQUEST_ID}","result":{"success":true,"message_id":"m1"}}\n`,
    );
    expect(actions).toEqual([
      {
        op: 'send',
        chat_id: 'chan1',
        content: 'hi 😀 café',
        reply_to: null,
        metadata: { notify: true, scope_id: 'guildA', user_id: 'u1' },
      },
    ]);
    expect(pair.connector.outbound[0]).toMatchObject({ platform: 'discord', botId: 'appShared' });
  });

  it('round-trips every op through the codec', async () => {
    const ops: string[] = [];
    const pair = await connectedPair({
      connector: {
        descriptor: DISCORD_DESCRIPTOR,
        onOutbound: (action) => {
          ops.push(action.op === 'unknown' ? `unknown:${String(action.rawOp)}` : action.op);
          return { success: true, echo: action.op };
        },
      },
    });
    const gateway = pair.gateway;
    const results = await Promise.all([
      gateway.sendOutbound({ op: 'send', chat_id: 'c', content: 'x' }),
      gateway.sendOutbound({ op: 'edit', chat_id: 'c', message_id: 'm', content: 'y' }),
      gateway.sendOutbound({ op: 'typing', chat_id: 'c' }),
      gateway.sendFollowUp({
        op: 'follow_up',
        session_key: 'k',
        kind: 'discord.interaction_token',
        content: 'z',
      }),
      gateway.sendOutbound({
        op: 'send_media',
        chat_id: 'c',
        media_kind: 'voice',
        source_url: 'https://x/v.ogg',
      }),
      gateway.sendOutbound({
        op: 'prompt',
        chat_id: 'c',
        content: 'ok?',
        prompt_kind: 'approval',
        prompt_id: 'a1b2c3d4',
        options: [{ id: 'once', label: 'Allow once', style: 'success' }],
        timeout_s: 300,
      }),
      gateway.sendOutbound({ op: 'react', chat_id: 'c', message_id: 'm', emoji: '👀', remove: true }),
      gateway.sendOutbound({ op: 'thread_create', chat_id: 'c', thread_name: 'handoff' }),
      gateway.sendOutbound({
        op: 'thread_rename',
        chat_id: 'c',
        message_id: 'th',
        thread_name: 'Fix',
        only_if_current_name: 'handoff',
      }),
      gateway.sendOutbound({ op: 'unknown', rawOp: 'delete', raw: { op: 'delete', chat_id: 'c' } }),
    ]);
    expect(results.map((r) => r['echo'])).toEqual([
      'send',
      'edit',
      'typing',
      'follow_up',
      'send_media',
      'prompt',
      'react',
      'thread_create',
      'thread_rename',
      'unknown',
    ]);
    expect(ops).toEqual([
      'send',
      'edit',
      'typing',
      'follow_up',
      'send_media',
      'prompt',
      'react',
      'thread_create',
      'thread_rename',
      'unknown:delete',
    ]);
    expect(new Set(pair.connector.outbound.map((frame) => frame.requestId)).size).toBe(10);
    for (const frame of pair.connector.outbound) expect(frame.requestId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('correlates results that come back out of order by requestId', async () => {
    const release: (() => void)[] = [];
    const pair = await connectedPair({
      connector: {
        descriptor: DISCORD_DESCRIPTOR,
        onOutbound: async (action) => {
          if (action.op === 'send' && action.content === 'slow')
            await new Promise<void>((r) => release.push(r));
          return { success: true, message_id: action.op === 'send' ? action.content : '' };
        },
      },
    });
    const slow = pair.gateway.sendOutbound({ op: 'send', chat_id: 'c', content: 'slow' });
    const fast = pair.gateway.sendOutbound({ op: 'send', chat_id: 'c', content: 'fast' });
    expect(await fast).toEqual({ success: true, message_id: 'fast' });
    release[0]?.();
    expect(await slow).toEqual({ success: true, message_id: 'slow' });
  });

  it('answers exactly one failed result per requestId when the handler throws or returns junk', async () => {
    const pair = await connectedPair({
      connector: {
        descriptor: DISCORD_DESCRIPTOR,
        onOutbound: async (action) => {
          if (action.op === 'send') throw new Error('platform 500');
          if (action.op === 'edit') return 'nope' as unknown as OutboundResultObject;
          if (action.op === 'react') return { success: true, size: 10n } as unknown as OutboundResultObject;
          return Promise.reject('plain string');
        },
      },
    });
    const results = await Promise.all([
      pair.gateway.sendOutbound({ op: 'send', chat_id: 'c', content: 'x' }),
      pair.gateway.sendOutbound({ op: 'edit', chat_id: 'c', message_id: 'm', content: 'y' }),
      pair.gateway.sendOutbound({ op: 'react', chat_id: 'c', message_id: 'm', emoji: 'x' }),
      pair.gateway.sendOutbound({ op: 'typing', chat_id: 'c' }),
    ]);
    expect(results[0]).toEqual({ success: false, error: 'platform 500' });
    expect(results[1]).toMatchObject({ success: false, error: expect.stringContaining('object') });
    expect(results[2]).toMatchObject({ success: false, error: expect.any(String) });
    expect(results[3]).toEqual({ success: false, error: 'plain string' });
    await pair.flush();
    const resultLines = linesTo(pair, 'to_gateway').filter((line) =>
      String(line).includes('outbound_result'),
    );
    expect(resultLines).toHaveLength(4);
  });

  it('fails every action when the connector has no onOutbound handler', async () => {
    const pair = await connectedPair({ connector: { descriptor: DISCORD_DESCRIPTOR } });
    expect(await pair.gateway.sendOutbound({ op: 'typing', chat_id: 'c' })).toMatchObject({
      success: false,
      error: expect.stringContaining('typing'),
    });
  });

  it('reads a missing result as {} and ignores results for unknown or settled requestIds', async () => {
    const ids = ['a'.repeat(32), 'b'.repeat(32)];
    const pair = await connectedPair({
      newRequestId: () => ids.shift() ?? 'c'.repeat(32),
      connector: {
        descriptor: DISCORD_DESCRIPTOR,
        onOutbound: () => new Promise<OutboundResultObject>(() => undefined),
      },
    });
    const first = pair.gateway.sendOutbound({ op: 'typing', chat_id: 'c' });
    await vi.waitFor(() => expect(pair.connector.outbound).toHaveLength(1));
    pair.connector.sendFrame({
      type: 'outbound_result',
      requestId: 'f'.repeat(32),
      result: { success: true },
    });
    pair.connector.sendRaw(`{"type":"outbound_result","requestId":"${'a'.repeat(32)}"}\n`);
    expect(await first).toEqual({});
    pair.connector.sendFrame({
      type: 'outbound_result',
      requestId: 'a'.repeat(32),
      result: { success: true },
    });
    const second = pair.gateway.sendOutbound({ op: 'typing', chat_id: 'c' });
    await vi.waitFor(() => expect(pair.connector.outbound).toHaveLength(2));
    pair.connector.sendFrame({
      type: 'outbound_result',
      requestId: 'b'.repeat(32),
      result: { success: true, n: 2 },
    });
    expect(await second).toEqual({ success: true, n: 2 });
    expect(pair.gateway.errors).toEqual([]);
  });

  it('omits botId when the identity has none, and names no platform unless given', async () => {
    const pair = await connectedPair({
      identities: [
        { platform: 'relay', botId: '' },
        { platform: 'telegram', botId: '' },
      ],
    });
    await pair.gateway.sendOutbound({ op: 'typing', chat_id: 'c' }, { platform: 'telegram' });
    await pair.gateway.sendOutbound({ op: 'typing', chat_id: 'c' }, { platform: 'slack' });
    await pair.gateway.sendOutbound({ op: 'typing', chat_id: 'c' });
    const [telegram, slack, none] = pair.connector.outbound;
    expect(telegram).toMatchObject({ platform: 'telegram' });
    expect(telegram).not.toHaveProperty('botId');
    expect(slack).toMatchObject({ platform: 'slack' });
    expect(none).not.toHaveProperty('platform');
  });

  it('rejects an action that does not match its op schema without sending it', async () => {
    const pair = await connectedPair();
    const sentBefore = pair.wire.length;
    const bad = { op: 'send', chat_id: 'c' } as unknown as Parameters<typeof pair.gateway.sendOutbound>[0];
    await expect(pair.gateway.sendOutbound(bad)).rejects.toMatchObject({
      name: 'RelayError',
      code: 'invalid_frame',
    });
    expect(pair.wire.length).toBe(sentBefore);
  });

  it('getChatInfo sends get_chat_info without platform and reads the result as the gateway', async () => {
    const pair = await connectedPair({
      connector: {
        descriptor: DISCORD_DESCRIPTOR,
        onOutbound: (action) => {
          if (action.op !== 'get_chat_info') return { success: false };
          if (action.chat_id === 'chan1')
            return { success: true, chat_info: { name: 'general', type: 'group' } };
          if (action.chat_id === 'flat') return { success: true, name: 'flat chat' };
          return { success: false };
        },
      },
    });
    expect(await pair.gateway.getChatInfo('chan1')).toEqual({ name: 'general', type: 'group' });
    expect(await pair.gateway.getChatInfo('flat')).toEqual({ name: 'flat chat', type: 'dm' });
    expect(await pair.gateway.getChatInfo('gone')).toEqual({ name: 'gone', type: 'dm' });
    const lines = linesTo(pair, 'to_connector').slice(-3);
    for (const line of lines) expect(line).not.toContain('platform');
    expect(lines[0]).toMatch(/"action": \{"op": "get_chat_info", "chat_id": "chan1"\}\}\n$/);
  });

  it('rejects before connect with not_connected (retryable, not ambiguous)', async () => {
    const pair = createLinkedTransportPair({ connector: { descriptor: DISCORD_DESCRIPTOR } });
    const error = await pair.gateway.sendOutbound({ op: 'typing', chat_id: 'c' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'RelayTransportError', code: 'not_connected' });
    expect(error).toMatchObject({ retryable: true, ambiguous: false });
    await expect(pair.gateway.getChatInfo('c')).rejects.toMatchObject({ code: 'not_connected' });
    await expect(
      pair.gateway.sendFollowUp({ op: 'follow_up', session_key: 'k', kind: 'x', content: 'y' }),
    ).rejects.toMatchObject({ code: 'not_connected' });
    expect(pair.wire).toEqual([]);
  });

  it('times out an unanswered request with an ambiguous retryable error and ignores the late result', async () => {
    let answerLate: ((result: OutboundResultObject) => void) | undefined;
    const pair = await connectedPair({
      outboundTimeoutMs: 20,
      connector: {
        descriptor: DISCORD_DESCRIPTOR,
        onOutbound: () =>
          new Promise<OutboundResultObject>((resolve) => {
            answerLate = resolve;
          }),
      },
    });
    const error = await pair.gateway.sendOutbound({ op: 'send', chat_id: 'c', content: 'x' }).catch((e) => e);
    expect(error).toMatchObject({ name: 'RelayTransportError', code: 'outbound_timeout' });
    expect(error).toMatchObject({ retryable: true, ambiguous: true, details: { timeoutMs: 20 } });
    expect(error.requestId).toBe(pair.connector.outbound[0]?.requestId);
    answerLate?.({ success: true, message_id: 'late' });
    await pair.flush();
    expect(pair.gateway.errors).toEqual([]);
  });

  it('rejects pending requests and the handshake with transport_closed on disconnect', async () => {
    const pair = createLinkedTransportPair({
      connector: {
        descriptor: () => undefined,
        onOutbound: () => new Promise<OutboundResultObject>(() => undefined),
      },
    });
    await pair.gateway.connect();
    const handshake = pair.gateway.handshake();
    const first = pair.gateway.sendOutbound({ op: 'send', chat_id: 'c', content: 'x' });
    const second = pair.gateway.getChatInfo('c');
    await vi.waitFor(() => expect(pair.connector.outbound).toHaveLength(2));
    await pair.gateway.disconnect();
    const [firstError, secondError, handshakeError] = await Promise.all(
      [first, second, handshake].map((p) => (p as Promise<unknown>).catch((e: unknown) => e)),
    );
    expect(firstError).toMatchObject({ name: 'RelayTransportError', code: 'transport_closed' });
    expect(firstError).toMatchObject({ retryable: true, ambiguous: true, code: 'transport_closed' });
    expect(secondError).toMatchObject({ name: 'RelayTransportError', code: 'transport_closed' });
    expect((firstError as RelayTransportError).requestId).not.toBe(
      (secondError as RelayTransportError).requestId,
    );
    expect(handshakeError).toMatchObject({ name: 'RelayTransportError', code: 'transport_closed' });
    expect(handshakeError).toMatchObject({ ambiguous: false });
    await expect(pair.gateway.sendOutbound({ op: 'typing', chat_id: 'c' })).rejects.toMatchObject({
      code: 'not_connected',
    });
    await pair.gateway.disconnect();
  });

  it('rejects pending requests with connection_lost when the connector closes', async () => {
    const pair = await connectedPair({
      connector: {
        descriptor: DISCORD_DESCRIPTOR,
        onOutbound: () => new Promise<OutboundResultObject>(() => undefined),
      },
    });
    const pending = pair.gateway.sendOutbound({ op: 'send', chat_id: 'c', content: 'x' });
    await vi.waitFor(() => expect(pair.connector.outbound).toHaveLength(1));
    pair.connector.close();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'RelayTransportError', code: 'connection_lost' });
    expect(error).toMatchObject({ retryable: true, ambiguous: true });
    expect(pair.gateway.connected).toBe(false);
    expect(() => pair.connector.pushInterrupt('k', 'c')).toThrow(
      expect.objectContaining({ code: 'not_connected' }),
    );
  });
});

describe('createLinkedTransportPair: inbound', () => {
  it('delivers inbound events in order, one at a time, and acks each buffered one after its handler', async () => {
    const log: string[] = [];
    const pair = await connectedPair({
      connector: {
        descriptor: DISCORD_DESCRIPTOR,
        onInboundAck: (bufferId) => {
          log.push(`ack ${bufferId}`);
        },
      },
    });
    let active = 0;
    pair.gateway.onInbound(async (event: MessageEvent) => {
      active += 1;
      expect(active).toBe(1);
      log.push(`start ${String(event.text)}`);
      await new Promise((resolve) => setTimeout(resolve, event.text === 'one' ? 15 : 1));
      log.push(`end ${String(event.text)}`);
      active -= 1;
    });
    pair.connector.pushInbound(discordEvent('one'), { bufferId: 'b1' });
    pair.connector.pushInbound(discordEvent('two'));
    pair.connector.pushInbound(discordEvent('three'), { bufferId: 'b3' });
    await pair.flush();
    expect(log).toEqual([
      'start one',
      'end one',
      'ack b1',
      'start two',
      'end two',
      'start three',
      'end three',
      'ack b3',
    ]);
    expect(pair.connector.inboundAcks).toEqual(['b1', 'b3']);
    expect(linesTo(pair, 'to_connector').filter((line) => String(line).includes('inbound_ack'))).toEqual([
      '{"type": "inbound_ack", "bufferId": "b1"}\n',
      '{"type": "inbound_ack", "bufferId": "b3"}\n',
    ]);
  });

  it('passes the event as the gateway reads it', async () => {
    const pair = await connectedPair();
    const seen: MessageEvent[] = [];
    pair.gateway.onInbound((event) => {
      seen.push(event);
    });
    pair.connector.pushInbound(discordEvent('hello', 'm9'));
    await pair.flush();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      text: 'hello',
      message_type: 'text',
      message_id: 'm9',
      source: {
        platform: 'discord',
        chat_id: 'chan1',
        chat_type: 'group',
        user_id: 'u1',
        scope_id: 'guildA',
      },
    });
  });

  it('does not ack an event whose handler throws, and keeps delivering', async () => {
    const pair = await connectedPair();
    const seen: string[] = [];
    pair.gateway.onInbound((event) => {
      if (event.text === 'bad') throw new Error('handler crashed');
      seen.push(String(event.text));
    });
    pair.connector.pushInbound(discordEvent('bad'), { bufferId: 'b1' });
    pair.connector.pushInbound(discordEvent('good'), { bufferId: 'b2' });
    await pair.flush();
    expect(pair.connector.inboundAcks).toEqual(['b2']);
    expect(seen).toEqual(['good']);
    expect(pair.gateway.errors).toEqual([expect.objectContaining({ message: 'handler crashed' })]);
  });

  it('drops inbound frames, unacked, while no handler is installed', async () => {
    const pair = await connectedPair();
    pair.connector.pushInbound(discordEvent('early'), { bufferId: 'b0' });
    await pair.flush();
    expect(pair.connector.inboundAcks).toEqual([]);
    expect(pair.gateway.errors).toEqual([]);
  });

  it('lets an inbound handler await an outbound result without stalling', async () => {
    const pair = await connectedPair({
      connector: { descriptor: DISCORD_DESCRIPTOR, onOutbound: () => ({ success: true, message_id: 'r1' }) },
    });
    const replies: OutboundResultObject[] = [];
    pair.gateway.onInbound(async () => {
      replies.push(await pair.gateway.sendOutbound({ op: 'send', chat_id: 'chan1', content: 'pong' }));
    });
    pair.connector.pushInbound(discordEvent('ping'), { bufferId: 'b1' });
    await pair.flush();
    expect(replies).toEqual([{ success: true, message_id: 'r1' }]);
    expect(pair.connector.inboundAcks).toEqual(['b1']);
  });

  it('delivers interrupt_inbound in order with the inbound events', async () => {
    const pair = await connectedPair();
    const log: string[] = [];
    pair.gateway.onInbound(async (event) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.push(`event ${String(event.text)}`);
    });
    pair.gateway.onInterruptInbound((sessionKey, chatId) => {
      log.push(`interrupt ${sessionKey} ${chatId}`);
    });
    pair.connector.pushInbound(discordEvent('work'));
    pair.connector.pushInterrupt('agent:main:discord:group:chan1:u1', 'chan1');
    pair.connector.sendRaw('{"type":"interrupt_inbound"}\n');
    await pair.flush();
    expect(log).toEqual(['event work', 'interrupt agent:main:discord:group:chan1:u1 chan1', 'interrupt  ']);
  });

  it('delivers passthrough forwards with decoded bodies and does not ack their buffers by default', async () => {
    const pair = await connectedPair();
    const seen: [PassthroughDelivery, string | null][] = [];
    pair.gateway.onPassthrough((forward, bufferId) => {
      seen.push([forward, bufferId]);
    });
    const body = new TextEncoder().encode('{"type":2,"data":{"name":"new"}}');
    pair.connector.pushPassthrough(
      {
        platform: 'discord',
        botId: 'app',
        method: 'POST',
        path: '/interactions',
        headers: [['content-type', 'application/json']],
        bodyB64: encodePassthroughBody(body),
      },
      { bufferId: 'pb-1' },
    );
    await pair.flush();
    expect(seen).toEqual([
      [
        {
          platform: 'discord',
          botId: 'app',
          method: 'POST',
          path: '/interactions',
          headers: [['content-type', 'application/json']],
          body,
          profile: null,
        },
        'pb-1',
      ],
    ]);
    expect(pair.connector.inboundAcks).toEqual([]);
  });

  it('acks passthrough buffers after the handler with ackPassthroughBuffers', async () => {
    const pair = await connectedPair({ ackPassthroughBuffers: true });
    pair.gateway.onPassthrough(() => undefined);
    pair.connector.pushPassthrough({ platform: 'discord', bodyB64: '' }, { bufferId: 'pb-2' });
    pair.connector.pushPassthrough({ platform: 'discord', bodyB64: '' });
    await pair.flush();
    expect(pair.connector.inboundAcks).toEqual(['pb-2']);
  });

  it('records malformed and non-object lines and keeps reading', async () => {
    const pair = await connectedPair();
    const seen: string[] = [];
    pair.gateway.onInbound((event) => {
      seen.push(String(event.text));
    });
    pair.connector.sendRaw('{not json}\n[1,2]\n\n   \n{"type":"from_the_future"}\n');
    pair.connector.pushInbound(discordEvent('after'));
    await pair.flush();
    expect(seen).toEqual(['after']);
    expect(pair.gateway.errors).toHaveLength(2);
    expect(pair.gateway.errors[0]).toMatchObject({ name: 'RelayError', code: 'malformed_json' });
    expect(pair.gateway.errors[1]).toMatchObject({ name: 'RelayError', code: 'not_object' });
  });

  it('reassembles frames split across messages and batched in one', async () => {
    const pair = await connectedPair({
      chunk: (line) => {
        const bytes = new TextEncoder().encode(line);
        return [
          bytes.slice(0, 3),
          line.length > 10 ? bytes.slice(3, 11) : new Uint8Array(0),
          bytes.slice(11),
        ];
      },
    });
    const seen: string[] = [];
    pair.gateway.onInbound((event) => {
      seen.push(String(event.text));
    });
    pair.connector.pushInbound(discordEvent('split ☃ 😀'));
    const batched = JSON.stringify({ type: 'inbound', event: discordEvent('a') });
    pair.connector.sendRaw(`${batched}\n${batched.replace('"a"', '"b"')}\n`);
    await pair.flush();
    expect(seen).toEqual(['split ☃ 😀', 'a', 'b']);
    expect(await pair.gateway.sendOutbound({ op: 'typing', chat_id: 'c' })).toEqual({ success: true });
  });
});

describe('createLinkedTransportPair: interrupt and going idle', () => {
  it('writes interrupt frames with a null reason by default', async () => {
    const seen: string[] = [];
    const pair = await connectedPair({
      connector: {
        descriptor: DISCORD_DESCRIPTOR,
        onInterrupt: (frame) => {
          seen.push(`${frame.session_key}|${String(frame.reason)}`);
        },
      },
    });
    await pair.gateway.sendInterrupt('agent:main:telegram:dm:42');
    await pair.gateway.sendInterrupt('agent:main:discord:group:chan1:u1', 'user stop');
    await pair.flush();
    expect(linesTo(pair, 'to_connector').slice(-2)).toEqual([
      GATEWAY_LINES.interrupt,
      '{"type": "interrupt", "session_key": "agent:main:discord:group:chan1:u1", "reason": "user stop"}\n',
    ]);
    expect(pair.connector.interrupts.map((frame) => frame.reason)).toEqual([null, 'user stop']);
    expect(seen).toEqual(['agent:main:telegram:dm:42|null', 'agent:main:discord:group:chan1:u1|user stop']);
  });

  it('goIdle sends going_idle and resolves true on the ack', async () => {
    let idled = false;
    const pair = await connectedPair({
      connector: {
        descriptor: DISCORD_DESCRIPTOR,
        onGoingIdle: () => {
          idled = true;
          return undefined;
        },
      },
    });
    expect(await pair.gateway.goIdle()).toBe(true);
    expect(idled).toBe(true);
    expect(pair.connector.goingIdleCount).toBe(1);
    expect(linesTo(pair, 'to_connector').at(-1)).toBe(GATEWAY_LINES.goingIdle);
    expect(linesTo(pair, 'to_gateway').at(-1)).toBe('{"type":"going_idle_ack"}\n');
  });

  it('goIdle resolves false when the ack is withheld, when not connected, and on disconnect', async () => {
    const pair = await connectedPair({
      connector: { descriptor: DISCORD_DESCRIPTOR, onGoingIdle: () => false },
    });
    expect(await pair.gateway.goIdle(20)).toBe(false);
    const waiting = pair.gateway.goIdle();
    await pair.flush();
    await pair.gateway.disconnect();
    expect(await waiting).toBe(false);
    expect(await pair.gateway.goIdle()).toBe(false);
  });

  it('keeps delivering inbound events while waiting for the going_idle ack', async () => {
    let ack: (() => void) | undefined;
    const pair = await connectedPair({
      connector: {
        descriptor: DISCORD_DESCRIPTOR,
        onGoingIdle: () => new Promise<undefined>((resolve) => (ack = () => resolve(undefined))),
      },
    });
    const seen: string[] = [];
    pair.gateway.onInbound((event) => {
      seen.push(String(event.text));
    });
    const idle = pair.gateway.goIdle();
    await new Promise((resolve) => setTimeout(resolve, 1));
    pair.connector.pushInbound(discordEvent('in the flip window'), { bufferId: 'b9' });
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(seen).toEqual(['in the flip window']);
    ack?.();
    expect(await idle).toBe(true);
    expect(pair.connector.inboundAcks).toEqual(['b9']);
  });
});
