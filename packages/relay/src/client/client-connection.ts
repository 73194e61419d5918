import WebSocket, { type RawData } from 'ws';
import type { CapabilityDescriptor } from '../descriptor/index.js';
import type { PeerLimit, RelayError } from '../errors.js';
import { decodeConnectorFrame } from '../frames/index.js';
import { BoundedSocket, type SendBounds } from '../internal/bounded-socket.js';
import { type Deferred, deferred } from '../internal/deferred.js';
import { FrameDecoder } from '../ndjson/index.js';
import { PendingRequests } from './pending-requests.js';
import { WriteCoalescer } from './write-coalescer.js';

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
