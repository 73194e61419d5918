import type { BufferedEntry, InboundBuffer } from '../buffer/index.js';
import { frameToWireObject } from '../frames/index.js';
import type { FrameSender } from './frame-sender.js';

/** What a {@link ReplayPump} works with. */
export interface ReplayPumpSettings {
  readonly tenant: string;
  readonly buffer: InboundBuffer;
  readonly sender: FrameSender;
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
 * to drain before sending more. Entries stay in the buffer until the gateway acks them; a new
 * connection gets a new pump that starts from the oldest pending entry.
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

  /** Starts a pass, or asks the running pass for one more. */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#wokenWhileRunning = true;
      return;
    }
    this.#running = true;
    void this.#run();
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
    for (const entry of entries) {
      if (!(await this.#roomToSend()) || !this.#send(entry)) return false;
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

  #send(entry: BufferedEntry): boolean {
    const wire = frameToWireObject({ ...entry.frame, bufferId: entry.bufferId });
    if (!this.#settings.sender.send(`${JSON.stringify(wire)}\n`)) return false;
    this.#lastSentId = entry.bufferId;
    return true;
  }
}
