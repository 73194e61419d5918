// A connector fronting Discord for many tenants with one shared application, in one process: the
// relay WebSocket and the Discord interactions endpoint on one node:http server on 127.0.0.1, and our
// gateway-side client playing a tenant's gateway. A slash command signed with a key generated here is
// posted to the edge, which verifies it, answers Discord with a deferred response at once, cuts the
// interaction token out and vaults it, and forwards the rest to the gateway as `passthrough_forward`;
// the gateway answers with `follow_up`, which reaches the platform adapter with the vaulted token.
// Another tenant's `follow_up` for the same session finds nothing.
// `pnpm --filter @agentwire-examples/relay-edge-discord start`.
import { strict as assert } from 'node:assert';
import { generateKeyPairSync, sign } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticatorFor, buildSessionKey, type PassthroughDelivery } from '@agentwire/relay';
import { WebSocketRelayTransport } from '@agentwire/relay/client';
import {
  createDiscordEdgeHandler,
  createEdgeRouter,
  DISCORD_INTERACTION_TOKEN_KIND,
  tenantResolverFromRegistry,
  toNodeListener,
} from '@agentwire/relay/edge';
import { createRelayServer, type PlatformAdapter } from '@agentwire/relay/server';
import { InMemoryGatewaySecretStore, InMemoryProvisionRegistry } from '@agentwire/relay/testing';

// The Discord application's key pair; Discord holds the private half and signs every interaction.
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const publicKeyHex = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url').toString('hex');

// Two tenants share the application; each provisioned its guild (normally via POST /relay/provision).
const secrets = new InMemoryGatewaySecretStore();
const acme = await secrets.create('gw-acme', 'acme');
await secrets.create('gw-globex', 'globex');
const registry = new InMemoryProvisionRegistry();
for (const [tenant, gatewayId, guild] of [
  ['acme', 'gw-acme', 'guild-acme'],
  ['globex', 'gw-globex', 'guild-globex'],
] as const) {
  await registry.register({
    tenant,
    subject: 'operator',
    gatewayId,
    platform: 'discord',
    botId: 'app-1',
    gatewayEndpoint: '',
    routeKeys: [guild],
  });
}

// The connector's Discord adapter: follow_up answers the interaction with the token from the vault.
const answered: { readonly token: string; readonly content: string }[] = [];
const discord: PlatformAdapter = {
  descriptor: {
    platform: 'discord',
    label: 'Discord (shared application)',
    max_message_length: 2000,
    supports_draft_streaming: false,
    supports_edit: false,
    supports_threads: false,
    markdown_dialect: 'discord',
    len_unit: 'utf16',
  },
  send: () => ({ success: false, error: 'not used in this example' }),
  follow_up: (action, { credential }) => {
    // A real adapter: PATCH /webhooks/{application_id}/{credential}/messages/@original.
    answered.push({ token: credential, content: action.content });
    return { success: true, message_id: `followup-${answered.length}` };
  },
};

const http = createServer();
const relay = await createRelayServer({
  server: http,
  authenticate: authenticatorFor(secrets),
  platforms: { discord },
});
relay.on('error', (error) => console.error('connector error:', error));
http.on(
  'request',
  toNodeListener(
    createEdgeRouter({
      'POST /discord/interactions': createDiscordEdgeHandler({
        publicKey: publicKeyHex,
        tenantOf: tenantResolverFromRegistry(registry),
        server: relay,
      }),
    }),
  ),
);
http.listen(0, '127.0.0.1');
await once(http, 'listening');
const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

// acme's gateway, played by our client: answers every forwarded slash command through follow_up.
const forwards: PassthroughDelivery[] = [];
const followUpResults: Record<string, unknown>[] = [];
const gateway = new WebSocketRelayTransport({
  url: base,
  gatewayId: 'gw-acme',
  secret: acme.secrets[0] ?? '',
  identities: [{ platform: 'discord', botId: 'app-1' }],
  reconnect: false,
});
gateway.onPassthrough(async (forward) => {
  forwards.push(forward);
  const interaction = JSON.parse(new TextDecoder().decode(forward.body)) as {
    channel_id: string;
    member: { user: { id: string } };
    data: { name: string };
  };
  // The newer gateway's session source for an interaction: platform discord, a group chat.
  const sessionKey = buildSessionKey({
    platform: 'discord',
    chat_type: 'group',
    chat_id: interaction.channel_id,
    user_id: interaction.member.user.id,
  });
  const follow = { op: 'follow_up', session_key: sessionKey, kind: DISCORD_INTERACTION_TOKEN_KIND } as const;
  followUpResults.push(
    await gateway.sendFollowUp(
      { ...follow, content: `pong from /${interaction.data.name}` },
      { platform: 'discord' },
    ),
  );
});

/** Discord's side: a signed POST of `interaction` to the edge. */
async function discordPosts(interaction: Record<string, unknown>): Promise<Response> {
  const body = JSON.stringify(interaction);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = sign(null, Buffer.from(timestamp + body), privateKey).toString('hex');
  return fetch(`${base}/discord/interactions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-signature-ed25519': signature,
      'x-signature-timestamp': timestamp,
    },
    body,
  });
}

/** Waits (polling) until `condition` holds; fails with `what` after 5 s. */
async function until(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const TOKEN = 'aW50ZXJhY3Rpb246ZXhhbXBsZS10b2tlbg-secret-part';
try {
  assert.equal(await gateway.connect(), true);
  await gateway.handshake();

  // Discord probes the endpoint: a PING is answered PONG at the edge, a forged request refused.
  assert.deepEqual(await (await discordPosts({ type: 1, id: 'p1', application_id: 'app-1' })).json(), {
    type: 1,
  });
  const forged = await fetch(`${base}/discord/interactions`, {
    method: 'POST',
    headers: { 'x-signature-ed25519': '00'.repeat(64), 'x-signature-timestamp': '1' },
    body: '{"type":1}',
  });
  assert.equal(forged.status, 401);

  // A user of acme's guild runs /ping: Discord gets a deferred answer without waiting for the gateway.
  const response = await discordPosts({
    type: 2,
    id: 'i-100',
    application_id: 'app-1',
    guild_id: 'guild-acme',
    channel_id: 'chan-7',
    member: { user: { id: 'user-42', username: 'ann' } },
    data: { name: 'ping' },
    token: TOKEN,
  });
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { type: 5 }); // DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
  console.log('edge answered ', 'deferred (type 5)');

  // The gateway got the interaction without its token, and without the signature headers.
  await until('the forward', () => forwards.length === 1);
  const [forward] = forwards;
  assert.ok(forward !== undefined);
  const forwardedText = new TextDecoder().decode(forward.body);
  assert.equal(forwardedText.includes(TOKEN), false);
  assert.equal(JSON.parse(forwardedText).data.name, 'ping');
  const forwardedHeaders = forward.headers.map(([name]) => name);
  assert.equal(forwardedHeaders.includes('content-type'), true);
  assert.equal(
    forwardedHeaders.some((name) => name.startsWith('x-signature')),
    false,
  );
  console.log('gateway got   ', forward.platform, forward.path, forwardedText);

  // Its follow_up reached the adapter with the vaulted token.
  await until('the follow_up result', () => followUpResults.length === 1);
  assert.deepEqual(answered, [{ token: TOKEN, content: 'pong from /ping' }]);
  assert.equal(followUpResults[0]?.['success'], true);
  console.log('follow_up     ', 'answered with the vaulted token:', answered[0]?.content);

  // Tenant isolation: globex's gateway naming the same session and kind finds no credential.
  const globex = new WebSocketRelayTransport({
    url: base,
    gatewayId: 'gw-globex',
    secret: (await secrets.get('gw-globex'))?.secrets[0] ?? '',
    identities: [{ platform: 'discord', botId: 'app-1' }],
    reconnect: false,
  });
  try {
    assert.equal(await globex.connect(), true);
    await globex.handshake();
    const stolen = await globex.sendFollowUp(
      {
        op: 'follow_up',
        session_key: 'agent:main:discord:group:chan-7:user-42',
        kind: DISCORD_INTERACTION_TOKEN_KIND,
        content: 'not yours',
      },
      { platform: 'discord' },
    );
    assert.equal(stolen['success'], false);
    assert.equal(answered.length, 1);
    console.log('isolation     ', "another tenant's follow_up refused:", stolen['error']);
  } finally {
    await globex.disconnect();
  }
  console.log('ok');
} finally {
  await gateway.disconnect();
  await relay.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
}
