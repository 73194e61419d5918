import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { relayAuthClose, verifyRelayAuthorization } from '@agentwire/relay';
import {
  closePayload,
  encodeWebSocketFrame,
  OPCODE,
  WEBSOCKET_GUID,
  WebSocketFrameReader,
} from '../websocket-client.js';

/** The one thing a {@link startBrokenConnector} gets wrong. */
export type ConnectorFlaw =
  | 'result-without-request-id'
  | 'mistyped-descriptor'
  | 'accepts-unauthenticated'
  // Answers every hello with its own platform's descriptor (discord), whatever the hello named.
  | 'descriptor-for-other-platform';

/** A running broken connector: its relay URL and how to stop it. */
export interface BrokenConnector {
  readonly url: string;
  close(): Promise<void>;
}

/** The gateway the broken connector knows. */
export const BROKEN_CONNECTOR_GATEWAY = {
  gatewayId: 'gw-broken',
  secret: 'broken-connector-secret',
} as const;

const DESCRIPTOR = {
  contract_version: 1,
  platform: 'discord',
  label: 'Discord',
  max_message_length: 2000,
  supports_draft_streaming: false,
  supports_edit: false,
  supports_threads: false,
  markdown_dialect: 'discord',
  len_unit: 'utf16',
  supported_ops: ['send', 'typing'],
};

/**
 * A tiny hand-written relay connector on `node:http` that is right about everything but `flaw`: it
 * answers each hello with a descriptor and each outbound with `{ success: true }`, and refuses a bad
 * token with 4401 — unless its flaw says otherwise. For the suite's own tests.
 */
export async function startBrokenConnector(flaw: ConnectorFlaw): Promise<BrokenConnector> {
  const server = createServer((_, response) => response.writeHead(404).end());
  const sockets = new Set<Duplex>();
  server.on('upgrade', (request: IncomingMessage, socket: Duplex) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const key = String(request.headers['sec-websocket-key']);
    const accept = createHash('sha1')
      .update(key + WEBSOCKET_GUID)
      .digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    const send = (opcode: number, payload: Buffer) =>
      socket.write(encodeWebSocketFrame(opcode, payload, { mask: false }));
    const refusal = relayAuthClose(
      verifyRelayAuthorization(request.headers.authorization, [BROKEN_CONNECTOR_GATEWAY.secret]),
    );
    if (refusal !== undefined && flaw !== 'accepts-unauthenticated') {
      send(OPCODE.close, closePayload(refusal.code, refusal.reason));
      socket.end();
      return;
    }
    const reader = new WebSocketFrameReader();
    // A frame may span messages: the part after the last newline waits for the next one.
    let partial = '';
    socket.on('data', (chunk: Buffer) => {
      for (const frame of reader.push(chunk)) {
        if (frame.opcode === OPCODE.close) {
          send(OPCODE.close, frame.payload.subarray(0, 2));
          socket.end();
          return;
        }
        if (frame.opcode !== OPCODE.text) continue;
        const lines = (partial + frame.payload.toString('utf8')).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          if (line.trim() === '') continue;
          const answer = answerTo(JSON.parse(line) as Record<string, unknown>, flaw);
          if (answer !== undefined) send(OPCODE.text, Buffer.from(`${JSON.stringify(answer)}\n`));
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/relay`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function answerTo(frame: Record<string, unknown>, flaw: ConnectorFlaw): object | undefined {
  if (frame['type'] === 'hello') {
    const descriptor = {
      ...DESCRIPTOR,
      platform: flaw === 'descriptor-for-other-platform' ? DESCRIPTOR.platform : frame['platform'],
    };
    if (flaw === 'mistyped-descriptor') descriptor.max_message_length = '2000' as unknown as number;
    return { type: 'descriptor', descriptor };
  }
  if (frame['type'] !== 'outbound') return undefined;
  const op = (frame['action'] as { readonly op?: unknown }).op;
  const result = DESCRIPTOR.supported_ops.includes(String(op))
    ? { success: true, message_id: 'm1' }
    : { success: false, error: `unsupported op ${String(op)}` };
  return flaw === 'result-without-request-id'
    ? { type: 'outbound_result', result }
    : { type: 'outbound_result', requestId: frame['requestId'], result };
}
