// A connector in front of a chat platform, with the platform faked in memory, served by
// `@agentwire/relay/server` over a real WebSocket on 127.0.0.1. Our gateway-side client plays the
// gateway and echoes every message back. Runs end to end and asserts: the echo reached the platform,
// edit / typing / get_chat_info / thread_create round-trip, `follow_up` answers a slash command with
// the credential the connector bound (and only then), and an interrupt travels each way.
// `pnpm --filter @agentwire-examples/relay-echo-connector start`.
import { strict as assert } from 'node:assert';
import { buildSessionKey, createMessageEvent, eventFromWire } from '@agentwire/relay';
import { WebSocketRelayTransport } from '@agentwire/relay/client';
import { createRelayServer, type PlatformAdapter } from '@agentwire/relay/server';

const TENANT = 'acme';
const GATEWAY_ID = 'gw-acme-1';
const SECRET = 'example-only-secret-do-not-reuse';
const INTERACTION = 'discord.interaction_token';

/** One message on the fake platform. */
interface ChatMessage {
  readonly id: string;
  readonly chatId: string;
  readonly author: string;
  text: string;
  readonly replyTo: string | null;
}

/**
 * The platform, faked: channels, messages, threads, typing indicators and slash-command interactions.
 * A real adapter would make these calls over the platform's HTTP API.
 */
class FakeChat {
  readonly messages: ChatMessage[] = [];
  readonly typing: string[] = [];
  readonly threads = new Map<string, { readonly parent: string; readonly name: string }>();
  readonly channels = new Map([['c-general', { name: 'general', type: 'group' as const }]]);
  /** Interaction tokens the platform issued and not yet used: token → the channel to answer in. */
  readonly #interactions = new Map<string, string>();
  #nextId = 1000;

  post(chatId: string, author: string, text: string, replyTo: string | null = null): ChatMessage {
    if (!this.channels.has(chatId) && !this.threads.has(chatId)) throw new Error(`no channel ${chatId}`);
    const message = { id: String(this.#nextId++), chatId, author, text, replyTo };
    this.messages.push(message);
    return message;
  }

  edit(messageId: string, text: string): void {
    const message = this.messages.find((m) => m.id === messageId);
    if (message === undefined) throw new Error(`no message ${messageId}`);
    message.text = text;
  }

  createThread(parent: string, name: string): string {
    const id = `t-${this.#nextId++}`;
    this.threads.set(id, { parent, name });
    return id;
  }

  /** A user ran a slash command: the platform issues a one-time token to answer it with. */
  openInteraction(chatId: string): string {
    const token = `itok-${this.#nextId++}`;
    this.#interactions.set(token, chatId);
    return token;
  }

  answerInteraction(token: string, text: string): ChatMessage {
    const chatId = this.#interactions.get(token);
    if (chatId === undefined) throw new Error('unknown or used interaction token');
    this.#interactions.delete(token);
    return this.post(chatId, 'echo-bot', text);
  }
}

const chat = new FakeChat();
const interruptedSessions: string[] = [];

// The connector author's part: one adapter per platform. Each method executes one outbound op.
const adapter: PlatformAdapter = {
  descriptor: {
    platform: 'discord',
    label: 'FakeChat',
    max_message_length: 2000,
    supports_draft_streaming: false,
    supports_edit: true,
    supports_threads: true,
    markdown_dialect: 'discord',
    len_unit: 'utf16',
  },
  send: (action) => ({
    success: true,
    message_id: chat.post(action.chat_id, 'echo-bot', action.content, action.reply_to).id,
  }),
  edit: (action) => {
    chat.edit(action.message_id, action.content);
    return { success: true, message_id: action.message_id };
  },
  typing: (action) => {
    chat.typing.push(action.chat_id);
    return { success: true };
  },
  // Reached only with a credential the vault resolved for this tenant; the gateway never sees it.
  follow_up: (action, { credential }) => ({
    success: true,
    message_id: chat.answerInteraction(credential, action.content).id,
  }),
  get_chat_info: (action) => {
    const channel = chat.channels.get(action.chat_id);
    if (channel === undefined) return { success: false, error: `unknown chat ${action.chat_id}` };
    return { success: true, chat_info: { name: channel.name, type: channel.type } };
  },
  thread_create: (action) => ({
    success: true,
    thread_id: chat.createThread(action.chat_id, action.thread_name),
  }),
  onInterrupt: (sessionKey) => {
    interruptedSessions.push(sessionKey);
  },
};

const server = await createRelayServer({
  port: 0,
  authenticate: (gatewayId) => (gatewayId === GATEWAY_ID ? { tenant: TENANT, secrets: [SECRET] } : null),
  platforms: { discord: adapter },
});
server.on('error', (error) => console.error('connector error:', error));

/** The connector's platform listener: a user's message becomes an inbound event for the tenant. */
async function userSays(user: string, chatId: string, text: string): Promise<void> {
  const message = chat.post(chatId, user, text);
  const event = createMessageEvent({
    text,
    message_id: message.id,
    source: { platform: 'discord', chat_id: chatId, chat_type: 'group', user_id: user, scope_id: 'guild-1' },
  });
  await server.deliverInbound(TENANT, event);
}

// The gateway's part, played by our client: echo every message; answer `/echo` through follow_up.
const gateway = new WebSocketRelayTransport({
  url: `http://127.0.0.1:${server.port}`,
  gatewayId: GATEWAY_ID,
  secret: SECRET,
  identities: [{ platform: 'discord', botId: 'echo-bot' }],
  reconnect: false,
});
const echoResults: Record<string, unknown>[] = [];
const followUps: Record<string, unknown>[] = [];
const interruptsFromConnector: [string, string][] = [];
gateway.onInbound(async (event) => {
  const chatId = String(event.source.chat_id);
  const text = String(event.text);
  await gateway.sendOutbound({ op: 'typing', chat_id: chatId }, { platform: 'discord' });
  if (text.startsWith('/echo ')) {
    const result = await gateway.sendFollowUp(
      {
        op: 'follow_up',
        session_key: buildSessionKey(event.source),
        kind: INTERACTION,
        content: text.slice(6),
      },
      { platform: 'discord' },
    );
    followUps.push(result);
    return;
  }
  const result = await gateway.sendOutbound(
    { op: 'send', chat_id: chatId, content: `echo: ${text}`, reply_to: String(event.message_id) },
    { platform: 'discord' },
  );
  echoResults.push(result);
});
gateway.onInterruptInbound((sessionKey, chatId) => {
  interruptsFromConnector.push([sessionKey, chatId]);
});

/** Waits (polling) until `condition` holds; fails with `what` after 5 s. */
async function until(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

try {
  // Handshake: the descriptor lists exactly the ops the adapter implements.
  assert.equal(await gateway.connect(), true);
  const descriptor = await gateway.handshake();
  assert.deepEqual([...descriptor.supported_ops].sort(), [
    'edit',
    'follow_up',
    'get_chat_info',
    'send',
    'thread_create',
    'typing',
  ]);
  console.log('handshake     ', descriptor.label, 'supports', descriptor.supported_ops.join(', '));

  // Two users talk; each message is echoed into the same channel as a reply.
  await userSays('ann', 'c-general', 'hello relay');
  await userSays('bo', 'c-general', 'is anyone there?');
  await until('two echoes', () => echoResults.length === 2);
  const echoes = chat.messages.filter((m) => m.author === 'echo-bot');
  assert.deepEqual(
    echoes.map((m) => m.text),
    ['echo: hello relay', 'echo: is anyone there?'],
  );
  assert.deepEqual(
    echoResults.map((r) => r['message_id']),
    echoes.map((m) => m.id),
  );
  assert.equal(echoes[0]?.replyTo, chat.messages[0]?.id);
  assert.deepEqual(chat.typing, ['c-general', 'c-general']);

  // The other ops round-trip to the adapter and back.
  const firstEcho = echoes[0]?.id ?? '';
  const edited = await gateway.sendOutbound({
    op: 'edit',
    chat_id: 'c-general',
    message_id: firstEcho,
    content: 'echo: hello relay (edited)',
  });
  assert.deepEqual(edited, { success: true, message_id: firstEcho });
  assert.equal(chat.messages.find((m) => m.id === firstEcho)?.text, 'echo: hello relay (edited)');
  assert.deepEqual(await gateway.getChatInfo('c-general'), { name: 'general', type: 'group' });
  const thread = await gateway.sendOutbound({
    op: 'thread_create',
    chat_id: 'c-general',
    thread_name: 'echoes',
  });
  assert.equal(thread['success'], true);
  assert.deepEqual(chat.threads.get(String(thread['thread_id'])), { parent: 'c-general', name: 'echoes' });
  const unsupported = await gateway.sendOutbound({
    op: 'react',
    chat_id: 'c-general',
    message_id: firstEcho,
    emoji: '👍',
  });
  assert.equal(unsupported['success'], false); // not implemented by the adapter: refused, not thrown
  console.log(
    'ops           ',
    'edit, get_chat_info, thread_create ok; react refused:',
    unsupported['error'],
  );

  // follow_up: a slash command. The platform issues an interaction token; the connector binds it
  // under the session key the gateway derives for the event, then delivers the command.
  const token = chat.openInteraction('c-general');
  const command = createMessageEvent({
    text: '/echo via interaction',
    source: {
      platform: 'discord',
      chat_id: 'c-general',
      chat_type: 'group',
      user_id: 'cy',
      scope_id: 'guild-1',
    },
  });
  const sessionKey = buildSessionKey(eventFromWire(command).source);
  assert.equal(sessionKey, 'agent:main:discord:group:c-general:cy');
  await server.bindCapability({
    tenant: TENANT,
    session_key: sessionKey,
    kind: INTERACTION,
    credential: token,
    ttl_ms: 60_000,
  });
  await server.deliverInbound(TENANT, command);
  await until('the follow_up', () => followUps.length === 1);
  assert.equal(followUps[0]?.['success'], true);
  assert.equal(chat.messages.at(-1)?.text, 'via interaction');
  // Nothing bound for this session: refused by the server, the adapter is never called.
  const unbound = await gateway.sendFollowUp({
    op: 'follow_up',
    session_key: 'agent:main:discord:group:c-general:nobody',
    kind: INTERACTION,
    content: 'no capability',
  });
  assert.equal(unbound['success'], false);
  assert.ok(!JSON.stringify([followUps, unbound]).includes(token)); // the credential never reached the gateway
  console.log('follow_up     ', 'bound session answered; unbound session refused:', unbound['error']);

  // Interrupts both ways: the gateway stops a session at the connector, the connector at the gateway.
  await gateway.sendInterrupt(sessionKey, 'user pressed stop');
  await until('the interrupt at the adapter', () => interruptedSessions.length === 1);
  assert.deepEqual(interruptedSessions, [sessionKey]);
  assert.deepEqual(await server.deliverInterrupt(TENANT, sessionKey, 'c-general'), { delivered: true });
  await until('the interrupt at the gateway', () => interruptsFromConnector.length === 1);
  assert.deepEqual(interruptsFromConnector, [[sessionKey, 'c-general']]);
  console.log(
    'interrupts    ',
    'gateway → adapter',
    interruptedSessions[0],
    '| connector → gateway',
    interruptsFromConnector[0],
  );

  // Shut down as a gateway does: going_idle (acked), then close.
  assert.equal(await gateway.goIdle(), true);

  console.log('\ntranscript of #general:');
  for (const m of chat.messages) {
    const reply = m.replyTo === null ? '' : `  (reply to ${m.replyTo})`;
    console.log(`  ${m.id} ${m.author.padEnd(8)} ${m.text}${reply}`);
  }
} finally {
  await gateway.disconnect();
  await server.close();
}
console.log('\nrelay-echo-connector example: all assertions passed');
