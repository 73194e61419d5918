import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { ConformanceError, type ConformanceErrorOptions } from '../../errors.js';
import {
  closePayload,
  encodeWebSocketFrame,
  OPCODE,
  WEBSOCKET_GUID,
  type WebSocketFrame,
  WebSocketFrameReader,
} from './websocket-frame.js';

/** How a connection ended: the peer's close code and reason, or `1006` when it dropped without one. */
export interface WebSocketClose {
  readonly code: number;
  readonly reason: string;
}

/** Options of {@link LiveWebSocket.connect}. */
export interface LiveWebSocketOptions {
  /** Extra upgrade request headers (`Authorization` …). */
  readonly headers?: Readonly<Record<string, string>>;
  /** How long the upgrade may take. */
  readonly timeoutMs: number;
}

/** Close code of a connection that ended without a close frame (RFC 6455 §7.1.5). */
export const ABNORMAL_CLOSURE = 1006;

/**
 * A small RFC 6455 client, enough to play a gateway: text messages both ways, the peer's close code and
 * reason, pings answered. Extensions and subprotocols are not offered. It keeps the conformance CLI free
 * of a WebSocket dependency.
 */
export class LiveWebSocket {
  /** Resolves once the connection ended, however it ended. */
  readonly closed: Promise<WebSocketClose>;
  readonly #socket: Duplex;
  readonly #reader = new WebSocketFrameReader();
  readonly #listeners = new Set<(message: string) => void>();
  #fragments: Buffer[] = [];
  #closeSent = false;
  #peerClose: WebSocketClose | undefined;
  #resolveClosed!: (close: WebSocketClose) => void;

  private constructor(socket: Duplex, head: Buffer) {
    this.#socket = socket;
    this.closed = new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
    socket.on('data', (chunk: Buffer) => this.#receive(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.#resolveClosed(this.#peerClose ?? { code: ABNORMAL_CLOSURE, reason: '' }));
    if (head.length > 0) queueMicrotask(() => this.#receive(head));
  }

  /**
   * Opens a connection to a `ws://` or `wss://` URL.
   *
   * @throws {ConformanceError} `live_connection_failed`: when the dial fails, times out, or the server
   *   answers without switching protocols (its HTTP status is kept in `details.status`).
   */
  static connect(url: string, options: LiveWebSocketOptions): Promise<LiveWebSocket> {
    const target = new URL(url);
    const secure = target.protocol === 'wss:';
    if (!secure && target.protocol !== 'ws:') {
      return Promise.reject(liveConnectionError(`not a ws:// or wss:// URL: ${url}`));
    }
    const key = randomBytes(16).toString('base64');
    const request = (secure ? httpsRequest : httpRequest)({
      protocol: secure ? 'https:' : 'http:',
      hostname: target.hostname.replace(/^\[|\]$/g, ''),
      port: target.port === '' ? (secure ? 443 : 80) : Number(target.port),
      path: `${target.pathname}${target.search}`,
      headers: {
        ...options.headers,
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': key,
      },
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        request.destroy();
        reject(
          liveConnectionError(`the upgrade of ${url} did not complete within ${options.timeoutMs} ms`, {
            retryable: true,
          }),
        );
      }, options.timeoutMs);
      const settle = (outcome: () => void) => {
        clearTimeout(timer);
        outcome();
      };
      request.on('upgrade', (response: IncomingMessage, socket: Duplex, head: Buffer) => {
        const expected = createHash('sha1')
          .update(key + WEBSOCKET_GUID)
          .digest('base64');
        if (response.headers['sec-websocket-accept'] !== expected) {
          socket.destroy();
          settle(() =>
            reject(liveConnectionError(`${url} answered the upgrade with a wrong Sec-WebSocket-Accept`)),
          );
          return;
        }
        settle(() => resolve(new LiveWebSocket(socket, head)));
      });
      request.on('response', (response: IncomingMessage) => {
        response.resume();
        settle(() =>
          reject(
            liveConnectionError(`${url} refused the upgrade with HTTP ${response.statusCode}`, {
              details: { status: response.statusCode ?? 0 },
            }),
          ),
        );
      });
      request.on('error', (cause) =>
        settle(() =>
          reject(liveConnectionError(`cannot reach ${url}: ${cause.message}`, { retryable: true, cause })),
        ),
      );
      request.end();
    });
  }

  /** Calls `listener` with every text (or UTF-8 binary) message; returns the function that removes it. */
  onMessage(listener: (message: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Whether a message can still be sent. */
  get open(): boolean {
    return !this.#closeSent && this.#peerClose === undefined && !this.#socket.destroyed;
  }

  /** Sends one text message; does nothing once the connection is closing. */
  send(text: string): void {
    if (!this.open) return;
    this.#socket.write(encodeWebSocketFrame(OPCODE.text, Buffer.from(text, 'utf8'), { mask: true }));
  }

  /**
   * Starts the closing handshake and waits up to `graceMs` for the peer to finish it; then the socket is
   * destroyed. Resolves with how the connection ended.
   */
  async close(code = 1000, reason = '', graceMs = 1000): Promise<WebSocketClose> {
    this.#sendClose(code, reason);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([this.closed, grace]);
    clearTimeout(timer);
    this.#socket.destroy();
    return this.closed;
  }

  #sendClose(code: number, reason: string): void {
    if (this.#closeSent || this.#socket.destroyed) return;
    this.#closeSent = true;
    this.#socket.write(encodeWebSocketFrame(OPCODE.close, closePayload(code, reason), { mask: true }));
  }

  #receive(chunk: Buffer): void {
    for (const frame of this.#reader.push(chunk)) this.#handle(frame);
  }

  #handle(frame: WebSocketFrame): void {
    switch (frame.opcode) {
      case OPCODE.text:
      case OPCODE.binary:
      case OPCODE.continuation: {
        this.#fragments.push(frame.payload);
        if (!frame.fin) return;
        const message = Buffer.concat(this.#fragments).toString('utf8');
        this.#fragments = [];
        for (const listener of [...this.#listeners]) listener(message);
        return;
      }
      case OPCODE.ping:
        if (!this.#closeSent) {
          this.#socket.write(encodeWebSocketFrame(OPCODE.pong, frame.payload, { mask: true }));
        }
        return;
      case OPCODE.close: {
        const code = frame.payload.length >= 2 ? frame.payload.readUInt16BE(0) : 1005;
        this.#peerClose = { code, reason: frame.payload.subarray(2).toString('utf8') };
        this.#sendClose(code === 1005 ? 1000 : code, '');
        this.#socket.end();
        return;
      }
      default:
        return;
    }
  }
}

/** `live_connection_failed`: the dial failed or timed out, or the server answered without switching protocols. */
function liveConnectionError(message: string, options: ConformanceErrorOptions = {}): ConformanceError {
  return new ConformanceError('live_connection_failed', message, options);
}
