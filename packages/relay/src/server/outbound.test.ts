import { describe, expect, it } from 'vitest';
import { GATEWAY_LINES, REQUEST_ID } from '../frames/test-frames.js';
import { InMemoryCapabilityVault } from '../vault.js';
import type { PlatformAdapter } from './platform-adapter.js';
import {
  bearer,
  connectGateway,
  dial,
  discordDescriptor,
  requestId,
  startServer,
  TENANT,
  type TestGateway,
} from './server-test-support.js';

/** Implements every op; each result names the op and what it was given. */
const everyOp: PlatformAdapter = {
  descriptor: discordDescriptor,
  send: (a, c) => ({
    success: true,
    message_id: `sent:${a.chat_id}:${a.content}:${c.platform}:${c.botId}:${c.tenant}`,
  }),
  edit: (a) => ({ success: true, message_id: a.message_id }),
  typing: () => ({ success: true }),
  follow_up: (a, c) => ({ success: true, message_id: `fu:${a.session_key}:${c.credential.length}` }),
  get_chat_info: (a) => ({ success: true, chat_info: { name: `#${a.chat_id}`, type: 'group' } }),
  send_media: (a) => ({ success: true, message_id: `media:${a.media_kind}:${a.filename}` }),
  prompt: (a) => ({ success: true, message_id: `prompt:${a.prompt_id}:${a.options.length}` }),
  react: () => ({ success: true }),
  thread_create: (a) => ({ success: true, thread_id: `th:${a.thread_name}` }),
  thread_rename: () => ({ success: true }),
};

/** The `outbound_result` line the gateway receives for `line` (a `GATEWAY_LINES` outbound, REQUEST_ID). */
async function resultLine(gateway: TestGateway, line: string): Promise<string> {
  gateway.sendRaw(line);
  await gateway.result(REQUEST_ID);
  const raw = gateway.raw.find((text) => text.includes(REQUEST_ID));
  gateway.frames.length = 0;
  gateway.raw.length = 0;
  return raw ?? '';
}

describe('handshake', () => {
  it('answers N hellos with N descriptors in order, supported_ops listing exactly the implemented ops', async () => {
    const server = await startServer(everyOp);
    const gateway = dial(server);
    await gateway.opened;
    gateway.sendRaw(GATEWAY_LINES.helloDiscord);
    gateway.hello('telegram', 'tgbot');
    const descriptors = await gateway.waitFor('descriptor', 2);
    expect(descriptors.map((frame) => frame.descriptor.platform)).toEqual(['discord', 'telegram']);
    expect(descriptors[0]?.descriptor.supported_ops).toEqual([
      'send',
      'edit',
      'typing',
      'follow_up',
      'get_chat_info',
      'send_media',
      'prompt',
      'react',
      'thread_create',
      'thread_rename',
    ]);
    expect(descriptors[1]?.descriptor.supported_ops).toEqual(['send']);
    expect(gateway.raw[0]).toMatch(
      /^\{"type":"descriptor","descriptor":\{"contract_version":1,"platform":"discord"/,
    );
  });

  it('leaves a hello for an unknown platform unanswered and warns, or answers it with fallbackPlatform', async () => {
    const server = await startServer(everyOp);
    const warnings: Error[] = [];
    server.on('warning', (error) => warnings.push(error));
    const gateway = dial(server);
    await gateway.opened;
    gateway.hello('relay');
    gateway.hello('discord');
    const [descriptor] = await gateway.waitFor('descriptor', 1);
    expect(descriptor?.descriptor.platform).toBe('discord');
    expect(warnings[0]).toMatchObject({ name: 'RelayError', code: 'relay_server_unknown_platform' });

    const fallback = await startServer(everyOp, { fallbackPlatform: 'discord' });
    const generic = await connectGateway(fallback, [['relay', '']]);
    expect(generic.frames[0]).toMatchObject({ type: 'descriptor', descriptor: { platform: 'discord' } });
  });

  it('skips malformed lines and keeps serving', async () => {
    const server = await startServer(everyOp);
    const warnings: Error[] = [];
    server.on('warning', (error) => warnings.push(error));
    const gateway = dial(server);
    await gateway.opened;
    gateway.sendRaw('not json\n[1, 2]\n\n{"type": "hello"}\n{"type": "whatever"}\n');
    gateway.sendRaw('{"type": "hello", "platform": "disc');
    gateway.sendRaw('ord", "botId": ""}\n');
    await gateway.waitFor('descriptor', 1);
    expect(warnings.map((error) => (error as { code?: string }).code)).toEqual([
      'malformed_json',
      'not_object',
      'invalid_frame',
    ]);
  });

  it('closes a socket whose message exceeds maxPayload with 1009', async () => {
    const server = await startServer(everyOp, { maxPayload: 1024 });
    const gateway = await connectGateway(server, [['discord', '']]);
    gateway.sendRaw(`{"type": "hello", "platform": "${'x'.repeat(2000)}", "botId": ""}\n`);
    await expect(gateway.closed).resolves.toMatchObject({ code: 1009 });
  });
});

describe('outbound', () => {
  it('answers every op with exactly its result frame', async () => {
    const server = await startServer(everyOp);
    const gateway = await connectGateway(server, [['discord', 'appShared']]);
    await server.bindCapability({
      tenant: TENANT,
      session_key: 'agent:main:discord:group:chan1:u1',
      kind: 'discord.interaction_token',
      credential: 'interaction-token-secret',
      ttl_ms: 60_000,
    });
    const expected: Record<string, string> = {
      send: '{"success":true,"message_id":"sent:chan1:hi 😀 café:discord:appShared:tenant-a"}',
      edit: '{"success":true,"message_id":"m1"}',
      typing: '{"success":true}',
      followUp: '{"success":true,"message_id":"fu:agent:main:discord:group:chan1:u1:24"}',
      getChatInfo: '{"success":true,"chat_info":{"name":"#chan1","type":"group"}}',
      sendMedia: '{"success":true,"message_id":"media:image:chart.png"}',
      prompt: '{"success":true,"message_id":"prompt:a1b2c3d4:2"}',
      react: '{"success":true}',
      threadCreate: '{"success":true,"thread_id":"th:handoff"}',
      threadRename: '{"success":true}',
    };
    for (const [name, result] of Object.entries(expected)) {
      const line = await resultLine(gateway, GATEWAY_LINES[name as keyof typeof GATEWAY_LINES]);
      expect(line, name).toBe(`{"type":"outbound_result","requestId":"${REQUEST_ID}","result":${result}}\n`);
      expect(line).not.toContain('interaction-token-secret');
    }
  });

  it('refuses an unimplemented op, an unknown op, an invalid action and an unannounced platform', async () => {
    const server = await startServer(everyOp);
    const gateway = await connectGateway(server, [['telegram', 'tgbot']]);
    gateway.sendRaw(GATEWAY_LINES.edit);
    expect(await gateway.result(REQUEST_ID)).toEqual({
      success: false,
      error: 'op edit is not supported by platform telegram',
    });
    const cases: [number, string, string][] = [
      [1, '{"op": "delete", "chat_id": "c"}', 'unsupported op "delete"'],
      [2, '{"op": "send", "content": "no chat"}', 'invalid outbound frame'],
      [3, '"not an object"', 'invalid outbound frame'],
    ];
    for (const [n, action, error] of cases) {
      gateway.sendRaw(`{"type": "outbound", "requestId": "${requestId(n)}", "action": ${action}}\n`);
      const result = await gateway.result(requestId(n));
      expect(result['success']).toBe(false);
      expect(result['error']).toContain(error);
    }
    gateway.send({
      type: 'outbound',
      requestId: requestId(4),
      action: { op: 'send', chat_id: 'c', content: 'x' },
      platform: 'discord',
    });
    expect(await gateway.result(requestId(4))).toEqual({
      success: false,
      error: 'platform discord was not announced in a hello on this connection',
    });
    gateway.send({
      type: 'outbound',
      requestId: requestId(5),
      action: { op: 'send', chat_id: 'c', content: 'x' },
      platform: 'telegram',
      botId: 'otherbot',
    });
    expect((await gateway.result(requestId(5)))['error']).toContain('telegram/otherbot was not announced');
  });

  it('routes by the frame platform and botId, else the session default (the first hello)', async () => {
    const server = await startServer(everyOp);
    const gateway = await connectGateway(server, [
      ['telegram', 'tgbot'],
      ['discord', 'app1'],
    ]);
    gateway.send({
      type: 'outbound',
      requestId: requestId(1),
      action: { op: 'send', chat_id: 'c', content: 'x' },
    });
    expect(await gateway.result(requestId(1))).toEqual({ success: true, message_id: 'tg:tgbot:c' });
    gateway.send({
      type: 'outbound',
      requestId: requestId(2),
      action: { op: 'send', chat_id: 'c', content: 'x' },
      platform: 'discord',
      botId: 'app1',
    });
    expect((await gateway.result(requestId(2)))['message_id']).toBe('sent:c:x:discord:app1:tenant-a');
  });

  it('turns a throw, a bad result and a timeout into failures, and aborts the timed-out call', async () => {
    let aborted: unknown;
    const adapter: PlatformAdapter = {
      descriptor: discordDescriptor,
      send: (action) => {
        if (action.content === 'throw') throw new Error('platform said no');
        return { success: 'yes' } as never;
      },
      edit: (_action, { signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = signal.reason;
            resolve({ success: true });
          });
        }),
    };
    const server = await startServer(adapter, { outboundTimeoutMs: 50 });
    const gateway = await connectGateway(server, [['discord', '']]);
    gateway.send({
      type: 'outbound',
      requestId: requestId(1),
      action: { op: 'send', chat_id: 'c', content: 'throw' },
    });
    expect(await gateway.result(requestId(1))).toEqual({ success: false, error: 'platform said no' });
    gateway.send({
      type: 'outbound',
      requestId: requestId(2),
      action: { op: 'send', chat_id: 'c', content: 'ok' },
    });
    expect((await gateway.result(requestId(2)))['error']).toContain('invalid result');
    gateway.send({
      type: 'outbound',
      requestId: requestId(3),
      action: { op: 'edit', chat_id: 'c', message_id: 'm', content: 'x' },
    });
    expect(await gateway.result(requestId(3))).toEqual({
      success: false,
      error: 'edit: edit did not complete within 50 ms',
    });
    expect(aborted).toMatchObject({ name: 'RelayError', code: 'relay_server_outbound_timeout' });
    expect(gateway.frames.filter((frame) => frame.type === 'outbound_result')).toHaveLength(3);
  });
});

describe('follow_up', () => {
  const followUp = (n: number) =>
    ({
      type: 'outbound',
      requestId: requestId(n),
      action: {
        op: 'follow_up',
        session_key: 'agent:main:discord:group:c:u',
        kind: 'discord.interaction_token',
        content: 'done',
      },
    }) as const;

  it('calls the adapter only with a live capability bound by the same tenant', async () => {
    let nowMs = 1_000_000;
    const calls: string[] = [];
    const adapter: PlatformAdapter = {
      descriptor: discordDescriptor,
      follow_up: (_action, context) => {
        calls.push(context.credential);
        return { success: true, message_id: 'f1' };
      },
    };
    const vault = new InMemoryCapabilityVault({ now: () => nowMs });
    const server = await startServer(adapter, { vault });
    const gateway = await connectGateway(server, [['discord', '']]);
    const other = await connectGateway(server, [['discord', '']], bearer('gw-b'));

    gateway.send(followUp(1));
    expect(await gateway.result(requestId(1))).toEqual({
      success: false,
      error: 'follow_up: no usable discord.interaction_token capability for this session',
    });
    await server.bindCapability({
      tenant: TENANT,
      session_key: 'agent:main:discord:group:c:u',
      kind: 'discord.interaction_token',
      credential: 'tok-A',
      ttl_ms: 1000,
    });
    other.send(followUp(2));
    expect(await other.result(requestId(2))).toEqual({
      success: false,
      error: 'follow_up: no usable discord.interaction_token capability for this session',
    });
    gateway.send(followUp(3));
    expect(await gateway.result(requestId(3))).toEqual({ success: true, message_id: 'f1' });
    nowMs += 1001;
    gateway.send(followUp(4));
    expect((await gateway.result(requestId(4)))['success']).toBe(false);
    expect(calls).toEqual(['tok-A']);
    for (const text of [...gateway.raw, ...other.raw]) expect(text).not.toContain('tok-A');
    await vault.close();
  });
});
