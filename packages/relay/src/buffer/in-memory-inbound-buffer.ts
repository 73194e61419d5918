import { checkBufferTenant, checkReadLimit } from './check-arguments.js';
import { InboundBufferClosedError, InvalidInboundBufferArgumentError } from './errors.js';
import { decodeBufferedFrame, encodeBufferedFrame } from './frame-codec.js';
import type { BufferedEntry, BufferedFrame, InboundBuffer } from './inbound-buffer.js';

// Buffer ids are decimal sequence numbers from one counter shared by every tenant.
const BUFFER_ID = /^(?:0|[1-9][0-9]{0,15})$/;

/**
 * An {@link InboundBuffer} for a connector that runs as one process: entries live in memory (as JSON
 * text, so every read returns a fresh copy) and are lost with the process. Buffer ids are decimal
 * numbers from one counter for all tenants, so an id is never issued twice. Runtime-neutral; no timers.
 *
 * @example
 * ```ts
 * const buffer = new InMemoryInboundBuffer();
 * const bufferId = await buffer.append('tenant-a', { type: 'inbound', event: { text: 'hi' } });
 * await buffer.read('tenant-a', null, 100); // [{ bufferId, frame: { type: 'inbound', … } }]
 * await buffer.ack('tenant-a', bufferId); // true
 * ```
 */
export class InMemoryInboundBuffer implements InboundBuffer {
  /** Pending entries per tenant: sequence number → frame JSON, in append (= numeric) order. */
  readonly #queues = new Map<string, Map<number, string>>();
  #lastSequence = 0;
  #closed = false;

  /**
   * @throws {InvalidInboundBufferArgumentError} a malformed tenant or frame.
   * @throws {InboundBufferClosedError} after `close()`.
   */
  async append(tenant: string, frame: BufferedFrame): Promise<string> {
    this.#assertOpen();
    const checkedTenant = checkBufferTenant(tenant);
    const text = encodeBufferedFrame(frame);
    let queue = this.#queues.get(checkedTenant);
    if (queue === undefined) {
      queue = new Map();
      this.#queues.set(checkedTenant, queue);
    }
    this.#lastSequence += 1;
    queue.set(this.#lastSequence, text);
    return String(this.#lastSequence);
  }

  /**
   * @throws {InvalidInboundBufferArgumentError} a malformed tenant, an `afterId` that is not a decimal
   *   buffer id, a `limit` that is not a positive integer.
   * @throws {InboundBufferClosedError} after `close()`.
   */
  async read(tenant: string, afterId: string | null, limit: number): Promise<readonly BufferedEntry[]> {
    this.#assertOpen();
    const checkedTenant = checkBufferTenant(tenant);
    const after = afterId === null ? 0 : parsePosition(afterId);
    const checkedLimit = checkReadLimit(limit);
    const entries: BufferedEntry[] = [];
    for (const [sequence, text] of this.#queues.get(checkedTenant) ?? []) {
      if (entries.length === checkedLimit) break;
      if (sequence > after) entries.push({ bufferId: String(sequence), frame: decodeBufferedFrame(text) });
    }
    return entries;
  }

  /**
   * `false` for any string that is not a pending id of the tenant.
   *
   * @throws {InvalidInboundBufferArgumentError} a malformed tenant, a `bufferId` that is not a string.
   * @throws {InboundBufferClosedError} after `close()`.
   */
  async ack(tenant: string, bufferId: string): Promise<boolean> {
    this.#assertOpen();
    const checkedTenant = checkBufferTenant(tenant);
    if (typeof bufferId !== 'string') {
      throw new InvalidInboundBufferArgumentError('bufferId must be a string', 'bufferId');
    }
    const queue = this.#queues.get(checkedTenant);
    if (queue === undefined || !BUFFER_ID.test(bufferId)) return false;
    const removed = queue.delete(Number(bufferId));
    if (queue.size === 0) this.#queues.delete(checkedTenant);
    return removed;
  }

  /**
   * @throws {InvalidInboundBufferArgumentError} a malformed tenant.
   * @throws {InboundBufferClosedError} after `close()`.
   */
  async size(tenant: string): Promise<number> {
    this.#assertOpen();
    return this.#queues.get(checkBufferTenant(tenant))?.size ?? 0;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#queues.clear();
  }

  #assertOpen(): void {
    if (this.#closed) throw new InboundBufferClosedError();
  }
}

function parsePosition(afterId: unknown): number {
  if (typeof afterId === 'string' && BUFFER_ID.test(afterId)) return Number(afterId);
  throw new InvalidInboundBufferArgumentError(
    'afterId must be null or a buffer id this buffer issued (a decimal number)',
    'afterId',
  );
}
