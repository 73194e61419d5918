import { RelayError } from '../errors.js';
import { checkBufferTenant, checkReadLimit } from './check-arguments.js';
import { encodeBufferedFrame } from './frame-codec.js';
import type { BufferedEntry, BufferedFrame, InboundBuffer } from './inbound-buffer.js';

// Buffer ids are decimal sequence numbers from one counter shared by every tenant.
const BUFFER_ID = /^(?:0|[1-9][0-9]{0,15})$/;

/**
 * An {@link InboundBuffer} for a connector that runs as one process: entries live in memory (as the
 * JSON text `read` returns) and are lost with the process. Buffer ids are decimal numbers from one
 * counter for all tenants, so an id is never issued twice. A read finds its start by binary search and
 * an ack is O(1), so neither slows down as entries pile up. Runtime-neutral; no timers.
 *
 * @example
 * ```ts
 * const buffer = new InMemoryInboundBuffer();
 * const bufferId = await buffer.append('tenant-a', { type: 'inbound', event: { text: 'hi' } });
 * await buffer.read('tenant-a', null, 100); // [{ bufferId, frameJson: '{"type":"inbound","event":{"text":"hi"}}' }]
 * await buffer.ack('tenant-a', bufferId); // true
 * ```
 */
export class InMemoryInboundBuffer implements InboundBuffer {
  /** Pending entries per tenant. */
  readonly #queues = new Map<string, TenantQueue>();
  #lastSequence = 0;
  #closed = false;

  /**
   * @throws {RelayError} `invalid_buffer_argument`: a malformed tenant or frame.
   * @throws {RelayError} `buffer_closed`: after `close()`.
   */
  async append(tenant: string, frame: BufferedFrame): Promise<string> {
    this.#assertOpen();
    const checkedTenant = checkBufferTenant(tenant);
    const text = encodeBufferedFrame(frame);
    let queue = this.#queues.get(checkedTenant);
    if (queue === undefined) {
      queue = new TenantQueue();
      this.#queues.set(checkedTenant, queue);
    }
    this.#lastSequence += 1;
    queue.append(this.#lastSequence, text);
    return String(this.#lastSequence);
  }

  /**
   * @throws {RelayError} `invalid_buffer_argument`: a malformed tenant, an `afterId` that is not a decimal
   *   buffer id, a `limit` that is not a positive integer.
   * @throws {RelayError} `buffer_closed`: after `close()`.
   */
  async read(tenant: string, afterId: string | null, limit: number): Promise<readonly BufferedEntry[]> {
    this.#assertOpen();
    const checkedTenant = checkBufferTenant(tenant);
    const after = afterId === null ? 0 : parsePosition(afterId);
    const checkedLimit = checkReadLimit(limit);
    return this.#queues.get(checkedTenant)?.read(after, checkedLimit) ?? [];
  }

  /**
   * `false` for any string that is not a pending id of the tenant.
   *
   * @throws {RelayError} `invalid_buffer_argument`: a malformed tenant, a `bufferId` that is not a string.
   * @throws {RelayError} `buffer_closed`: after `close()`.
   */
  async ack(tenant: string, bufferId: string): Promise<boolean> {
    this.#assertOpen();
    const checkedTenant = checkBufferTenant(tenant);
    if (typeof bufferId !== 'string') {
      throw new RelayError('invalid_buffer_argument', 'bufferId must be a string', { path: 'bufferId' });
    }
    const queue = this.#queues.get(checkedTenant);
    if (queue === undefined || !BUFFER_ID.test(bufferId)) return false;
    const removed = queue.ack(Number(bufferId));
    if (queue.size === 0) this.#queues.delete(checkedTenant);
    return removed;
  }

  /**
   * @throws {RelayError} `invalid_buffer_argument`: a malformed tenant.
   * @throws {RelayError} `buffer_closed`: after `close()`.
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
    if (this.#closed) throw new RelayError('buffer_closed', 'the inbound buffer is closed');
  }
}

function parsePosition(afterId: unknown): number {
  if (typeof afterId === 'string' && BUFFER_ID.test(afterId)) return Number(afterId);
  throw new RelayError(
    'invalid_buffer_argument',
    'afterId must be null or a buffer id this buffer issued (a decimal number)',
    { path: 'afterId' },
  );
}

/**
 * One tenant's pending entries: their texts by sequence number, and the sequence numbers in append
 * (= ascending) order from `#start`, where acknowledged ones linger until the list is compacted.
 */
class TenantQueue {
  readonly #texts = new Map<number, string>();
  #order: number[] = [];
  #start = 0;

  get size(): number {
    return this.#texts.size;
  }

  append(sequence: number, text: string): void {
    this.#texts.set(sequence, text);
    this.#order.push(sequence);
  }

  /** Up to `limit` pending entries with a sequence number above `after`, in order. */
  read(after: number, limit: number): BufferedEntry[] {
    const order = this.#order;
    const entries: BufferedEntry[] = [];
    for (let i = this.#firstAbove(after); i < order.length && entries.length < limit; i++) {
      const sequence = order[i] as number;
      const text = this.#texts.get(sequence);
      if (text !== undefined) entries.push({ bufferId: String(sequence), frameJson: text });
    }
    return entries;
  }

  ack(sequence: number): boolean {
    if (!this.#texts.delete(sequence)) return false;
    const order = this.#order;
    while (this.#start < order.length && !this.#texts.has(order[this.#start] as number)) this.#start += 1;
    // Drop acknowledged sequence numbers once they are most of the list: amortised O(1) per ack.
    if (this.#start > 64 && this.#start * 2 > order.length) {
      this.#order = order.slice(this.#start);
      this.#start = 0;
    } else if (order.length - this.#start > 64 && this.#texts.size * 2 < order.length - this.#start) {
      this.#order = order.slice(this.#start).filter((pending) => this.#texts.has(pending));
      this.#start = 0;
    }
    return true;
  }

  /** Index in `#order` of the first sequence number above `after`. */
  #firstAbove(after: number): number {
    let low = this.#start;
    let high = this.#order.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.#order[middle] as number) > after) high = middle;
      else low = middle + 1;
    }
    return low;
  }
}
