// A small connector for the tests of this folder: a real `ws` server on 127.0.0.1 that answers
// hellos with descriptors, answers outbound frames, acks going_idle, and lets a test push frames,
// send raw bytes, close with any code, drop sockets or refuse upgrades.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { type CapabilityDescriptor, descriptorToWire } from '../descriptor.js';
import { decodeGatewayFrame } from '../frames/decode.js';
import type {
  ConnectorFrameInput,
  GatewayFrame,
  HelloFrame,
  OutboundFrame,
  OutboundResultObject,
  UnknownFrame,
} from '../frames/frames.js';

import { encodeFrame, FrameDecoder } from '../ndjson.js';

/** How the fake connector answers; every member may be changed while it runs. */
export interface FakeConnectorBehaviour {
  /** The descriptor for each hello; `undefined` leaves it unanswered. Default: none. */
  descriptor?: (hello: HelloFrame, connection: FakeConnection) => CapabilityDescriptor | undefined;
  /** The result for each outbound frame; `undefined` leaves it unanswered. Default `{ success: true }`. */
  onOutbound?: (frame: OutboundFrame, connection: FakeConnection) => OutboundResultObject | undefined;
  /** Answer `going_idle` with `going_idle_ack`; default `true`. */
  ackGoingIdle?: boolean;
  /** Called once per accepted socket, before any frame is read (e.g. to close it with 4401). */
  onConnection?: (connection: FakeConnection) => void;
  /** Refuse the upgrade with this HTTP status instead of accepting it. */
  refuseUpgradeWith?: number | undefined;
}

/** One accepted gateway socket. */
export class FakeConnection {
  readonly socket: WebSocket;
  /** The upgrade request's path. */
  readonly path: string;
  /** The upgrade request's `Authorization` header. */
  readonly authorization: string | undefined;
  /** Every message received, as text, in order. */
  readonly messages: string[] = [];
  /** Every frame decoded from those messages, in order. */
  readonly frames: (GatewayFrame | UnknownFrame)[] = [];
  /** How the socket closed, once it has. */
  closed: { readonly code: number; readonly reason: string } | undefined;
  readonly #decoder = new FrameDecoder({ decode: decodeGatewayFrame });

  constructor(socket: WebSocket, request: IncomingMessage) {
    this.socket = socket;
    this.path = request.url ?? '';
    this.authorization = request.headers.authorization;
  }

  /** The received frames of one type. */
  framesOf<T extends GatewayFrame['type']>(type: T): Extract<GatewayFrame, { type: T }>[] {
    return this.frames.filter((frame) => frame.type === type) as Extract<GatewayFrame, { type: T }>[];
  }

  /** Sends one frame as one text message (compact JSON, as a TypeScript connector writes). */
  send(frame: ConnectorFrameInput): void {
    this.socket.send(encodeFrame(frame));
  }

  /** Sends raw data as one message: text for a string, binary for bytes. */
  sendRaw(data: string | Uint8Array): void {
    this.socket.send(data, { binary: typeof data !== 'string' });
  }

  /** Closes the socket with a close frame. */
  close(code: number, reason = ''): void {
    this.socket.close(code, reason);
  }

  /** Drops the socket without a close frame. */
  terminate(): void {
    this.socket.terminate();
  }

  /** Decodes one message; returns the complete frames it carried. */
  receive(text: string): (GatewayFrame | UnknownFrame)[] {
    this.messages.push(text);
    const frames: (GatewayFrame | UnknownFrame)[] = [];
    for (const result of this.#decoder.push(text)) if (result.ok) frames.push(result.frame);
    this.frames.push(...frames);
    return frames;
  }
}

/** A fake connector listening on 127.0.0.1 on a free port. */
export class FakeConnector {
  readonly behaviour: FakeConnectorBehaviour;
  /** Every accepted socket, in order. */
  readonly connections: FakeConnection[] = [];
  /** How many upgrades were refused through `refuseUpgradeWith`. */
  refusedUpgrades = 0;
  readonly #server: Server;
  readonly #wss = new WebSocketServer({ noServer: true });

  private constructor(server: Server, behaviour: FakeConnectorBehaviour) {
    this.#server = server;
    this.behaviour = behaviour;
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const status = this.behaviour.refuseUpgradeWith;
      if (status !== undefined) {
        this.refusedUpgrades += 1;
        socket.end(`HTTP/1.1 ${status} Refused\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
        return;
      }
      this.#wss.handleUpgrade(request, socket, head, (ws) => this.#accept(ws, request));
    });
  }

  /** Starts a fake connector on 127.0.0.1, port 0. */
  static async start(behaviour: FakeConnectorBehaviour = {}): Promise<FakeConnector> {
    const server = createServer((_, response) => response.writeHead(404).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new FakeConnector(server, behaviour);
  }

  /** The base URL a gateway is configured with: `http://127.0.0.1:<port>`. */
  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** The latest accepted socket. */
  get latest(): FakeConnection {
    const connection = this.connections.at(-1);
    if (connection === undefined) throw new Error('no gateway has connected');
    return connection;
  }

  /** Drops every socket and stops listening. */
  async close(): Promise<void> {
    for (const client of this.#wss.clients) client.terminate();
    this.#wss.close();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(ws: WebSocket, request: IncomingMessage): void {
    const connection = new FakeConnection(ws, request);
    this.connections.push(connection);
    ws.on('close', (code, reason) => {
      connection.closed = { code, reason: reason.toString('utf8') };
    });
    ws.on('message', (data) => {
      for (const frame of connection.receive(String(data))) this.#answer(connection, frame);
    });
    this.behaviour.onConnection?.(connection);
  }

  #answer(connection: FakeConnection, frame: GatewayFrame | UnknownFrame): void {
    if (connection.socket.readyState !== connection.socket.OPEN) return;
    switch (frame.type) {
      case 'hello': {
        const descriptor = this.behaviour.descriptor?.(frame, connection);
        if (descriptor !== undefined) {
          connection.send({ type: 'descriptor', descriptor: descriptorToWire(descriptor) });
        }
        return;
      }
      case 'outbound': {
        const answer = this.behaviour.onOutbound ?? (() => ({ success: true }));
        const result = answer(frame, connection);
        if (result !== undefined)
          connection.send({ type: 'outbound_result', requestId: frame.requestId, result });
        return;
      }
      case 'going_idle':
        if (this.behaviour.ackGoingIdle ?? true) connection.send({ type: 'going_idle_ack' });
        return;
      default:
        return;
    }
  }
}
