// The relay runtime over real WebSockets on 127.0.0.1, against plain `ws` doing the least that moves
// the same bytes. Goals from the relay runtime issue:
// - round-trip latency (connector `deliverInbound` → gateway handler → `sendOutbound(send)` → adapter →
//   `outbound_result` resolved in the client): p50 ≤ 1.3× a raw `ws` echo (one message out, one back);
// - one-way throughput (`deliverInbound` × N, counted in the gateway's handler, acks flowing back):
//   ≥ 0.7× a raw `ws` server sending N messages of the same size to a counting client.
// Two raw rows do what the protocol needs with no work of ours (the round trip's three messages; a
// frame answered by an ack), two floor rows of issue #22 do it with the protocol's JSON work too (each
// frame stringified and parsed), and the run ends with the bounds they set for any implementation. The
// goals of #22: round trip p50 ≤ 1.5× the JSON floor; acked one-way ≥ 0.9× the JSON floor. Async, unlike the other benches: every case runs on this process's event loop, in
// interleaved rounds.
import { createMessageEvent, encodeFrame } from '@agentwire/relay';
import { WebSocketRelayTransport } from '@agentwire/relay/client';
import { createRelayServer, type PlatformAdapter } from '@agentwire/relay/server';
import { InMemoryInboundBuffer } from '@agentwire/relay/testing';
import WebSocket, { WebSocketServer } from 'ws';

const TENANT = 'bench-tenant';
const GATEWAY_ID = 'bench-gw';
const SECRET = 'bench-secret';

/** How much each measurement does; `quick` is for a smoke run. */
interface RelayRuntimeBenchOptions {
  readonly quick?: boolean;
}

// A Discord guild message as a connector delivers it (≈1 KB on the wire with its bufferId).
const event = createMessageEvent({
  text: 'Can you check why the nightly build failed? The last green run was yesterday — café ☕ fixed the flaky test.',
  message_id: '1310467783221461022',
  reply_to_message_id: '1310467700011223344',
  reply_to: { text: 'nightly build #412 failed', author: 'ci-bot', is_own: false },
  context: [
    {
      text: 'did anyone touch the cache config?',
      source: { user_name: 'bo', user_id: '284102349310836001' },
    },
    { text: 'not me', source: { user_name: 'cy', user_id: '284102349310836002' } },
  ],
  source: {
    platform: 'discord',
    chat_id: '1150094410839081999',
    chat_name: 'build',
    chat_type: 'group',
    user_id: '284102349310836737',
    user_name: 'ann',
    chat_topic: 'CI and releases',
    scope_id: '1150094410839081031',
  },
});
/** The `inbound` line as the server sends it; the raw cases send messages of this size. */
const inboundLine = encodeFrame({ type: 'inbound', event, bufferId: '100000' });
/** The frames of the floor rows that do the protocol's JSON work (#22): each stringified and parsed. */
const inboundFrameObject = { type: 'inbound', event, bufferId: '100000' };
const REQUEST_ID = '0123456789abcdef0123456789abcdef';
const outboundFrameObject = {
  type: 'outbound',
  requestId: REQUEST_ID,
  action: { op: 'send', chat_id: '1150094410839081999', content: '', reply_to: null, metadata: {} },
};
const resultFrameObject = {
  type: 'outbound_result',
  requestId: REQUEST_ID,
  result: { success: true, message_id: '1310467783221469999' },
};
const ackFrameObject = { type: 'inbound_ack', bufferId: '100000' };
const jsonLine = (frame: object) => `${JSON.stringify(frame)}\n`;
const parseLine = (data: Buffer) => JSON.parse(data.toString('utf8')) as { type?: string };
/** An `inbound_ack` line of the size the gateway writes. */
const RAW_ACK = '{"type":"inbound_ack","bufferId":"100000"}\n';
const REPLY = 'The nightly build failed in test:integration — cache.spec.ts timed out after 30 s.';

const adapter: PlatformAdapter = {
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
  send: () => ({ success: true, message_id: '1310467783221469999' }),
};

interface Deferred {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
}

function deferred(): Deferred {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** The relay path: our server (in-memory stores) and our client as the gateway. */
async function startRelay() {
  const buffer = new InMemoryInboundBuffer();
  const server = await createRelayServer({
    port: 0,
    authenticate: (gatewayId) => (gatewayId === GATEWAY_ID ? { tenant: TENANT, secrets: [SECRET] } : null),
    platforms: { discord: adapter },
    buffer,
    pingIntervalMs: 0,
  });
  const gateway = new WebSocketRelayTransport({
    url: `http://127.0.0.1:${server.port}`,
    gatewayId: GATEWAY_ID,
    secret: SECRET,
    identities: [{ platform: 'discord', botId: 'bench-bot' }],
    reconnect: false,
  });
  // What the handler does with each inbound frame: answer it (latency) or count it (throughput).
  let onFrame: (chatId: string) => Promise<void> | void = () => {};
  gateway.onInbound((inbound) => onFrame(String(inbound.source.chat_id)));
  const session = new Promise((resolve) => server.once('session', resolve));
  if (!(await gateway.connect())) throw new Error('the bench gateway could not connect');
  await gateway.handshake();
  await session;

  return {
    /** One round trip: deliverInbound → handler → send → outbound_result in the client. Milliseconds. */
    async roundTrip(): Promise<number> {
      const done = deferred();
      onFrame = async (chatId) => {
        const result = await gateway.sendOutbound(
          { op: 'send', chat_id: chatId, content: REPLY, reply_to: '1310467783221461022' },
          { platform: 'discord' },
        );
        if (result['success'] !== true) throw new Error('benchmark self-check failed: send did not succeed');
        done.resolve();
      };
      const start = performance.now();
      await server.deliverInbound(TENANT, event);
      await done.promise;
      return performance.now() - start;
    },
    /** `count` frames delivered and handled; messages per second. Waits for every ack afterwards. */
    async oneWay(count: number): Promise<number> {
      const done = deferred();
      let seen = 0;
      onFrame = () => {
        seen += 1;
        if (seen === count) done.resolve();
      };
      const start = performance.now();
      for (let i = 0; i < count; i++) await server.deliverInbound(TENANT, event);
      await done.promise;
      const rate = (count * 1000) / (performance.now() - start);
      while ((await buffer.size(TENANT)) > 0) await new Promise((resolve) => setTimeout(resolve, 1));
      return rate;
    },
    async close() {
      await gateway.disconnect();
      await server.close();
      await buffer.close();
    },
  };
}


const relay = await startRelay();
for (let i = 0; i < 3; i++) await relay.oneWay(10000);
const c0 = process.cpuUsage();
const N = Number(process.env.N ?? 20);
let rates = 0;
for (let i = 0; i < N; i++) rates += await relay.oneWay(10000);
const c = process.cpuUsage(c0);
console.log('msgs/s', (rates / N).toFixed(0), 'CPU µs/frame', ((c.user + c.system) / (N * 10000)).toFixed(1));
await relay.close();
process.exit(0);
