import WebSocket, { type RawData } from 'ws';

import { BoundedSocket, type SendBounds } from '../bounded-socket.js';
import type { CapabilityDescriptor } from '../descriptor.js';
import type { PeerLimit, RelayError } from '../errors.js';
import { decodeConnectorFrame } from '../frames/decode.js';
import type { OutboundResultObject } from '../frames/frames.js';
import { type Deferred, deferred } from '../internal.js';
import { encodeFrame, FrameDecoder } from '../ndjson.js';
import { outboundTimeoutError, type RelayTransportError } from '../transport.js';

interface PendingRequest {
  readonly requestId: string;
  readonly resolve: (result: OutboundResultObject) => void;
  readonly reject: (error: RelayTransportError) => void;
  /** The call that wrote the request, for error messages (`send_outbound`, `get_chat_info` …). */
  readonly what: string;
  /** When it times out, on the `performance.now()` clock. */
  readonly deadline: number;
}

/**
 * The outbound requests of one connection that wait for their `outbound_result`, by `requestId`.
 * Each gets exactly one outcome: its result, a `RelayTransportError` `outbound_timeout` after `timeoutMs`,
 * or the error {@link failAll} gives it. Whatever comes after that outcome is ignored; a result
 * goes to the latest request of its `requestId`.
 *
 * Every request waits the same `timeoutMs`, so deadlines come in registration order: one timer waits
 * for the oldest request instead of a timer per request.
 */
export class PendingRequests {
  readonly #timeoutMs: number;
  /** The latest request of each `requestId`. */
  readonly #byId = new Map<string, PendingRequest>();
  /** Every waiting request in registration order, which is deadline order. */
  readonly #waiting = new Set<PendingRequest>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #sweep = () => {
    this.#timer = undefined;
    const now = performance.now();
    for (const pending of this.#waiting) {
      if (pending.deadline > now) break;
      this.#remove(pending);
      pending.reject(outboundTimeoutError(pending.requestId, this.#timeoutMs));
    }
    this.#arm();
  };

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** How many requests are waiting. */
  get size(): number {
    return this.#waiting.size;
  }

  /** Registers `requestId` (before its frame is written) and resolves with its result. */
  wait(requestId: string, what: string): Promise<OutboundResultObject> {
    return new Promise<OutboundResultObject>((resolve, reject) => {
      const deadline = performance.now() + this.#timeoutMs;
      const pending: PendingRequest = { requestId, resolve, reject, what, deadline };
      this.#byId.set(requestId, pending);
      this.#waiting.add(pending);
      this.#arm();
    });
  }

  /** Settles `requestId` with `result`; returns `false` (and does nothing) for an id nobody waits for. */
  resolve(requestId: string, result: OutboundResultObject): boolean {
    const pending = this.#byId.get(requestId);
    if (pending === undefined) return false;
    this.#remove(pending);
    pending.resolve(result);
    return true;
  }

  /** Rejects every waiting request with the error `error` builds for it. */
  failAll(error: (what: string, requestId: string) => RelayTransportError): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const pending of [...this.#waiting]) {
      this.#remove(pending);
      pending.reject(error(pending.what, pending.requestId));
    }
  }

  #remove(pending: PendingRequest): void {
    this.#waiting.delete(pending);
    if (this.#byId.get(pending.requestId) === pending) this.#byId.delete(pending.requestId);
  }

  /**
   * Arms the timer for the oldest waiting request, when none is armed. It is not cleared when that
   * request settles early: it then fires for nothing and re-arms for the next one. Unreferenced: the
   * connection's socket keeps the process alive while requests wait, and its close fails them all.
   */
  #arm(): void {
    if (this.#timer !== undefined) return;
    const oldest = this.#waiting.values().next();
    if (oldest.done === true) return;
    this.#timer = setTimeout(this.#sweep, Math.max(0, oldest.value.deadline - performance.now()));
    this.#timer.unref();
  }
}

/** The part of a `net.Socket` that {@link WriteCoalescer} uses. */
export interface CorkableStream {
  cork(): void;
  uncork(): void;
  readonly destroyed: boolean;
}

/**
 * Coalesces the WebSocket messages written during one turn of the event loop into one socket write:
 * the first write of a turn corks the socket and the turn's end (`process.nextTick`, after the
 * microtasks) uncorks it. Every message keeps its own WebSocket frame; only the TCP writes are fewer.
 * A burst of `inbound_ack`s, one per frame of a replayed batch, then costs one system call.
 */
export class WriteCoalescer {
  readonly #stream: CorkableStream;
  #corked = false;
  readonly #uncork = () => {
    this.#corked = false;
    if (!this.#stream.destroyed) this.#stream.uncork();
  };

  constructor(stream: CorkableStream) {
    this.#stream = stream;
  }

  /** Call before each write: holds the writes of this turn back until its end. */
  hold(): void {
    if (this.#corked || this.#stream.destroyed) return;
    this.#corked = true;
    this.#stream.cork();
    process.nextTick(this.#uncork);
  }
}

/** One dialled socket and everything that lives and dies with it. */
export class ClientConnection {
  readonly socket: WebSocket;
  /** Reads the connector's lines; one per connection, so a partial line never leaks into the next. */
  readonly decoder = new FrameDecoder({ decode: decodeConnectorFrame });
  /** The outbound requests written on this socket. */
  readonly pending: PendingRequests;
  /** Settles with the first descriptor (or why there is none). */
  readonly handshake: Deferred<CapabilityDescriptor> = deferred();
  /** The first descriptor received: the session default. */
  descriptor: CapabilityDescriptor | undefined;
  /** The first descriptor received for each platform. */
  readonly descriptors = new Map<string, CapabilityDescriptor>();
  /** The `goIdle()` waiting for `going_idle_ack`, if any. */
  goingIdleAck: Deferred<boolean> | undefined;
  /** The socket opened (the hellos were written). */
  opened = false;
  /** `disconnect()` ended the dial before the socket opened. */
  aborted = false;
  /** Joins the messages of one event-loop turn into one TCP write, once the upgrade gave the socket. */
  #coalescer: WriteCoalescer | undefined;
  /** Every frame written goes through it: the bytes the connector leaves unread are bounded. */
  readonly #sender: BoundedSocket;
  /** Inbound, interrupt and passthrough frames run one after another on this chain. */
  #sequence: Promise<void> = Promise.resolve();
  /** How many sequenced frames wait for (or run) their handler. */
  #queued = 0;
  /** Their size on the wire, roughly. */
  #queuedBytes = 0;
  readonly #maxQueuedFrames: number;
  /**
   * While requests wait for results the socket is read past `maxQueuedFrames`; past this many bytes of
   * waiting frames (4 × `dropBufferedAmount`) the connector is dropped (`queued_frames`).
   */
  readonly #maxQueuedBytes: number;

  constructor(
    socket: WebSocket,
    settings: {
      readonly outboundTimeoutMs: number;
      readonly bounds: SendBounds;
      readonly maxQueuedFrames: number;
      /** The connector passed a limit: the socket is being dropped. */
      readonly onDrop: (error: RelayError) => void;
    },
  ) {
    this.socket = socket;
    this.pending = new PendingRequests(settings.outboundTimeoutMs);
    this.#sender = new BoundedSocket(socket, settings.bounds, { onDrop: settings.onDrop });
    this.#maxQueuedFrames = settings.maxQueuedFrames;
    this.#maxQueuedBytes = 4 * settings.bounds.dropAbove;
    socket.once('upgrade', (response) => {
      this.#coalescer = new WriteCoalescer(response.socket);
    });
  }

  /** Whether frames can be written now. */
  get writable(): boolean {
    return this.#sender.open;
  }

  /** Whether the socket is read now (no hold is in force). */
  get reading(): boolean {
    return this.#sender.reading;
  }

  /** Why the connection was dropped, when the connector passed a limit. */
  get dropped(): PeerLimit | undefined {
    return this.#sender.dropped;
  }

  /**
   * Runs `handle` once the sequenced frames received before it are handled. While more than
   * `maxQueuedFrames` wait, the socket is not read: a connector that sends faster than the handlers
   * run is slowed down by TCP instead of filling memory. `bytes` is the frame's size on the wire.
   * `handle` must not reject.
   */
  sequence(handle: () => Promise<void>, bytes: number): void {
    this.#queued += 1;
    this.#queuedBytes += bytes;
    if (this.#queuedBytes > this.#maxQueuedBytes) {
      this.#sender.drop(
        'queued_frames',
        `${this.#queuedBytes} bytes of frames wait for their handler (limit ${this.#maxQueuedBytes})`,
      );
      return;
    }
    this.holdReading();
    this.#sequence = this.#sequence.then(handle).then(() => {
      this.#queued -= 1;
      this.#queuedBytes -= bytes;
      this.holdReading();
    });
  }

  /**
   * Stops reading while more than `maxQueuedFrames` frames wait for their handler — unless a request
   * waits for its result: a handler that awaits `sendOutbound` needs its `outbound_result`, which comes
   * on this socket behind the queued frames. Call it whenever the queue or the pending requests change.
   */
  holdReading(): void {
    if (this.#queued > this.#maxQueuedFrames && this.pending.size === 0) this.#sender.hold('queued_frames');
    else this.#sender.release('queued_frames');
  }

  /**
   * Sends one encoded frame line as one text message; dropped once the socket is closing. The messages
   * of one event-loop turn leave in one TCP write.
   */
  write(line: string): void {
    if (!this.writable) return;
    this.#coalescer?.hold();
    this.#sender.send(line);
  }

  /** Resolves once the socket is closed, closing it with 1000 and forcing it shut after `graceMs`. */
  close(graceMs: number): Promise<void> {
    const socket = this.socket;
    if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => socket.terminate(), graceMs);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
      else socket.close(1000);
    });
  }
}

/** A WebSocket message as the frame decoder takes it: text as a string, binary as bytes. */
export function messageChunk(data: RawData, isBinary: boolean): string | Uint8Array {
  const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
  return isBinary ? bytes : bytes.toString('utf8');
}

/** Printable ASCII without `"` and `\`: Python's `json.dumps` writes such a string as it is. */
const VERBATIM_ID = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * The `inbound_ack` line of `bufferId` as the gateway writes it (Python `json.dumps` bytes), without
 * the frame encoder's checks for the ids every connector issues (decimal numbers, Redis stream ids);
 * any other id goes through `encodeFrame`.
 *
 * @example
 * inboundAckLine('1767225600000-0'); // '{"type": "inbound_ack", "bufferId": "1767225600000-0"}\n'
 */
export function inboundAckLine(bufferId: string): string {
  if (VERBATIM_ID.test(bufferId)) return `{"type": "inbound_ack", "bufferId": "${bufferId}"}\n`;
  return encodeFrame({ type: 'inbound_ack', bufferId }, { style: 'python' });
}

/** How often newer gateways ping the connector (`websockets`' `ping_interval=30`). */
export const DEFAULT_PING_INTERVAL_MS = 30_000;
/** How long newer gateways wait for a pong before they drop the connection (`ping_timeout=60`). */
export const DEFAULT_PING_TIMEOUT_MS = 60_000;

/**
 * Pings `socket` every `intervalMs` and terminates it when a pong is overdue by `timeoutMs`, so a
 * connection that died without a TCP error (a dropped NAT entry, a frozen peer) ends and the transport
 * re-dials, instead of waiting for the operating system to notice. While `paused()` (this side holds
 * its reading back) no verdict is taken. Returns the function that stops it;
 * it also stops by itself when the socket closes.
 */
export function startKeepalive(
  socket: WebSocket,
  intervalMs: number,
  timeoutMs: number,
  paused: () => boolean = () => false,
): () => void {
  let awaitingSince: number | undefined;
  const onPong = () => {
    awaitingSince = undefined;
  };
  const timer = setInterval(() => {
    // While this side does not read, a pong could not be seen: the flow-control deadlines judge then.
    if (paused()) {
      awaitingSince = undefined;
      return;
    }
    const now = Date.now();
    if (awaitingSince !== undefined) {
      if (now - awaitingSince >= timeoutMs) {
        stop();
        socket.terminate();
      }
      return;
    }
    awaitingSince = now;
    socket.ping();
  }, intervalMs);
  timer.unref?.();
  const stop = () => {
    clearInterval(timer);
    socket.off('pong', onPong);
    socket.off('close', stop);
  };
  socket.on('pong', onPong);
  socket.once('close', stop);
  return stop;
}
