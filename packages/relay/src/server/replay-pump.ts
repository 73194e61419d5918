import type { BufferedEntry, InboundBuffer } from '../buffer/index.js';
import type { BoundedSocket } from '../internal/bounded-socket.js';
import { type BufferedFrameLine, bufferedFrameLine, lineLength, utf8Lines } from './buffered-frame-line.js';

/**
 * Lines are joined into one message up to this many UTF-16 units (at most 192 KiB of UTF-8), far
 * below the 1 MiB message limit of the Python gateway's `websockets` client; a longer line goes alone.
 */
const MAX_BATCH_MESSAGE_LENGTH = 64 * 1024;

/** What a {@link ReplayPump} works with. */
export interface ReplayPumpSettings {
  readonly tenant: string;
  readonly buffer: InboundBuffer;
  readonly sender: BoundedSocket;
  readonly batchSize: number;
  readonly maxBufferedAmount: number;
  /** Called each time replay waits for the socket backlog to drain. */
  readonly onBackpressure: (bufferedAmount: number) => void;
  /** Called when reading the buffer fails; replay resumes on the next {@link ReplayPump.wake}. */
  readonly onError: (error: unknown) => void;
}

/**
 * Sends a tenant's buffered entries down one gateway connection, in append order, each once: it keeps
 * the id of the last entry it sent and reads only what follows it, so a wake-up during a pass simply
 * causes another pass. While the socket backlog is above `maxBufferedAmount` it waits for the backlog
 * to drain before sending more. The lines of a batch go out together as one WebSocket message (the
 * gateway's reader splits messages on `\n`), up to 64 Ki characters and the room left under
 * `maxBufferedAmount`. Entries stay
 * in the buffer until the gateway acks them; a new connection gets a new pump that starts from the
 * oldest pending entry.
 */
export class ReplayPump {
  readonly #settings: ReplayPumpSettings;
  #lastSentId: string | null = null;
  #running = false;
  #wokenWhileRunning = false;
  #stopped = false;

  constructor(settings: ReplayPumpSettings) {
    this.#settings = settings;
  }

  /**
   * Starts a pass once the current tick's microtasks have run (so that the entries appended by the
   * same burst of calls go out together), or asks the running pass for one more.
   */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#wokenWhileRunning = true;
      return;
    }
    this.#running = true;
    process.nextTick(() => void this.#run());
  }

  /** Sends nothing more (the connection went idle or closed); the entries stay buffered. */
  stop(): void {
    this.#stopped = true;
  }

  async #run(): Promise<void> {
    try {
      do {
        this.#wokenWhileRunning = false;
        while (await this.#pass()) {
          // Full batches: read on.
        }
      } while (this.#wokenWhileRunning && !this.#stopped);
    } catch (error) {
      this.#settings.onError(error);
    } finally {
      this.#running = false;
    }
  }

  /** Sends one batch; `true` when it was full (there may be more). */
  async #pass(): Promise<boolean> {
    const { buffer, tenant, batchSize } = this.#settings;
    if (this.#stopped) return false;
    const entries = await buffer.read(tenant, this.#lastSentId, batchSize);
    let next = 0;
    while (next < entries.length) {
      if (!(await this.#roomToSend())) return false;
      const sent = this.#sendFrom(entries, next);
      if (sent === 0) return false;
      next += sent;
    }
    return entries.length >= batchSize;
  }

  /** Waits while the backlog is above the limit; `false` when the pump was stopped meanwhile. */
  async #roomToSend(): Promise<boolean> {
    const { sender, maxBufferedAmount } = this.#settings;
    while (!this.#stopped && sender.open && sender.backlog > maxBufferedAmount) {
      this.#settings.onBackpressure(sender.backlog);
      await sender.drained();
    }
    return !this.#stopped;
  }

  /**
   * Sends `entries` from `start` as one message: at least one line, then more while the message
   * stays within its length limit and the backlog within its own (counting a character as a byte).
   * Returns how many entries it sent (0 when the socket is closed).
   */
  #sendFrom(entries: readonly BufferedEntry[], start: number): number {
    const { sender, maxBufferedAmount } = this.#settings;
    const room = Math.min(MAX_BATCH_MESSAGE_LENGTH, maxBufferedAmount - sender.backlog);
    const lines: BufferedFrameLine[] = [];
    let length = 0;
    let end = start;
    while (end < entries.length) {
      const entry = entries[end] as BufferedEntry;
      const line = bufferedFrameLine(entry.frameJson, entry.bufferId);
      if (end > start && length + lineLength(line) > room) break;
      lines.push(line);
      length += lineLength(line);
      end += 1;
    }
    if (!sender.send(utf8Lines(lines))) return 0;
    this.#lastSentId = (entries[end - 1] as BufferedEntry).bufferId;
    return end - start;
  }
}
