// A relay connector built with `createRelayServer`, run as its own process for the suite's tests:
// `RELAY_GATEWAY_ID=… RELAY_GATEWAY_SECRET=… node --import tsx relay-server-process.ts [server-module-url]`
// prints `listening <port>` once it accepts that gateway, and stops on SIGTERM. The optional argument
// points at `@agentwire/relay/server`'s source so that no build is needed. Two buffered inbound events
// wait for the gateway from the start: a Discord guild message and a Telegram forum-topic message
// without `scope_id` (which the real gateway keys fine). `RELAY_FALLBACK_PLATFORM=discord` answers a
// hello for any other platform (the gateway's default `relay` among them) with the Discord adapter.
import type * as RelayServerModule from '@agentwire/relay/server';

const moduleUrl = process.argv[2] ?? '@agentwire/relay/server';
const { createRelayServer } = (await import(moduleUrl)) as typeof RelayServerModule;
const tenant = 'tenant-conformance';
const gatewayId = process.env['RELAY_GATEWAY_ID'] ?? 'gw-conformance';
const secret = process.env['RELAY_GATEWAY_SECRET'] ?? '';
const fallbackPlatform = process.env['RELAY_FALLBACK_PLATFORM'];
const server = await createRelayServer({
  ...(fallbackPlatform === undefined ? {} : { fallbackPlatform }),
  port: 0,
  authenticate: (candidate) => (candidate === gatewayId ? { tenant, secrets: [secret] } : null),
  platforms: {
    discord: {
      descriptor: {
        platform: 'discord',
        label: 'Discord',
        max_message_length: 2000,
        supports_draft_streaming: false,
        supports_edit: true,
        supports_threads: true,
        markdown_dialect: 'discord',
        len_unit: 'utf16',
      },
      send: () => ({ success: true, message_id: 'sent-1' }),
      edit: (action) => ({ success: true, message_id: action.message_id }),
      typing: () => ({ success: true }),
      get_chat_info: (action) => ({ success: true, chat_info: { name: action.chat_id, type: 'group' } }),
      react: () => ({ success: true }),
      thread_create: () => ({ success: true, thread_id: 'thread-1' }),
      prompt: () => ({ success: false, error: 'prompts are not offered here' }),
      onInterrupt: () => undefined,
    },
  },
});
await server.deliverInbound(tenant, {
  text: 'hello from the conformance connector',
  message_type: 'text',
  message_id: 'inbound-1',
  reply_to_message_id: null,
  reply_to: null,
  media_urls: [],
  source: {
    platform: 'discord',
    chat_id: '111',
    chat_name: null,
    chat_type: 'group',
    user_id: '9001',
    user_name: 'tester',
    thread_id: null,
    chat_topic: null,
    scope_id: 'G1',
    guild_id: 'G1',
  },
});
await server.deliverInbound(tenant, {
  text: 'hello from a forum topic',
  message_type: 'text',
  message_id: 'inbound-2',
  reply_to_message_id: null,
  reply_to: null,
  media_urls: [],
  source: {
    platform: 'telegram',
    chat_id: '-1001234567890',
    chat_name: 'Forum',
    chat_type: 'forum',
    user_id: '42',
    user_name: 'tester',
    thread_id: '5',
    chat_topic: null,
  },
});
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
process.stdout.write(`listening ${server.port}\n`);
