import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { ConformanceError, type ConformanceErrorOptions } from '../../errors.js';

/** RFC 6455 opcodes this package reads or writes. */
export const OPCODE = {
  continuation: 0x0,
  text: 0x1,
  binary: 0x2,
  close: 0x8,
  ping: 0x9,
  pong: 0xa,
} as const;

/** One WebSocket frame, unmasked. */
export interface WebSocketFrame {
  readonly fin: boolean;
  readonly opcode: number;
  readonly payload: Buffer;
}

/** The GUID RFC 6455 §1.3 appends to `Sec-WebSocket-Key` before hashing it into `Sec-WebSocket-Accept`. */
export const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/**
 * Encodes one final frame. Clients must mask what they send (RFC 6455 §5.3), servers must not.
 *
 * @example
 * socket.write(encodeWebSocketFrame(OPCODE.text, Buffer.from('{"type":"hello"}\n'), { mask: true }));
 */
export function encodeWebSocketFrame(
  opcode: number,
  payload: Buffer,
  options: { readonly mask: boolean },
): Buffer {
  const length = payload.length;
  const lengthBytes = length < 126 ? 0 : length <= 0xffff ? 2 : 8;
  const header = Buffer.alloc(2 + lengthBytes + (options.mask ? 4 : 0));
  header[0] = 0x80 | opcode;
  header[1] = (options.mask ? 0x80 : 0) | (lengthBytes === 0 ? length : lengthBytes === 2 ? 126 : 127);
  if (lengthBytes === 2) header.writeUInt16BE(length, 2);
  else if (lengthBytes === 8) header.writeBigUInt64BE(BigInt(length), 2);
  if (!options.mask) return Buffer.concat([header, payload]);
  const key = randomBytes(4);
  key.copy(header, 2 + lengthBytes);
  return Buffer.concat([header, applyMask(payload, key)]);
}

/** The payload of a close frame: the status code, then the UTF-8 reason. */
export function closePayload(code: number, reason: string): Buffer {
  const payload = Buffer.alloc(2);
  payload.writeUInt16BE(code, 0);
  return Buffer.concat([payload, Buffer.from(reason, 'utf8')]);
}

/**
 * Splits a byte stream into frames: `push` the bytes as they arrive and get every frame they complete;
 * a partial frame waits for more. Masked payloads are unmasked.
 */
export class WebSocketFrameReader {
  #pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): WebSocketFrame[] {
    this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const frames: WebSocketFrame[] = [];
    for (;;) {
      const frame = this.#next();
      if (frame === undefined) return frames;
      frames.push(frame);
    }
  }

  #next(): WebSocketFrame | undefined {
    const bytes = this.#pending;
    if (bytes.length < 2) return undefined;
    const masked = (bytes[1]! & 0x80) !== 0;
    const shortLength = bytes[1]! & 0x7f;
    const lengthBytes = shortLength === 126 ? 2 : shortLength === 127 ? 8 : 0;
    const headerLength = 2 + lengthBytes + (masked ? 4 : 0);
    if (bytes.length < headerLength) return undefined;
    const length =
      lengthBytes === 0
        ? shortLength
        : lengthBytes === 2
          ? bytes.readUInt16BE(2)
          : Number(bytes.readBigUInt64BE(2));
    if (bytes.length < headerLength + length) return undefined;
    const body = bytes.subarray(headerLength, headerLength + length);
    const payload = masked
      ? applyMask(body, bytes.subarray(2 + lengthBytes, headerLength))
      : Buffer.from(body);
    this.#pending = bytes.subarray(headerLength + length);
    return { fin: (bytes[0]! & 0x80) !== 0, opcode: bytes[0]! & 0x0f, payload };
  }
}

function applyMask(payload: Buffer, key: Buffer): Buffer {
  const out = Buffer.alloc(payload.length);
  for (let i = 0; i < payload.length; i++) out[i] = payload[i]! ^ key[i % 4]!;
  return out;
}

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
  #answerPings = true;
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

  /** Stops answering the peer's pings, as a gateway whose process hangs would. */
  ignorePings(): void {
    this.#answerPings = false;
  }

  /**
   * Stops reading the socket, as a gateway whose reader stalls: the kernel's buffers fill, then the
   * peer's writes back up. Nothing is received (no message, ping or close) until {@link resume}.
   */
  pause(): void {
    this.#socket.pause();
  }

  /** Reads the socket again after {@link pause}: what waited in the kernel's buffers arrives. */
  resume(): void {
    this.#socket.resume();
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
        if (this.#answerPings && !this.#closeSent) {
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
