import { isPlainObject } from '@agentwire/internal';
import { RelayError } from './errors.js';
import { isJsonValue, type JsonValue } from './json.js';

// A UTF-16 code unit from the surrogate range that is not part of a high-low pair.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether `value` can name a tenant, session key, kind or credential in every relay runtime backend:
 * a non-empty string of well-formed Unicode. A lone surrogate is refused because it has no UTF-8
 * form: a backend that stores UTF-8 (Redis) would merge two different names into one.
 */
export function isKeyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && !LONE_SURROGATE.test(value);
}

/** How {@link isKeyString} refusals describe `value`. */
export function describeKeyString(value: unknown): string {
  if (typeof value !== 'string') return value === null ? 'null' : typeof value;
  return value === '' ? 'an empty string' : 'a string with a lone surrogate';
}

/**
 * Checks a tenant given to an inbound buffer: a non-empty string of well-formed Unicode.
 *
 * @throws {RelayError} `invalid_buffer_argument`, path `tenant`.
 */
export function checkBufferTenant(tenant: unknown): string {
  if (isKeyString(tenant)) return tenant;
  throw new RelayError(
    'invalid_buffer_argument',
    `tenant must be a non-empty, well-formed string, got ${describeKeyString(tenant)}`,
    { path: 'tenant' },
  );
}

/**
 * Checks the `limit` of a buffer read: a positive safe integer.
 *
 * @throws {RelayError} `invalid_buffer_argument`, path `limit`.
 */
export function checkReadLimit(limit: unknown): number {
  if (typeof limit === 'number' && Number.isSafeInteger(limit) && limit > 0) return limit;
  throw new RelayError(
    'invalid_buffer_argument',
    `limit must be a positive integer, got ${typeof limit === 'number' ? String(limit) : typeof limit}`,
    { path: 'limit' },
  );
}

/**
 * Checks a frame given to `append`: `{ type: 'inbound', event }` or `{ type: 'passthrough_forward',
 * forward }` with an object payload, no other keys, and nothing but plain JSON data (finite numbers,
 * plain objects and arrays, no cycles), so that every backend replays it as it was appended.
 *
 * @throws {RelayError} `invalid_buffer_argument`, path `frame` or `frame.<key>`.
 */
export function checkBufferedFrame(frame: unknown): BufferedFrame {
  const problem = bufferedFrameProblem(frame);
  if (problem === undefined) return frame as BufferedFrame;
  throw new RelayError('invalid_buffer_argument', problem.message, { path: problem.path });
}

/** Why `value` is not a `BufferedFrame` of plain JSON data, or `undefined` when it is one. */
export function bufferedFrameProblem(value: unknown): { message: string; path: string } | undefined {
  if (!isPlainObject(value)) return { message: 'frame must be an object', path: 'frame' };
  const payloadKey =
    value['type'] === 'inbound' ? 'event' : value['type'] === 'passthrough_forward' ? 'forward' : '';
  if (payloadKey === '') {
    return { message: 'frame.type must be "inbound" or "passthrough_forward"', path: 'frame.type' };
  }
  if (!isPlainObject(value[payloadKey])) {
    return { message: `frame.${payloadKey} must be an object`, path: `frame.${payloadKey}` };
  }
  const extra = Object.keys(value).find((key) => key !== 'type' && key !== payloadKey);
  if (extra !== undefined) {
    return {
      message: `a ${String(value['type'])} frame has no key ${JSON.stringify(extra)}`,
      path: `frame.${extra}`,
    };
  }
  if (!isJsonValue(value)) {
    return {
      message: 'frame must hold only plain JSON data (finite numbers, plain objects and arrays, no cycles)',
      path: `frame.${payloadKey}`,
    };
  }
  return undefined;
}

/**
 * Checks a frame given to `append` and writes it as the JSON text a buffer stores and `read` returns:
 * `{"type":…,"event":…}` or `{"type":…,"forward":…}` (the payload's keys in the order given).
 *
 * @throws {RelayError} `invalid_buffer_argument`: not a `BufferedFrame` of plain JSON data.
 * @example
 * encodeBufferedFrame({ type: 'inbound', event: { text: 'hi' } }); // '{"type":"inbound","event":{"text":"hi"}}'
 */
export function encodeBufferedFrame(frame: BufferedFrame): string {
  return writeChecked(checkBufferedFrame(frame));
}

/**
 * Reads back a frame written by {@link encodeBufferedFrame}.
 *
 * @throws {RelayError} `corrupt_buffered_frame`: the text is not such a frame.
 */
export function decodeBufferedFrame(text: string): BufferedFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RelayError('corrupt_buffered_frame', 'a stored frame is not JSON', { cause: error });
  }
  const problem = bufferedFrameProblem(value);
  if (problem !== undefined)
    throw new RelayError('corrupt_buffered_frame', `a stored ${problem.message}`, { path: problem.path });
  return value as BufferedFrame;
}

/**
 * Checks stored text that a buffer cannot trust (a shared store other writers reach) and returns it
 * as {@link encodeBufferedFrame} writes it: the text itself when it already is, else re-encoded.
 *
 * @throws {RelayError} `corrupt_buffered_frame`: the text is not a buffered frame.
 */
export function canonicalBufferedFrameJson(text: string): string {
  const canonical = writeChecked(decodeBufferedFrame(text));
  return canonical === text ? text : canonical;
}

/**
 * One `JSON.stringify` of a fresh `{ type, payload }` object: the same text as joining the payload's
 * JSON into the frame, but one flat string, which replay reads without copying it first.
 */
function writeChecked(frame: BufferedFrame): string {
  return frame.type === 'inbound'
    ? JSON.stringify({ type: 'inbound', event: frame.event })
    : JSON.stringify({ type: 'passthrough_forward', forward: frame.forward });
}

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

/**
 * A connector → gateway frame that waits for the gateway's `inbound_ack`, as its wire object without
 * `bufferId` (the buffer assigns it). `event` is a `MessageEvent` wire object, `forward` a
 * `passthrough_forward` forward object; both are stored and replayed verbatim.
 */
export type BufferedFrame =
  | { readonly type: 'inbound'; readonly event: { readonly [key: string]: JsonValue } }
  | { readonly type: 'passthrough_forward'; readonly forward: { readonly [key: string]: JsonValue } };

/**
 * One unacknowledged frame and the id the gateway acks it by. The frame comes back as the JSON text
 * `encodeBufferedFrame` wrote for it (`{"type":…,"event":…}` or `{"type":…,"forward":…}`, payload
 * keys in the order appended), so the server can send it without parsing and writing it again; read it
 * with `decodeBufferedFrame` where the object is needed.
 */
export interface BufferedEntry {
  readonly bufferId: string;
  readonly frameJson: string;
}

/**
 * Per-tenant queues of frames the gateway has not acknowledged yet (note §2.6). The server writes a
 * frame here **before** it is sent and removes it only on `inbound_ack`; after a reconnect or a
 * `going_idle` flip the holder of the gateway's socket replays what is left, in append order.
 *
 * Rules every implementation keeps (the conformance suite checks them):
 * - `append` checks and encodes the frame with `encodeBufferedFrame` before it returns its
 *   promise (later changes to the caller's object change nothing stored), resolves only once the entry
 *   is stored (durably, for a shared implementation) and returns a non-empty string id, unique within
 *   the tenant and never reused, even after an ack.
 * - `read` returns unacknowledged entries in append order, strictly after `afterId` (from the oldest
 *   when `null`), at most `limit` of them, each with the text `encodeBufferedFrame` wrote (a shared
 *   implementation that cannot trust its store re-checks it with
 *   `relayStoreKit.canonicalBufferedFrameJson`). An
 *   `afterId` that was acknowledged meanwhile still works as a position.
 * - `ack` is idempotent: `true` when it removed a pending entry, `false` when the id is unknown, already
 *   acknowledged, or belongs to another tenant. An acknowledged entry is never returned again.
 * - Tenants never see each other's entries.
 */
export interface InboundBuffer {
  /** Stores `frame` at the end of the tenant's queue and returns its `bufferId`. */
  append(tenant: string, frame: BufferedFrame): Promise<string>;
  /** Up to `limit` pending entries after `afterId` (exclusive), oldest first. */
  read(tenant: string, afterId: string | null, limit: number): Promise<readonly BufferedEntry[]>;
  /** Removes a pending entry; `false` when there was none with that id. */
  ack(tenant: string, bufferId: string): Promise<boolean>;
  /** How many entries of the tenant are pending. */
  size(tenant: string): Promise<number>;
  /** Releases connections and timers; the buffer is unusable afterwards. */
  close(): Promise<void>;
}
