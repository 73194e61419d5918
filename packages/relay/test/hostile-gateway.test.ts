// One minute of two gateways that flood the server (hellos; outbound calls) and never read their
// sockets, each in its own process, while a well-behaved gateway works on the same server with the
// default options: the server's memory stays within its baseline + 64 MB, and the good gateway gets
// every round trip answered and every inbound message. The figures are printed.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createMessageEvent, mintRelayToken, RelayError } from '@agentwire/relay';
import { WebSocketRelayTransport } from '@agentwire/relay/client';
import { createRelayServer } from '@agentwire/relay/server';
import { describe, expect, it } from 'vitest';
import { discordDescriptor } from '../src/server/server-test-support.js';

const FLOOD_MS = Number(process.env['HOSTILE_FLOOD_MS'] ?? 60_000);
const RSS_HEADROOM = 64 * 1024 * 1024;
const SECRET = 'hostile-secret';
const flooderScript = join(import.meta.dirname, 'test-support', 'flooding-gateway-process.ts');

interface FlooderReport {
  readonly dials: number;
  readonly messages: number;
  readonly closes: readonly string[];
}

function runFlooder(url: string, gatewayId: string, mode: 'hello' | 'outbound'): Promise<FlooderReport> {
  const child = spawn(process.execPath, ['--import', 'tsx', flooderScript, url, mode, String(FLOOD_MS)], {
    env: { ...process.env, RELAY_TOKEN: mintRelayToken(gatewayId, SECRET, { ttlSeconds: 600 }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  // 'close', not 'exit': only 'close' comes after the child's stdout has been read to its end.
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) {
        reject(new Error(`flooder ${mode} exited with ${code}: ${err}`));
        return;
      }
      try {
        resolve(JSON.parse(out) as FlooderReport);
      } catch (error) {
        reject(
          new Error(`flooder ${mode} printed no report (${String(error)}): ${JSON.stringify(out)} ${err}`),
        );
      }
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('gateways that flood and never read', () => {
  it(
    'cost the server bounded memory while a well-behaved gateway keeps working',
    async () => {
      const server = await createRelayServer({
        port: 0,
        authenticate: (gatewayId) =>
          gatewayId.startsWith('gw-') ? { tenant: gatewayId, secrets: [SECRET] } : null,
        platforms: {
          discord: {
            descriptor: discordDescriptor,
            send: (action) => ({ success: true, message_id: `m-${action.chat_id}` }),
          },
        },
      });
      const dropped: string[] = [];
      server.on('warning', (error) => {
        if (error instanceof RelayError && error.code === 'peer_limit') dropped.push(error.message);
      });
      const received: string[] = [];
      const good = new WebSocketRelayTransport({
        url: `http://127.0.0.1:${server.port}`,
        gatewayId: 'gw-good',
        secret: SECRET,
        identities: [{ platform: 'discord', botId: 'app1' }],
      });
      good.onInbound((event) => {
        received.push(String(event.text));
      });
      let sent = 0;
      const deliver = async () => {
        sent += 1;
        await server.deliverInbound(
          'gw-good',
          createMessageEvent({
            text: `m${sent}`,
            source: { platform: 'discord', chat_id: 'c1', chat_type: 'dm', user_id: 'u1' },
          }),
        );
      };
      try {
        expect(await good.connect()).toBe(true);
        await good.handshake();
        // The baseline is the server after a busy moment of its own: bursts of 2 000 concurrent sends
        // (what a flooder's first messages cost too, before the server stops reading it) let V8 size
        // its heap for load, which is no cost of the flooders.
        for (let burst = 0; burst < 5; burst += 1) {
          await Promise.all(
            Array.from({ length: 2_000 }, () =>
              good.sendOutbound({ op: 'send', chat_id: 'w', content: 'x' }),
            ),
          );
        }
        for (let i = 0; i < 20; i += 1) await deliver();
        await sleep(500);
        const baseline = process.memoryUsage().rss;

        const url = `ws://127.0.0.1:${server.port}/relay`;
        const flooders = Promise.all([
          runFlooder(url, 'gw-hello', 'hello'),
          runFlooder(url, 'gw-outbound', 'outbound'),
        ]);
        let peak = baseline;
        let peakHeap = 0;
        let roundTrips = 0;
        let failedRoundTrips = 0;
        const started = Date.now();
        let floodersDone = false;
        void flooders.finally(() => {
          floodersDone = true;
        });
        while (!floodersDone) {
          const memory = process.memoryUsage();
          peak = Math.max(peak, memory.rss);
          peakHeap = Math.max(peakHeap, memory.heapUsed + memory.external);
          const result = await good.sendOutbound({ op: 'send', chat_id: `r${roundTrips}`, content: 'x' });
          if (result['success'] === true) roundTrips += 1;
          else failedRoundTrips += 1;
          if (roundTrips % 2 === 0) await deliver();
          await sleep(250);
        }
        const reports = await flooders;
        const elapsed = Date.now() - started;
        while (received.length < sent && Date.now() - started < elapsed + 10_000) await sleep(50);
        console.log(
          `hostile gateways, ${elapsed} ms: rss baseline ${(baseline / 2 ** 20).toFixed(1)} MiB, peak +${((peak - baseline) / 2 ** 20).toFixed(1)} MiB (heap + external peak ${(peakHeap / 2 ** 20).toFixed(1)} MiB); ` +
            `good gateway ${roundTrips} round trips (${failedRoundTrips} failed), ${received.length}/${sent} inbound; ` +
            `flooders ${JSON.stringify(reports.map(({ dials, messages }) => ({ dials, messages })))}; ${dropped.length} drops`,
        );
        expect(elapsed).toBeGreaterThanOrEqual(FLOOD_MS);
        expect(peak - baseline).toBeLessThanOrEqual(RSS_HEADROOM);
        expect(failedRoundTrips).toBe(0);
        expect(roundTrips).toBeGreaterThan(100);
        expect(received).toEqual(Array.from({ length: sent }, (_, i) => `m${i + 1}`));
        // The flooders did flood: each wrote far more than the server answered.
        for (const report of reports) expect(report.messages).toBeGreaterThan(8);
      } finally {
        await good.disconnect();
        await server.close();
      }
    },
    FLOOD_MS + 60_000,
  );
});
