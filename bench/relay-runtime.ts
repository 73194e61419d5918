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
export interface RelayRuntimeBenchOptions {
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

/** The raw peer: a plain `ws` server and client exchanging messages of the inbound line's size. */
async function startRaw() {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  const address = wss.address();
  if (address === null || typeof address === 'string') throw new Error('the raw ws server has no TCP port');
  const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${address.port}`);
  await new Promise<void>((resolve, reject) => {
    client.once('open', () => resolve());
    client.once('error', reject);
  });
  const peer = await accepted;
  // Server side: echo what the client says, except the reply of a three-message exchange.
  let serverOnMessage: (data: Buffer) => void = (data) => peer.send(data.toString('utf8'));
  peer.on('message', (data: Buffer) => serverOnMessage(data));
  let clientOnMessage: (data: Buffer) => void = () => {};
  client.on('message', (data: Buffer) => clientOnMessage(data));

  return {
    /** The client sends one message, the server echoes it back. Milliseconds. */
    async echo(): Promise<number> {
      const done = deferred();
      clientOnMessage = (data) => {
        if (data.toString('utf8').length !== inboundLine.length)
          throw new Error('raw echo self-check failed');
        done.resolve();
      };
      serverOnMessage = (data) => peer.send(data.toString('utf8'));
      const start = performance.now();
      client.send(inboundLine);
      await done.promise;
      return performance.now() - start;
    },
    /** The relay's three messages, raw: server pushes, client replies, server answers. Milliseconds. */
    async threeMessages(): Promise<number> {
      const done = deferred();
      let pushed = false;
      clientOnMessage = (data) => {
        if (pushed) {
          done.resolve();
          return;
        }
        pushed = true;
        client.send(data.toString('utf8').slice(0, 600));
      };
      serverOnMessage = () => peer.send('{"type":"outbound_result","result":{"success":true}}');
      const start = performance.now();
      peer.send(inboundLine);
      await done.promise;
      return performance.now() - start;
    },
    /**
     * The relay's one-way traffic, raw: the server sends `count` messages, the client answers each
     * with a small ack message, done when the server has every ack. Messages per second.
     */
    async oneWayAcked(count: number): Promise<number> {
      const done = deferred();
      let acked = 0;
      clientOnMessage = (data) => {
        if (data.toString('utf8').length !== inboundLine.length)
          throw new Error('raw acked one-way self-check failed');
        client.send(RAW_ACK);
      };
      serverOnMessage = () => {
        acked += 1;
        if (acked === count) done.resolve();
      };
      const start = performance.now();
      for (let i = 0; i < count; i++) peer.send(inboundLine);
      await done.promise;
      return (count * 1000) / (performance.now() - start);
    },
    /**
     * The floor of a round trip (#22): the same three frames, each `JSON.stringify`'d and parsed on the
     * other side — what any implementation of the protocol does at least. Milliseconds.
     */
    async threeMessagesJson(): Promise<number> {
      const done = deferred();
      clientOnMessage = (data) => {
        const frame = parseLine(data);
        if (frame.type === 'outbound_result') {
          done.resolve();
          return;
        }
        client.send(
          jsonLine({ ...outboundFrameObject, action: { ...outboundFrameObject.action, content: REPLY } }),
        );
      };
      serverOnMessage = (data) => {
        if (parseLine(data).type !== 'outbound') throw new Error('raw JSON round-trip self-check failed');
        peer.send(jsonLine(resultFrameObject));
      };
      const start = performance.now();
      peer.send(jsonLine(inboundFrameObject));
      await done.promise;
      return performance.now() - start;
    },
    /**
     * The floor of acked one-way traffic (#22): the server sends `count` frames, each stringified; the
     * client parses each and answers a stringified `inbound_ack`, which the server parses; done when the
     * server has every ack. Messages per second.
     */
    async oneWayAckedJson(count: number): Promise<number> {
      const done = deferred();
      let acked = 0;
      clientOnMessage = (data) => {
        if (parseLine(data).type !== 'inbound') throw new Error('raw JSON acked one-way self-check failed');
        client.send(jsonLine(ackFrameObject));
      };
      serverOnMessage = (data) => {
        if (parseLine(data).type !== 'inbound_ack') throw new Error('raw JSON ack self-check failed');
        acked += 1;
        if (acked === count) done.resolve();
      };
      const start = performance.now();
      for (let i = 0; i < count; i++) peer.send(jsonLine(inboundFrameObject));
      await done.promise;
      return (count * 1000) / (performance.now() - start);
    },
    /** The server sends `count` messages; the client counts them. Messages per second. */
    async oneWay(count: number): Promise<number> {
      const done = deferred();
      let seen = 0;
      clientOnMessage = (data) => {
        if (data.toString('utf8').length !== inboundLine.length)
          throw new Error('raw one-way self-check failed');
        seen += 1;
        if (seen === count) done.resolve();
      };
      const start = performance.now();
      for (let i = 0; i < count; i++) peer.send(inboundLine);
      await done.promise;
      return (count * 1000) / (performance.now() - start);
    },
    async close() {
      client.terminate();
      for (const socket of wss.clients) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/**
 * Microseconds per frame for the least JSON work any relay must do that the raw case skips: write the
 * `inbound` frame as JSON and UTF-8 (the connector), decode and parse it (the gateway). Best of 5 loops.
 */
function jsonFloorMicros(iterations: number): number {
  const frame = { type: 'inbound', event, bufferId: '100000' };
  let best = Number.POSITIVE_INFINITY;
  let checksum = 0;
  for (let loop = 0; loop < 5; loop++) {
    const start = performance.now();
    for (let i = 0; i < iterations; i++) {
      const bytes = Buffer.from(JSON.stringify(frame), 'utf8');
      const parsed = JSON.parse(bytes.toString('utf8')) as { bufferId: string };
      checksum += parsed.bufferId.length;
    }
    best = Math.min(best, ((performance.now() - start) * 1000) / iterations);
  }
  if (checksum !== 5 * iterations * 6) throw new Error('JSON floor self-check failed');
  return best;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

function printTable(title: string, header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  console.log(`\n### ${title}\n`);
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}

/** Runs `measure` `times` times, in order, collecting the results. */
async function repeat(times: number, measure: () => Promise<number>): Promise<number[]> {
  const results: number[] = [];
  for (let i = 0; i < times; i++) results.push(await measure());
  return results;
}

/**
 * Adds the CPU time (user + system, the whole process: both ends of the socket, GC threads included)
 * that `run` takes to `cpu.micros`, and `operations` to `cpu.operations`. On a shared machine this
 * moves less than wall-clock time does.
 */
async function countCpu<T>(
  cpu: { micros: number; operations: number },
  operations: number,
  run: () => Promise<T>,
): Promise<T> {
  const before = process.cpuUsage();
  const result = await run();
  const used = process.cpuUsage(before);
  cpu.micros += used.user + used.system;
  cpu.operations += operations;
  return result;
}

export async function benchRelayRuntime(options: RelayRuntimeBenchOptions = {}): Promise<string[]> {
  const rounds = options.quick ? 3 : 5;
  const perRound = options.quick ? 100 : 400;
  const frames = options.quick ? 2000 : 10_000;
  const relay = await startRelay();
  const raw = await startRaw();
  try {
    // Warm-up: JIT, socket buffers, the ws receivers.
    await repeat(perRound, relay.roundTrip);
    await repeat(perRound, raw.echo);
    await repeat(perRound, raw.threeMessages);
    await relay.oneWay(frames / 4);
    await raw.oneWay(frames / 4);
    await raw.oneWayAcked(frames / 4);
    await repeat(perRound, raw.threeMessagesJson);
    await raw.oneWayAckedJson(frames / 4);

    const latency = {
      relay: [] as number[],
      echo: [] as number[],
      three: [] as number[],
      threeJson: [] as number[],
    };
    const throughput = {
      relay: [] as number[],
      raw: [] as number[],
      rawAcked: [] as number[],
      rawAckedJson: [] as number[],
    };
    const newCpu = () => ({ micros: 0, operations: 0 });
    const cpu = {
      echo: newCpu(),
      three: newCpu(),
      threeJson: newCpu(),
      relay: newCpu(),
      rawAckedJsonOneWay: newCpu(),
      rawOneWay: newCpu(),
      rawAckedOneWay: newCpu(),
      relayOneWay: newCpu(),
    };
    for (let round = 0; round < rounds; round++) {
      latency.echo.push(...(await countCpu(cpu.echo, perRound, () => repeat(perRound, raw.echo))));
      latency.three.push(...(await countCpu(cpu.three, perRound, () => repeat(perRound, raw.threeMessages))));
      latency.threeJson.push(
        ...(await countCpu(cpu.threeJson, perRound, () => repeat(perRound, raw.threeMessagesJson))),
      );
      latency.relay.push(...(await countCpu(cpu.relay, perRound, () => repeat(perRound, relay.roundTrip))));
      throughput.raw.push(await countCpu(cpu.rawOneWay, frames, () => raw.oneWay(frames)));
      throughput.rawAcked.push(await countCpu(cpu.rawAckedOneWay, frames, () => raw.oneWayAcked(frames)));
      throughput.rawAckedJson.push(
        await countCpu(cpu.rawAckedJsonOneWay, frames, () => raw.oneWayAckedJson(frames)),
      );
      throughput.relay.push(await countCpu(cpu.relayOneWay, frames, () => relay.oneWay(frames)));
    }
    const cpuPerOperation = (counted: { micros: number; operations: number }) =>
      (counted.micros / counted.operations).toFixed(1);

    const stats = (samples: number[]) => {
      const sorted = [...samples].sort((a, b) => a - b);
      return { p50: percentile(sorted, 50) * 1000, p99: percentile(sorted, 99) * 1000 };
    };
    const echo = stats(latency.echo);
    const three = stats(latency.three);
    const threeJson = stats(latency.threeJson);
    const ours = stats(latency.relay);
    const latencyRatio = ours.p50 / echo.p50;
    const µs = (value: number) => value.toFixed(1);
    printTable(
      `relay runtime — round-trip latency, 127.0.0.1 (${latency.relay.length} samples per case, ${inboundLine.length}-byte inbound)`,
      ['case', 'p50 µs', 'p99 µs', 'p50 vs raw ws echo', 'CPU µs per round trip'],
      [
        ['raw ws echo (1 out, 1 back)', µs(echo.p50), µs(echo.p99), '1.00×', cpuPerOperation(cpu.echo)],
        [
          'raw ws, 3 messages (push, reply, answer)',
          µs(three.p50),
          µs(three.p99),
          `${(three.p50 / echo.p50).toFixed(2)}×`,
          cpuPerOperation(cpu.three),
        ],
        [
          'floor: raw ws, the 3 frames stringified and parsed',
          µs(threeJson.p50),
          µs(threeJson.p99),
          `${(threeJson.p50 / echo.p50).toFixed(2)}×`,
          cpuPerOperation(cpu.threeJson),
        ],
        [
          'agentwire: deliverInbound → handler → send → outbound_result',
          µs(ours.p50),
          µs(ours.p99),
          `${latencyRatio.toFixed(2)}×`,
          cpuPerOperation(cpu.relay),
        ],
      ],
    );

    const rawRate = median(throughput.raw);
    const rawAckedRate = median(throughput.rawAcked);
    const rawAckedJsonRate = median(throughput.rawAckedJson);
    const ourRate = median(throughput.relay);
    const throughputRatio = ourRate / rawRate;
    const perSecond = (value: number) => Math.round(value).toLocaleString('en-US');
    printTable(
      `relay runtime — one-way throughput, 127.0.0.1 (${frames.toLocaleString('en-US')} frames of ${inboundLine.length} bytes, median of ${rounds})`,
      ['case', 'msgs/s', 'vs raw ws', 'CPU µs per frame'],
      [
        ['raw ws: server sends, client counts', perSecond(rawRate), '1.00×', cpuPerOperation(cpu.rawOneWay)],
        [
          'raw ws: server sends, client acks each',
          perSecond(rawAckedRate),
          `${(rawAckedRate / rawRate).toFixed(2)}×`,
          cpuPerOperation(cpu.rawAckedOneWay),
        ],
        [
          'floor: raw ws, frames and acks stringified and parsed',
          perSecond(rawAckedJsonRate),
          `${(rawAckedJsonRate / rawRate).toFixed(2)}×`,
          cpuPerOperation(cpu.rawAckedJsonOneWay),
        ],
        [
          'agentwire: deliverInbound → handler (acked)',
          perSecond(ourRate),
          `${throughputRatio.toFixed(2)}×`,
          cpuPerOperation(cpu.relayOneWay),
        ],
      ],
    );

    // What no implementation of the protocol can beat on this machine, measured in this run: the
    // round trip needs the three messages of the raw three-message row; a frame needs at least the
    // raw frame's time plus the JSON work above (no ack, no check, no buffer counted).
    const rawMicrosPerFrame = 1e6 / rawRate;
    const jsonMicros = jsonFloorMicros(options.quick ? 5000 : 20_000);
    const oneWayCeiling = rawMicrosPerFrame / (rawMicrosPerFrame + jsonMicros);
    console.log(
      `\nBounds for any implementation of the protocol, from this run: a round trip is three messages, ` +
        `raw ${(three.p50 / echo.p50).toFixed(2)}× the echo; a frame costs raw ${µs(rawMicrosPerFrame)} µs ` +
        `plus ≥ ${µs(jsonMicros)} µs of JSON (stringify, UTF-8, parse), so one-way ≤ ${oneWayCeiling.toFixed(2)}× ` +
        `raw before any ack, check or buffer.`,
    );

    const floorLatency = ours.p50 / threeJson.p50;
    const floorThroughput = ourRate / rawAckedJsonRate;
    return [
      `relay round-trip p50 vs raw ws echo: ${latencyRatio.toFixed(2)}× (reported; the goal is against the JSON floor)`,
      `relay round-trip p50 vs the JSON floor (3 frames stringified and parsed): ${floorLatency.toFixed(2)}× (goal ≤ 1.5×) ${floorLatency <= 1.5 ? 'met' : 'NOT met'}; p99 ${µs(ours.p99)} µs against the floor's ${µs(threeJson.p99)} µs`,
      `relay acked one-way vs the JSON floor (frames and acks stringified and parsed): ${floorThroughput.toFixed(2)}× (goal ≥ 0.9×) ${floorThroughput >= 0.9 ? 'met' : 'NOT met'}`,
    ];
  } finally {
    await relay.close();
    await raw.close();
  }
}
