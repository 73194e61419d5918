// Our gateway-side client against our connector-side server over real WebSockets on 127.0.0.1: the
// whole Relay ⇄ Connector v1 conversation, as a gateway and a connector built on this package hold it.
import {
  type CapabilityDescriptor,
  createMessageEvent,
  encodePassthroughBody,
  type MessageEvent,
  mintRelayToken,
  type PassthroughDelivery,
} from '@agentwire/relay';
import { WebSocketRelayTransport } from '@agentwire/relay/client';
import { createRelayServer, type PlatformAdapter, type RelayServer } from '@agentwire/relay/server';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

const SECRET = 'e2e-secret-0123456789abcdef';
const GATEWAYS: Record<string, { tenant: string; secrets: string[] }> = {
  'gw-a': { tenant: 'tenant-a', secrets: [SECRET] },
  'gw-b': { tenant: 'tenant-b', secrets: [SECRET] },
};

const descriptorFields = {
  label: 'Discord',
  max_message_length: 2000,
  supports_draft_streaming: false,
  supports_edit: true,
  supports_threads: true,
  markdown_dialect: 'discord',
  len_unit: 'chars',
} as const;

interface Recorded {
  readonly op: string;
  readonly action: unknown;
  readonly tenant: string;
  readonly credential?: string;
}

/** A Discord adapter implementing every op; it records each call and answers deterministically. */
function discordAdapter(calls: Recorded[], interrupts: string[]): PlatformAdapter {
  /** Records the call, then answers with `result`. */
  const recorded =
    <A, R>(op: string, result: (action: A) => R) =>
    (action: A, ctx: { readonly tenant: string }): R => {
      calls.push({ op, action, tenant: ctx.tenant });
      return result(action);
    };
  return {
    descriptor: { platform: 'discord', ...descriptorFields },
    send: recorded('send', (action) => ({ success: true, message_id: `m-${action.chat_id}` })),
    edit: recorded('edit', (action) => ({ success: true, message_id: action.message_id })),
    typing: recorded('typing', () => ({ success: true })),
    follow_up: (action, ctx) => {
      calls.push({ op: 'follow_up', action, tenant: ctx.tenant, credential: ctx.credential });
      return { success: true, message_id: 'followed-up' };
    },
    get_chat_info: recorded('get_chat_info', (action) => ({
      success: true,
      chat_info: { name: `#${action.chat_id}`, type: 'group' },
    })),
    send_media: recorded('send_media', () => ({ success: true, message_id: 'media-1' })),
    prompt: recorded('prompt', () => ({ success: true, message_id: 'prompt-1' })),
    react: recorded('react', () => ({ success: true })),
    thread_create: recorded('thread_create', () => ({ success: true, thread_id: 't-1' })),
    thread_rename: recorded('thread_rename', () => ({ success: true })),
    onInterrupt: (sessionKey) => void interrupts.push(sessionKey),
  };
}

const slackAdapter: PlatformAdapter = {
  descriptor: { platform: 'slack', ...descriptorFields, label: 'Slack', markdown_dialect: 'mrkdwn' },
  send: () => ({ success: true, message_id: 'slack-1' }),
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startConnector(): Promise<{ server: RelayServer; calls: Recorded[]; interrupts: string[] }> {
  const calls: Recorded[] = [];
  const interrupts: string[] = [];
  const server = await createRelayServer({
    port: 0,
    authenticate: async (gatewayId) => GATEWAYS[gatewayId] ?? null,
    platforms: { discord: discordAdapter(calls, interrupts), slack: slackAdapter },
    pingIntervalMs: 0,
  });
  cleanups.push(() => server.close());
  return { server, calls, interrupts };
}

function gateway(server: RelayServer, gatewayId = 'gw-a', reconnect = false): WebSocketRelayTransport {
  const transport = new WebSocketRelayTransport({
    url: `http://127.0.0.1:${server.port}`,
    gatewayId,
    secret: SECRET,
    identities: [
      { platform: 'discord', botId: 'bot-d' },
      { platform: 'slack', botId: 'bot-s' },
    ],
    reconnect,
    backoff: { initialMs: 10, maxMs: 50 },
    outboundTimeoutMs: 5000,
    handshakeTimeoutMs: 5000,
  });
  cleanups.push(() => transport.disconnect());
  return transport;
}

function event(text: string, chatId = 'c1'): ReturnType<typeof createMessageEvent> {
  return createMessageEvent({
    text,
    message_id: `msg-${text}`,
    source: { platform: 'discord', chat_id: chatId, chat_type: 'group', user_id: 'u1', scope_id: 'G1' },
  });
}

/** Resolves once `predicate` holds, polling; fails the test after `timeoutMs`. */
async function eventually(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The close a raw client with `token` sees (code and reason). */
async function closeSeenWith(
  server: RelayServer,
  token: string | null,
): Promise<{ code: number; reason: string }> {
  const socket = new WebSocket(`ws://127.0.0.1:${server.port}/relay`, {
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });
  return new Promise((resolve, reject) => {
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    socket.on('error', reject);
  });
}

describe('client ⇄ server over real WebSockets', () => {
  it('handshakes every identity and advertises exactly the implemented ops', async () => {
    const { server } = await startConnector();
    const transport = gateway(server);
    expect(await transport.connect()).toBe(true);
    const first: CapabilityDescriptor = await transport.handshake();
    expect(first.platform).toBe('discord');
    expect([...first.supported_ops].sort()).toEqual(
      [
        'edit',
        'follow_up',
        'get_chat_info',
        'prompt',
        'react',
        'send',
        'send_media',
        'thread_create',
        'thread_rename',
        'typing',
      ].sort(),
    );
    await eventually(() => transport.descriptorFor('slack') !== undefined);
    expect(transport.descriptorFor('slack')?.supported_ops).toEqual(['send']);
  });

  it('delivers inbound events in order and removes each one on ack', async () => {
    const { server } = await startConnector();
    const received: string[] = [];
    const transport = gateway(server);
    transport.onInbound((inbound: MessageEvent) => void received.push(String(inbound.text)));
    await server.deliverInbound('tenant-a', event('before-connect'));
    await transport.connect();
    await transport.handshake();
    for (const text of ['one', 'two', 'three']) await server.deliverInbound('tenant-a', event(text));
    await eventually(() => received.length === 4);
    expect(received).toEqual(['before-connect', 'one', 'two', 'three']);
    // Acked: a fresh connection of the same gateway gets nothing replayed.
    await transport.disconnect();
    const again: string[] = [];
    const second = gateway(server);
    second.onInbound((inbound) => void again.push(String(inbound.text)));
    await second.connect();
    await second.handshake();
    await server.deliverInbound('tenant-a', event('after'));
    await eventually(() => again.length === 1);
    expect(again).toEqual(['after']);
  });

  it('round-trips every op to the adapter and back', async () => {
    const { server, calls } = await startConnector();
    const transport = gateway(server);
    await transport.connect();
    await transport.handshake();
    await server.bindCapability({
      tenant: 'tenant-a',
      session_key: 'agent:main:discord:group:c1:u1',
      kind: 'discord.interaction_token',
      credential: 'interaction-secret',
      ttl_ms: 60_000,
    });
    const results = [
      await transport.sendOutbound({ op: 'send', chat_id: 'c1', content: 'hi' }),
      await transport.sendOutbound({ op: 'edit', chat_id: 'c1', message_id: 'm-c1', content: 'hi!' }),
      await transport.sendOutbound({ op: 'typing', chat_id: 'c1' }),
      await transport.sendOutbound({
        op: 'follow_up',
        session_key: 'agent:main:discord:group:c1:u1',
        kind: 'discord.interaction_token',
        content: 'done',
      }),
      await transport.sendOutbound({
        op: 'send_media',
        chat_id: 'c1',
        media_kind: 'image',
        source_url: 'https://example.test/a.png',
      }),
      await transport.sendOutbound({
        op: 'prompt',
        chat_id: 'c1',
        content: 'Run it?',
        prompt_kind: 'approval',
        prompt_id: '0a1b2c3d',
        options: [
          { id: 'once', label: 'Once' },
          { id: 'deny', label: 'Deny', style: 'danger' },
        ],
      }),
      await transport.sendOutbound({ op: 'react', chat_id: 'c1', message_id: 'm-c1', emoji: '👍' }),
      await transport.sendOutbound({ op: 'thread_create', chat_id: 'c1', thread_name: 'handoff' }),
      await transport.sendOutbound({
        op: 'thread_rename',
        chat_id: 'c1',
        message_id: 't-1',
        thread_name: 'renamed',
      }),
    ];
    expect(results.map((result) => result['success'])).toEqual(Array(9).fill(true));
    expect(results[0]?.['message_id']).toBe('m-c1');
    expect(results[3]?.['message_id']).toBe('followed-up');
    expect(results[7]?.['thread_id']).toBe('t-1');
    expect(await transport.getChatInfo('c1')).toEqual({ name: '#c1', type: 'group' });
    expect(calls.map((call) => call.op)).toEqual([
      'send',
      'edit',
      'typing',
      'follow_up',
      'send_media',
      'prompt',
      'react',
      'thread_create',
      'thread_rename',
      'get_chat_info',
    ]);
    expect(calls.every((call) => call.tenant === 'tenant-a')).toBe(true);
    expect(calls[3]?.credential).toBe('interaction-secret');
  });

  it('keeps follow_up credentials to the tenant that bound them', async () => {
    const { server, calls } = await startConnector();
    await server.bindCapability({
      tenant: 'tenant-a',
      session_key: 'agent:main:discord:group:c1:u1',
      kind: 'discord.interaction_token',
      credential: 'tenant-a-secret',
      ttl_ms: 60_000,
    });
    const other = gateway(server, 'gw-b');
    await other.connect();
    await other.handshake();
    const stolen = await other.sendOutbound({
      op: 'follow_up',
      session_key: 'agent:main:discord:group:c1:u1',
      kind: 'discord.interaction_token',
      content: 'not yours',
    });
    expect(stolen['success']).toBe(false);
    expect(JSON.stringify(stolen)).not.toContain('tenant-a-secret');
    const absent = await other.sendOutbound({
      op: 'follow_up',
      session_key: 'agent:main:discord:group:nobody:u9',
      kind: 'discord.interaction_token',
      content: 'nothing bound',
    });
    expect(absent['success']).toBe(false);
    expect(calls.filter((call) => call.op === 'follow_up')).toEqual([]);
  });

  it('carries interrupts both ways', async () => {
    const { server, interrupts } = await startConnector();
    const transport = gateway(server);
    const inboundInterrupts: [string, string][] = [];
    transport.onInterruptInbound((sessionKey, chatId) => void inboundInterrupts.push([sessionKey, chatId]));
    await transport.connect();
    await transport.handshake();
    await eventually(() => server.connections.length === 1);
    await eventually(() => server.connections[0]?.tenant === 'tenant-a');
    await expect(
      server.deliverInterrupt('tenant-a', 'agent:main:discord:group:c1:u1', 'c1'),
    ).resolves.toEqual({
      delivered: true,
    });
    await eventually(() => inboundInterrupts.length === 1);
    expect(inboundInterrupts).toEqual([['agent:main:discord:group:c1:u1', 'c1']]);
    await transport.sendInterrupt('agent:main:discord:group:c1:u1', 'user pressed stop');
    await eventually(() => interrupts.length === 1);
    expect(interrupts).toEqual(['agent:main:discord:group:c1:u1']);
    await expect(server.deliverInterrupt('tenant-b', 'agent:main:x', 'c9')).resolves.toEqual({
      delivered: false,
    });
  });

  it('preserves passthrough bytes and headers', async () => {
    const { server } = await startConnector();
    const transport = gateway(server);
    const forwards: PassthroughDelivery[] = [];
    transport.onPassthrough((forward) => void forwards.push(forward));
    await transport.connect();
    await transport.handshake();
    const body = new Uint8Array([0, 1, 2, 0xff, 0xfe, 0x7b, 0x22, 0x0a, 0xe2, 0x82, 0xac]);
    await server.forwardPassthrough('tenant-a', {
      platform: 'discord',
      botId: 'bot-d',
      method: 'POST',
      path: '/interactions',
      headers: [
        ['X-Signature-Ed25519', 'abc'],
        ['content-type', 'application/json'],
      ],
      bodyB64: encodePassthroughBody(body),
    });
    await eventually(() => forwards.length === 1);
    const [forward] = forwards;
    expect(forward?.method).toBe('POST');
    expect(forward?.path).toBe('/interactions');
    expect(forward?.headers).toEqual([
      ['X-Signature-Ed25519', 'abc'],
      ['content-type', 'application/json'],
    ]);
    expect([...(forward?.body ?? [])]).toEqual([...body]);
  });

  it('refuses bad, expired and revoked tokens with 4401', async () => {
    const { server } = await startConnector();
    expect(await closeSeenWith(server, null)).toEqual({ code: 4401, reason: 'unauthorized' });
    expect(await closeSeenWith(server, mintRelayToken('gw-a', 'wrong-secret', { ttlSeconds: 300 }))).toEqual({
      code: 4401,
      reason: 'unauthorized',
    });
    const expired = mintRelayToken('gw-a', SECRET, { ttlSeconds: 1, now: Date.now() / 1000 - 10 });
    expect(await closeSeenWith(server, expired)).toEqual({ code: 4401, reason: 'expired' });
    expect(await closeSeenWith(server, mintRelayToken('gw-unknown', SECRET, { ttlSeconds: 300 }))).toEqual({
      code: 4401,
      reason: 'unauthorized',
    });

    const transport = gateway(server, 'gw-a', true);
    const revoked = new Promise<unknown>((resolve) => transport.on('revoked', resolve));
    await transport.connect();
    await transport.handshake();
    // Revocation as a connector does it: the store forgets the gateway, live sockets close with 4401.
    // The gateway re-dials once with a fresh token, is refused again, and stops for good.
    const saved = GATEWAYS['gw-a'];
    delete GATEWAYS['gw-a'];
    try {
      expect(server.revoke('gw-a')).toBe(1);
      await revoked;
      expect(transport.state).toBe('revoked');
    } finally {
      if (saved) GATEWAYS['gw-a'] = saved;
    }
  });
});
