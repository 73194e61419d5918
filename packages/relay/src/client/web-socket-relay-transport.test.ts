import { afterEach, describe, expect, it, vi } from 'vitest';
import { verifyRelayAuthorization } from '../auth.js';
import type { OutboundActionInput } from '../frames/actions.js';
import { decodeGatewayFrame } from '../frames/decode.js';
import { GATEWAY_LINES, REQUEST_ID } from '../frames/test-frames.js';
import { encodePassthroughBody } from '../passthrough.js';
import { DISCORD_DESCRIPTOR, discordEvent, TELEGRAM_DESCRIPTOR } from '../testing/test-support.js';
import type { PassthroughDelivery, RelayTransportError } from '../transport.js';
import { closeAll, connectedPair, settle, startPair } from './test-harness.js';

const SECRET = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';
const DISCORD_HELLO = decodeGatewayFrame(GATEWAY_LINES.helloDiscord);
if (DISCORD_HELLO.type !== 'hello') throw new Error('test frame is not a hello');

afterEach(closeAll);

describe('WebSocketRelayTransport: dial', () => {
  it('dials <base>/relay with a bearer token the connector verifies', async () => {
    const now = 1_750_000_000;
    const pair = await startPair({}, { gatewayId: 'gw-1', secret: SECRET, clock: () => now * 1000 });
    expect(pair.transport.dialUrl).toBe(`${pair.connector.url.replace('http://', 'ws://')}/relay`);
    expect(await pair.transport.connect()).toBe(true);
    const connection = pair.connector.latest;
    expect(connection.path).toBe('/relay');
    expect(connection.authorization).toMatch(/^Bearer [A-Za-z0-9_-]+$/);
    expect(verifyRelayAuthorization(connection.authorization, [SECRET], { now })).toEqual({
      valid: true,
      gatewayId: 'gw-1',
      expiresAt: now + 300,
      secretIndex: 0,
    });
  });

  it('mints a fresh token on every dial', async () => {
    let seconds = 1_750_000_000;
    const pair = await connectedPair({}, { gatewayId: 'gw-1', secret: SECRET, clock: () => seconds * 1000 });
    await pair.transport.disconnect();
    seconds += 60;
    await pair.transport.connect();
    const [first, second] = pair.connector.connections;
    expect(first?.authorization).not.toBe(second?.authorization);
    expect(verifyRelayAuthorization(second?.authorization, [SECRET], { now: seconds })).toMatchObject({
      valid: true,
      gatewayId: 'gw-1',
      expiresAt: seconds + 300,
    });
  });

  it('sends no Authorization header without both a gateway id and a secret', async () => {
    for (const options of [
      {},
      { gatewayId: 'gw-1' },
      { secret: SECRET },
      { gatewayId: '', secret: SECRET },
    ]) {
      const pair = await startPair({}, options);
      await pair.transport.connect();
      expect(pair.connector.latest.authorization).toBeUndefined();
    }
  });

  it('resolves connect() false when the dial fails and reconnect is off', async () => {
    const pair = await startPair({ refuseUpgradeWith: 503 });
    expect(await pair.transport.connect()).toBe(false);
    expect(pair.transport.state).toBe('closed');
    expect(pair.states).toEqual(['idle', 'connecting', 'closed']);
    expect(pair.errors).toEqual([expect.objectContaining({ message: expect.stringContaining('503') })]);
    await expect(pair.transport.sendInterrupt('k')).rejects.toMatchObject({ code: 'not_connected' });
  });

  it('joins a dial in progress and resolves true at once when connected', async () => {
    const pair = await startPair();
    const [a, b] = await Promise.all([pair.transport.connect(), pair.transport.connect()]);
    expect([a, b]).toEqual([true, true]);
    expect(await pair.transport.connect()).toBe(true);
    expect(pair.connector.connections).toHaveLength(1);
  });
});

describe('WebSocketRelayTransport: handshake', () => {
  it('writes one hello per identity, in order, one per message, with the gateway’s exact bytes', async () => {
    const pair = await startPair(
      { descriptor: (hello) => (hello.platform === 'discord' ? DISCORD_DESCRIPTOR : TELEGRAM_DESCRIPTOR) },
      {
        identities: [
          { platform: 'discord', botId: 'appShared', command_manifest: DISCORD_HELLO.command_manifest ?? [] },
          { platform: 'telegram', botId: '' },
        ],
      },
    );
    const connected: string[] = [];
    pair.transport.on('connected', () => connected.push(pair.transport.state));
    expect(await pair.transport.connect()).toBe(true);
    expect(connected).toEqual(['open']);
    expect(await pair.transport.handshake()).toEqual(DISCORD_DESCRIPTOR);
    await vi.waitFor(() => expect(pair.transport.descriptorFor('telegram')).toEqual(TELEGRAM_DESCRIPTOR));
    expect(pair.transport.descriptorFor('discord')).toEqual(DISCORD_DESCRIPTOR);
    expect(pair.transport.descriptorFor('slack')).toBeUndefined();
    expect(pair.connector.latest.messages).toEqual([
      GATEWAY_LINES.helloDiscord,
      '{"type": "hello", "platform": "telegram", "botId": ""}\n',
    ]);
  });

  it('defaults to the relay identity with an empty botId', async () => {
    const pair = await connectedPair();
    expect(pair.connector.latest.messages).toEqual([GATEWAY_LINES.helloRelay]);
    expect(pair.states).toEqual(['idle', 'connecting', 'open']);
  });

  it('keeps the first descriptor as the session default', async () => {
    const pair = await connectedPair();
    pair.connector.latest.send({ type: 'descriptor', descriptor: { ...TELEGRAM_DESCRIPTOR } });
    await pair.transport.sendOutbound({ op: 'typing', chat_id: 'c' });
    expect(await pair.transport.handshake()).toEqual(DISCORD_DESCRIPTOR);
  });

  it('rejects handshake before connect with not_connected', async () => {
    const pair = await startPair();
    await expect(pair.transport.handshake()).rejects.toMatchObject({ code: 'not_connected' });
  });

  it('times out a handshake the connector never answers, retryably', async () => {
    const pair = await startPair({ descriptor: () => undefined }, { handshakeTimeoutMs: 30 });
    await pair.transport.connect();
    const error = await settle(pair.transport.handshake());
    expect(error).toMatchObject({ name: 'RelayTransportError', code: 'handshake_timeout' });
    expect(error).toMatchObject({ retryable: true, details: { timeoutMs: 30 } });
  });

  it('fails the handshake at once on a descriptor missing required fields', async () => {
    const pair = await startPair({
      descriptor: () => undefined,
      onConnection: (connection) =>
        connection.sendRaw('{"type":"descriptor","descriptor":{"platform":"discord"}}\n'),
    });
    await pair.transport.connect();
    const error = await settle(pair.transport.handshake());
    expect(error).toMatchObject({ name: 'RelayTransportError', code: 'descriptor_rejected' });
    expect(error).toMatchObject({ retryable: false, code: 'descriptor_rejected' });
    expect((error as Error).cause).toBe(pair.errors[0]);
  });
});

describe('WebSocketRelayTransport: outbound', () => {
  it('writes the gateway’s exact outbound bytes and returns the connector’s result', async () => {
    const pair = await connectedPair(
      { onOutbound: () => ({ success: true, message_id: 'm1' }) },
      { identities: [{ platform: 'discord', botId: 'appShared' }], newRequestId: () => REQUEST_ID },
    );
    const result = await pair.transport.sendOutbound(
      {
        op: 'send',
        chat_id: 'chan1',
        content: 'hi 😀 café',
        metadata: { notify: true, scope_id: 'guildA', user_id: 'u1' },
      },
      { platform: 'discord' },
    );
    expect(result).toEqual({ success: true, message_id: 'm1' });
    expect(pair.connector.latest.messages.at(-1)).toBe(GATEWAY_LINES.send);
  });

  it('writes 32-hex request ids and frames every op, follow_up and get_chat_info included', async () => {
    const pair = await connectedPair({
      onOutbound: (frame) =>
        frame.action.op === 'get_chat_info'
          ? { success: true, chat_info: { name: 'general', type: 'group' } }
          : { success: true, echo: frame.action.op },
    });
    const t = pair.transport;
    expect(await t.sendOutbound({ op: 'edit', chat_id: 'c', message_id: 'm', content: 'y' })).toEqual({
      success: true,
      echo: 'edit',
    });
    expect(
      await t.sendFollowUp({
        op: 'follow_up',
        session_key: 'k',
        kind: 'discord.interaction_token',
        content: 'z',
      }),
    ).toEqual({ success: true, echo: 'follow_up' });
    expect(await t.getChatInfo('chan1')).toEqual({ name: 'general', type: 'group' });
    const outbound = pair.connector.latest.framesOf('outbound');
    expect(outbound.map((frame) => frame.action.op)).toEqual(['edit', 'follow_up', 'get_chat_info']);
    for (const frame of outbound) expect(frame.requestId).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(outbound.map((frame) => frame.requestId)).size).toBe(3);
    expect(pair.connector.latest.messages.at(-1)).toMatch(
      /"action": \{"op": "get_chat_info", "chat_id": "chan1"\}\}\n$/,
    );
  });

  it('correlates results that come back out of order, and ignores unknown request ids', async () => {
    const pair = await connectedPair({ onOutbound: () => undefined });
    const first = pair.transport.sendOutbound({ op: 'send', chat_id: 'c', content: 'one' });
    const second = pair.transport.sendOutbound({ op: 'send', chat_id: 'c', content: 'two' });
    const connection = pair.connector.latest;
    await vi.waitFor(() => expect(connection.framesOf('outbound')).toHaveLength(2));
    const [one, two] = connection.framesOf('outbound');
    connection.send({ type: 'outbound_result', requestId: 'f'.repeat(32), result: { success: true } });
    connection.send({ type: 'outbound_result', requestId: two?.requestId ?? '', result: { n: 2 } });
    expect(await second).toEqual({ n: 2 });
    connection.sendRaw(`{"type":"outbound_result","requestId":"${one?.requestId}"}\n`);
    expect(await first).toEqual({});
    connection.send({ type: 'outbound_result', requestId: one?.requestId ?? '', result: { late: true } });
    await pair.transport.sendInterrupt('k');
    await vi.waitFor(() => expect(connection.framesOf('interrupt')).toHaveLength(1));
    expect(pair.errors).toEqual([]);
  });

  it('answers a call at once with a failed result when its outbound_result is refused, and reports it', async () => {
    const pair = await connectedPair({ onOutbound: () => undefined });
    const call = pair.transport.sendOutbound({ op: 'send', chat_id: 'c', content: 'x' });
    const connection = pair.connector.latest;
    await vi.waitFor(() => expect(connection.framesOf('outbound')).toHaveLength(1));
    const [frame] = connection.framesOf('outbound');
    connection.sendRaw(`{"type":"outbound_result","requestId":"${frame?.requestId}","result":"sent"}\n`);
    const result = await call;
    expect(result).toMatchObject({ success: false });
    expect(String(result['error'])).toMatch(/^invalid outbound_result frame: /);
    expect(pair.errors).toEqual([expect.objectContaining({ name: 'RelayError', code: 'invalid_frame' })]);
  });

  it('times out an unanswered request with an ambiguous retryable error and ignores the late result', async () => {
    const pair = await connectedPair({ onOutbound: () => undefined }, { outboundTimeoutMs: 30 });
    const error = await settle(pair.transport.sendOutbound({ op: 'send', chat_id: 'c', content: 'x' }));
    expect(error).toMatchObject({ name: 'RelayTransportError', code: 'outbound_timeout' });
    expect(error).toMatchObject({ retryable: true, ambiguous: true, details: { timeoutMs: 30 } });
    const [frame] = pair.connector.latest.framesOf('outbound');
    expect((error as RelayTransportError).requestId).toBe(frame?.requestId);
    expect((error as RelayTransportError).toResult()).toEqual({
      success: false,
      error: 'relay outbound timed out',
      ambiguous: true,
    });
    pair.connector.latest.send({ type: 'outbound_result', requestId: frame?.requestId ?? '', result: {} });
    await pair.transport.sendInterrupt('k');
    await vi.waitFor(() => expect(pair.connector.latest.framesOf('interrupt')).toHaveLength(1));
    expect(pair.errors).toEqual([]);
  });

  it('rejects an action that does not match its op schema without sending it', async () => {
    const pair = await connectedPair();
    const bad = { op: 'send', chat_id: 'c' } as unknown as OutboundActionInput;
    await expect(pair.transport.sendOutbound(bad)).rejects.toMatchObject({
      name: 'RelayError',
      code: 'invalid_frame',
    });
    await pair.transport.sendInterrupt('k');
    await vi.waitFor(() => expect(pair.connector.latest.framesOf('interrupt')).toHaveLength(1));
    expect(pair.connector.latest.framesOf('outbound')).toEqual([]);
  });

  it('omits botId when the identity has none, and names no platform unless given', async () => {
    const pair = await connectedPair(
      {},
      {
        identities: [
          { platform: 'relay', botId: '' },
          { platform: 'telegram', botId: '' },
        ],
      },
    );
    await pair.transport.sendOutbound({ op: 'typing', chat_id: 'c' }, { platform: 'telegram' });
    await pair.transport.sendOutbound({ op: 'typing', chat_id: 'c' });
    const [telegram, none] = pair.connector.latest.framesOf('outbound');
    expect(telegram).toMatchObject({ platform: 'telegram' });
    expect(telegram).not.toHaveProperty('botId');
    expect(none).not.toHaveProperty('platform');
  });

  it('rejects before connect with not_connected (retryable, not ambiguous)', async () => {
    const pair = await startPair();
    const error = await settle(pair.transport.sendOutbound({ op: 'typing', chat_id: 'c' }));
    expect(error).toMatchObject({ name: 'RelayTransportError', code: 'not_connected' });
    expect(error).toMatchObject({ retryable: true, ambiguous: false });
    await expect(pair.transport.getChatInfo('c')).rejects.toMatchObject({ code: 'not_connected' });
    expect(pair.connector.connections).toEqual([]);
  });

  it('rejects pending requests with connection_lost when the connector drops the socket', async () => {
    const pair = await connectedPair({ onOutbound: () => undefined });
    const pending = pair.transport.sendOutbound({ op: 'send', chat_id: 'c', content: 'x' });
    const chatInfo = pair.transport.getChatInfo('c');
    await vi.waitFor(() => expect(pair.connector.latest.framesOf('outbound')).toHaveLength(2));
    const disconnected = new Promise((resolve) => pair.transport.on('disconnected', resolve));
    pair.connector.latest.terminate();
    const [error, chatInfoError] = await Promise.all([settle(pending), settle(chatInfo)]);
    expect(error).toMatchObject({ name: 'RelayTransportError', code: 'connection_lost' });
    expect(error).toMatchObject({ retryable: true, ambiguous: true, code: 'connection_lost' });
    expect(chatInfoError).toMatchObject({ name: 'RelayTransportError', code: 'connection_lost' });
    expect(await disconnected).toEqual({ code: 1006, reason: '', reconnectInMs: null });
    expect(pair.transport.state).toBe('closed');
    expect(pair.transport.connected).toBe(false);
    await expect(pair.transport.sendOutbound({ op: 'typing', chat_id: 'c' })).rejects.toMatchObject({
      code: 'not_connected',
    });
  });
});

describe('WebSocketRelayTransport: inbound', () => {
  it('delivers inbound events one at a time in order and acks each buffered one after its handler', async () => {
    const pair = await connectedPair();
    const log: string[] = [];
    let active = 0;
    pair.transport.onInbound(async (event) => {
      active += 1;
      expect(active).toBe(1);
      log.push(`start ${String(event.text)}`);
      await new Promise((resolve) => setTimeout(resolve, event.text === 'one' ? 20 : 1));
      log.push(`end ${String(event.text)} acks=${pair.connector.latest.framesOf('inbound_ack').length}`);
      active -= 1;
    });
    const connection = pair.connector.latest;
    connection.send({ type: 'inbound', event: discordEvent('one'), bufferId: 'b1' });
    connection.send({ type: 'inbound', event: discordEvent('two') });
    connection.send({ type: 'inbound', event: discordEvent('three'), bufferId: 7 });
    connection.send({ type: 'inbound', event: discordEvent('four'), bufferId: '' });
    await vi.waitFor(() => expect(log).toHaveLength(8));
    expect(log).toEqual([
      'start one',
      'end one acks=0',
      'start two',
      'end two acks=1',
      'start three',
      'end three acks=1',
      'start four',
      'end four acks=2',
    ]);
    await pair.transport.sendInterrupt('k');
    await vi.waitFor(() => expect(connection.framesOf('interrupt')).toHaveLength(1));
    expect(connection.messages.filter((line) => line.includes('inbound_ack'))).toEqual([
      '{"type": "inbound_ack", "bufferId": "b1"}\n',
      GATEWAY_LINES.inboundAck,
    ]);
  });

  it('does not ack an event whose handler throws, reports the error and keeps delivering', async () => {
    const pair = await connectedPair();
    const seen: string[] = [];
    pair.transport.onInbound((event) => {
      if (event.text === 'bad') throw new Error('handler crashed');
      seen.push(String(event.text));
    });
    pair.connector.latest.send({ type: 'inbound', event: discordEvent('bad'), bufferId: 'b1' });
    pair.connector.latest.send({ type: 'inbound', event: discordEvent('good'), bufferId: 'b2' });
    await vi.waitFor(() => expect(pair.connector.latest.framesOf('inbound_ack')).toHaveLength(1));
    expect(pair.connector.latest.framesOf('inbound_ack')).toEqual([{ type: 'inbound_ack', bufferId: 'b2' }]);
    expect(seen).toEqual(['good']);
    expect(pair.errors).toEqual([expect.objectContaining({ message: 'handler crashed' })]);
  });

  it('handles inbound, interrupt_inbound and passthrough_forward in one queue, in arrival order', async () => {
    const pair = await connectedPair();
    const log: string[] = [];
    pair.transport.onInbound(async (event) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      log.push(`event ${String(event.text)}`);
    });
    pair.transport.onInterruptInbound(async (sessionKey, chatId) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.push(`interrupt ${sessionKey} ${chatId}`);
    });
    pair.transport.onPassthrough((forward: PassthroughDelivery, bufferId) => {
      log.push(`passthrough ${forward.path} ${new TextDecoder().decode(forward.body)} ${bufferId}`);
    });
    const connection = pair.connector.latest;
    connection.send({ type: 'inbound', event: discordEvent('first') });
    connection.send({
      type: 'interrupt_inbound',
      session_key: 'agent:main:discord:group:chan1:u1',
      chat_id: 'chan1',
    });
    connection.send({
      type: 'passthrough_forward',
      forward: {
        platform: 'discord',
        path: '/interactions',
        bodyB64: encodePassthroughBody(new TextEncoder().encode('{}')),
      },
      bufferId: 'pb-1',
    });
    connection.sendRaw('{"type":"interrupt_inbound"}\n');
    connection.send({ type: 'inbound', event: discordEvent('last') });
    await vi.waitFor(() => expect(log).toHaveLength(5));
    expect(log).toEqual([
      'event first',
      'interrupt agent:main:discord:group:chan1:u1 chan1',
      'passthrough /interactions {} pb-1',
      'interrupt  ',
      'event last',
    ]);
    expect(connection.framesOf('inbound_ack')).toEqual([]);
  });

  it('acks passthrough buffers after the handler with ackPassthrough', async () => {
    const pair = await connectedPair({}, { ackPassthrough: true });
    pair.transport.onPassthrough(() => undefined);
    pair.connector.latest.send({
      type: 'passthrough_forward',
      forward: { platform: 'discord' },
      bufferId: 'pb-2',
    });
    pair.connector.latest.send({ type: 'passthrough_forward', forward: { platform: 'discord' } });
    pair.connector.latest.send({
      type: 'passthrough_forward',
      forward: { platform: 'discord' },
      bufferId: 'pb-3',
    });
    await vi.waitFor(() => expect(pair.connector.latest.framesOf('inbound_ack')).toHaveLength(2));
    expect(pair.connector.latest.framesOf('inbound_ack').map((frame) => frame.bufferId)).toEqual([
      'pb-2',
      'pb-3',
    ]);
  });

  it('drops inbound frames, unacked, while no handler is installed', async () => {
    const pair = await connectedPair();
    pair.connector.latest.send({ type: 'inbound', event: discordEvent('early'), bufferId: 'b0' });
    // The result of a later request arrives after the inbound frame was handled (and dropped).
    await pair.transport.sendOutbound({ op: 'typing', chat_id: 'c' });
    const seen: string[] = [];
    pair.transport.onInbound((event) => {
      seen.push(String(event.text));
    });
    pair.connector.latest.send({ type: 'inbound', event: discordEvent('late'), bufferId: 'b1' });
    await vi.waitFor(() => expect(pair.connector.latest.framesOf('inbound_ack')).toHaveLength(1));
    expect(seen).toEqual(['late']);
    expect(pair.connector.latest.framesOf('inbound_ack')).toEqual([{ type: 'inbound_ack', bufferId: 'b1' }]);
  });

  it('lets an inbound handler await an outbound result without stalling', async () => {
    const pair = await connectedPair({ onOutbound: () => ({ success: true, message_id: 'r1' }) });
    const replies: unknown[] = [];
    pair.transport.onInbound(async () => {
      replies.push(await pair.transport.sendOutbound({ op: 'send', chat_id: 'chan1', content: 'pong' }));
    });
    pair.connector.latest.send({ type: 'inbound', event: discordEvent('ping'), bufferId: 'b1' });
    await vi.waitFor(() => expect(pair.connector.latest.framesOf('inbound_ack')).toHaveLength(1));
    expect(replies).toEqual([{ success: true, message_id: 'r1' }]);
  });

  it('reads batched frames, frames split across text and binary messages, and skips bad lines', async () => {
    const pair = await connectedPair();
    const seen: string[] = [];
    pair.transport.onInbound((event) => {
      seen.push(String(event.text));
    });
    const line = (text: string, bufferId: string) =>
      `${JSON.stringify({ type: 'inbound', event: discordEvent(text), bufferId })}\n`;
    const connection = pair.connector.latest;
    connection.sendRaw(`${line('a', 'b-a')}\n   \n${line('b', 'b-b')}`);
    const split = new TextEncoder().encode(line('split ☃ 😀', 'b-s'));
    const cut = split.indexOf(0xe2) + 1; // inside the three bytes of ☃
    connection.sendRaw(split.slice(0, cut));
    connection.sendRaw(split.slice(cut, cut + 5));
    connection.sendRaw(split.slice(cut + 5));
    const text = line('text halves', 'b-t');
    connection.sendRaw(text.slice(0, 20));
    connection.sendRaw(text.slice(20));
    connection.sendRaw('{not json}\n[1,2]\n{"type":"from_the_future"}\n');
    connection.sendRaw(line('after', 'b-z'));
    await vi.waitFor(() => expect(seen).toHaveLength(5));
    expect(seen).toEqual(['a', 'b', 'split ☃ 😀', 'text halves', 'after']);
    await vi.waitFor(() => expect(connection.framesOf('inbound_ack')).toHaveLength(5));
    expect(connection.framesOf('inbound_ack').map((frame) => frame.bufferId)).toEqual([
      'b-a',
      'b-b',
      'b-s',
      'b-t',
      'b-z',
    ]);
    expect(pair.errors).toHaveLength(2);
    expect(pair.errors[0]).toMatchObject({ name: 'RelayError', code: 'malformed_json' });
    expect(pair.errors[1]).toMatchObject({ name: 'RelayError', code: 'not_object' });
    expect(pair.transport.state).toBe('open');
  });
});

describe('WebSocketRelayTransport: interrupt, going idle, disconnect', () => {
  it('writes interrupt frames with a null reason by default', async () => {
    const pair = await connectedPair();
    await pair.transport.sendInterrupt('agent:main:telegram:dm:42');
    await pair.transport.sendInterrupt('agent:main:discord:group:chan1:u1', 'user stop');
    await vi.waitFor(() => expect(pair.connector.latest.framesOf('interrupt')).toHaveLength(2));
    expect(pair.connector.latest.messages.slice(-2)).toEqual([
      GATEWAY_LINES.interrupt,
      '{"type": "interrupt", "session_key": "agent:main:discord:group:chan1:u1", "reason": "user stop"}\n',
    ]);
  });

  it('goIdle sends going_idle and resolves true on the ack', async () => {
    const pair = await connectedPair();
    expect(await pair.transport.goIdle()).toBe(true);
    expect(pair.connector.latest.messages.at(-1)).toBe(GATEWAY_LINES.goingIdle);
    expect(pair.transport.state).toBe('open');
  });

  it('goIdle resolves false when the ack is withheld, when not connected, and on disconnect', async () => {
    const pair = await connectedPair({ ackGoingIdle: false });
    expect(await pair.transport.goIdle(20)).toBe(false);
    const waiting = pair.transport.goIdle();
    await vi.waitFor(() => expect(pair.connector.latest.framesOf('going_idle')).toHaveLength(2));
    await pair.transport.disconnect();
    expect(await waiting).toBe(false);
    expect(await pair.transport.goIdle()).toBe(false);
  });

  it('keeps delivering inbound events while waiting for the going_idle ack', async () => {
    const pair = await connectedPair({ ackGoingIdle: false });
    const seen: string[] = [];
    pair.transport.onInbound((event) => {
      seen.push(String(event.text));
    });
    const idle = pair.transport.goIdle();
    const connection = pair.connector.latest;
    await vi.waitFor(() => expect(connection.framesOf('going_idle')).toHaveLength(1));
    connection.send({ type: 'inbound', event: discordEvent('in the flip window'), bufferId: 'b9' });
    await vi.waitFor(() => expect(connection.framesOf('inbound_ack')).toHaveLength(1));
    expect(seen).toEqual(['in the flip window']);
    connection.send({ type: 'going_idle_ack' });
    expect(await idle).toBe(true);
  });

  it('disconnect rejects pending requests and the handshake with transport_closed', async () => {
    const pair = await startPair({ descriptor: () => undefined, onOutbound: () => undefined });
    await pair.transport.connect();
    const handshake = settle(pair.transport.handshake());
    const first = settle(pair.transport.sendOutbound({ op: 'send', chat_id: 'c', content: 'x' }));
    const second = settle(pair.transport.getChatInfo('c'));
    await vi.waitFor(() => expect(pair.connector.latest.framesOf('outbound')).toHaveLength(2));
    await pair.transport.disconnect();
    const [firstError, secondError, handshakeError] = await Promise.all([first, second, handshake]);
    expect(firstError).toMatchObject({ name: 'RelayTransportError', code: 'transport_closed' });
    expect(firstError).toMatchObject({ retryable: true, ambiguous: true, code: 'transport_closed' });
    expect(secondError).toMatchObject({ name: 'RelayTransportError', code: 'transport_closed' });
    expect(handshakeError).toMatchObject({ name: 'RelayTransportError', code: 'transport_closed' });
    expect(handshakeError).toMatchObject({ ambiguous: false });
    expect(pair.transport.state).toBe('closed');
    await vi.waitFor(() => expect(pair.connector.latest.closed).toEqual({ code: 1000, reason: '' }));
    await expect(pair.transport.sendOutbound({ op: 'typing', chat_id: 'c' })).rejects.toMatchObject({
      code: 'not_connected',
    });
    await pair.transport.disconnect();
    expect(pair.states).toEqual(['idle', 'connecting', 'open', 'closed']);
  });

  it('connect() after disconnect() dials again, re-sends the hellos and waits for a new descriptor', async () => {
    let answer = DISCORD_DESCRIPTOR;
    const pair = await connectedPair({ descriptor: () => answer });
    await pair.transport.disconnect();
    answer = TELEGRAM_DESCRIPTOR;
    expect(await pair.transport.connect()).toBe(true);
    expect(await pair.transport.handshake()).toEqual(TELEGRAM_DESCRIPTOR);
    expect(pair.connector.connections.map((connection) => connection.framesOf('hello').length)).toEqual([
      1, 1,
    ]);
  });
});
