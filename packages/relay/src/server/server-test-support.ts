// Shared by this folder's tests (not exported): a gateway played with a raw `ws` client and the
// package's own codec, a server factory that cleans up after each test, and adapter fixtures.
import { afterEach } from 'vitest';
import { WebSocket } from 'ws';
import { mintRelayToken } from '../auth.js';
import { decodeConnectorFrame } from '../frames/decode.js';
import type { ConnectorFrame, GatewayFrameInput, UnknownFrame } from '../frames/frames.js';
import { encodeFrame, FrameDecoder } from '../ndjson.js';
import type { RelayServerOptions } from './options.js';
import type { PlatformAdapter, PlatformDescriptorFields } from './platform-adapter.js';
import { createRelayServer, type RelayServer } from './relay-server.js';

export const SECRET = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';
export const OLD_SECRET = 'previous-secret-still-in-rotation';
export const GATEWAY_ID = 'gw-1';
export const TENANT = 'tenant-a';

export const discordDescriptor: PlatformDescriptorFields = {
  platform: 'discord',
  label: 'Discord',
  max_message_length: 2000,
  supports_draft_streaming: false,
  supports_edit: true,
  supports_threads: true,
  markdown_dialect: 'discord',
  len_unit: 'chars',
};

/** A send-only Telegram adapter. */
export const telegramAdapter: PlatformAdapter = {
  descriptor: {
    ...discordDescriptor,
    platform: 'telegram',
    label: 'Telegram',
    max_message_length: 4096,
    len_unit: 'utf16',
  },
  send: (action, context) => ({ success: true, message_id: `tg:${context.botId}:${action.chat_id}` }),
};

/** Gateway ids the default `authenticate` knows: `gw-1`/`gw-2` of tenant-a, `gw-b` of tenant-b. */
export function defaultAuthenticate(
  gatewayId: string,
): { tenant: string; secrets: readonly string[] } | null {
  if (gatewayId === GATEWAY_ID || gatewayId === 'gw-2')
    return { tenant: TENANT, secrets: [SECRET, OLD_SECRET] };
  if (gatewayId === 'gw-b') return { tenant: 'tenant-b', secrets: [SECRET] };
  return null;
}

const servers: RelayServer[] = [];
const gateways: TestGateway[] = [];

afterEach(async () => {
  for (const gateway of gateways.splice(0)) gateway.terminate();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Starts a server on 127.0.0.1:0 with `discord` (given adapter) and `telegram`; closed after the test. */
export async function startServer(
  discord: PlatformAdapter,
  overrides: Partial<RelayServerOptions> = {},
): Promise<RelayServer> {
  const server = await createRelayServer({
    port: 0,
    authenticate: defaultAuthenticate,
    platforms: { discord, telegram: telegramAdapter },
    pingIntervalMs: 0,
    ...overrides,
  });
  servers.push(server);
  return server;
}

/** A frame the gateway read, or the close it saw. */
type Seen = ConnectorFrame | UnknownFrame;

/** A gateway played over a real socket: sends frames as the Python gateway writes them, records what it reads. */
export class TestGateway {
  readonly ws: WebSocket;
  readonly frames: Seen[] = [];
  /** Every text message received, as received. */
  readonly raw: string[] = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly #decoder = new FrameDecoder({ decode: decodeConnectorFrame });
  readonly #waiters = new Set<() => void>();

  constructor(url: string, headers: Record<string, string>, options: { readonly autoPong?: boolean } = {}) {
    this.ws = new WebSocket(url, { headers, ...options });
    this.ws.on('error', () => undefined);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('unexpected-response', (_request, response) =>
        reject(new Error(`HTTP ${response.statusCode}`)),
      );
    });
    this.closed = new Promise((resolve) => {
      this.ws.once('close', (code, reason) => {
        resolve({ code, reason: reason.toString('utf8') });
        this.#notify();
      });
    });
    this.ws.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      this.raw.push(text);
      for (const result of this.#decoder.push(text)) if (result.ok) this.frames.push(result.frame);
      this.#notify();
    });
    gateways.push(this);
  }

  /** Sends one gateway frame, written the Python way. */
  send(frame: GatewayFrameInput): void {
    this.ws.send(encodeFrame(frame, { style: 'python' }));
  }

  /** Sends raw text as one message. */
  sendRaw(text: string): void {
    this.ws.send(text);
  }

  hello(platform: string, botId = ''): void {
    this.send({ type: 'hello', platform, botId });
  }

  /** Waits until `count` frames of `type` arrived and returns them (rejects if the socket closes first). */
  async waitFor<T extends Seen['type']>(type: T, count = 1): Promise<Extract<Seen, { type: T }>[]> {
    for (;;) {
      const found = this.frames.filter((frame) => frame.type === type) as Extract<Seen, { type: T }>[];
      if (found.length >= count) return found;
      if (this.ws.readyState === WebSocket.CLOSED) {
        throw new Error(`socket closed after ${found.length} of ${count} ${type} frames`);
      }
      await new Promise<void>((resolve) => this.#waiters.add(resolve));
    }
  }

  /** Waits for the `outbound_result` of `requestId`. */
  async result(requestId: string): Promise<Record<string, unknown>> {
    for (;;) {
      const frames = await this.waitFor('outbound_result', 1);
      const match = frames.find((frame) => frame.requestId === requestId);
      if (match !== undefined) return match.result;
      await new Promise<void>((resolve) => this.#waiters.add(resolve));
    }
  }

  terminate(): void {
    this.ws.terminate();
  }

  #notify(): void {
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const wake of waiters) wake();
  }
}

/** The bearer header of a fresh token for `gatewayId`. */
export function bearer(gatewayId = GATEWAY_ID, secret = SECRET, ttlSeconds?: number, now?: number) {
  return { Authorization: `Bearer ${mintRelayToken(gatewayId, secret, { ttlSeconds, now })}` };
}

/** Opens a gateway socket to `server` (default: an authenticated `gw-1`). */
export function dial(
  server: RelayServer,
  headers: Record<string, string> = bearer(),
  path = '/relay',
  options: { readonly autoPong?: boolean } = {},
): TestGateway {
  return new TestGateway(`ws://127.0.0.1:${server.port}${path}`, headers, options);
}

/** Dials, says hello for `platforms` and waits for the session to be live (bus subscribed). */
export async function connectGateway(
  server: RelayServer,
  platforms: readonly (readonly [string, string])[] = [['discord', 'app1']],
  headers: Record<string, string> = bearer(),
): Promise<TestGateway> {
  const gateway = dial(server, headers);
  await gateway.opened;
  const session = new Promise<void>((resolve) => server.once('session', () => resolve()));
  for (const [platform, botId] of platforms) gateway.hello(platform, botId);
  await session;
  await gateway.waitFor('descriptor', platforms.length);
  return gateway;
}

/** A 32-hex request id made from a number. */
export function requestId(n: number): string {
  return n.toString(16).padStart(32, '0');
}

/** Resolves after the event loop has turned `times` times (lets socket I/O settle). */
export async function settle(times = 5): Promise<void> {
  for (let i = 0; i < times; i += 1) await new Promise((resolve) => setImmediate(resolve));
}
