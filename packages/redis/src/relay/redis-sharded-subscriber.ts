import { type Cluster, Redis } from 'ioredis';

/** The longest wait between two attempts to subscribe channels again after a node failed. */
const MAX_RETRY_DELAY_MS = 2000;
const FIRST_RETRY_DELAY_MS = 50;
/** How often the slot map is read again while channels are subscribed (a slot may move silently). */
const SLOT_CHECK_INTERVAL_MS = 5000;

/**
 * The bus's subscriptions on a Redis Cluster, with sharded pub/sub: each channel is `SSUBSCRIBE`d on the
 * master that serves its hash slot, on one connection per master this object opens (never the
 * cluster's own), so `SPUBLISH` — which the cluster client sends to that same master — counts exactly
 * the bus instances subscribed, and a tenant's messages keep their order.
 *
 * When a master fails or its slots move, its connection ends or fails, the cluster client refreshes its
 * slot map, or the slot check every {@link SLOT_CHECK_INTERVAL_MS} ms sees the move: each channel is then
 * subscribed again on the master that serves it now, retried with backoff until it is. A `subscribe`
 * made while its master is unreachable waits for that, as one made on one server waits in ioredis's
 * offline queue. Messages published meanwhile are lost, as pub/sub loses them during any outage.
 */
export class ShardedSubscriber {
  readonly #cluster: Cluster;
  readonly #onMessage: (channel: string, text: string) => void;
  readonly #onFailure: (error: unknown) => void;
  /** Connections by node (`host:port`). */
  readonly #connections = new Map<string, Redis>();
  /** The node each channel is subscribed on (or being subscribed on). */
  readonly #homes = new Map<string, string>();
  /** Channels whose `SSUBSCRIBE` on their home has not been confirmed (yet, or again). */
  readonly #pending = new Set<string>();
  /** The `subscribe` calls waiting for their channel's first confirmation. */
  readonly #waiters = new Map<string, { resolve: () => void; reject: (error: Error) => void }[]>();
  #slotCheck: NodeJS.Timeout | undefined;
  #reported = false;
  #closed = false;
  #rehoming: Promise<void> | undefined;
  #rehomeAgain = false;
  #retryTimer: NodeJS.Timeout | undefined;
  #retryDelay = FIRST_RETRY_DELAY_MS;
  /** Whether the next rehome asks the cluster for its slot map first (after a failure). */
  #refreshFirst = false;
  /** The cluster client refreshed its slot map: channels whose master changed move (no refresh of ours). */
  readonly #onRefresh = (): void => {
    for (const [channel, home] of this.#homes) {
      if (this.#pending.has(channel) || this.#cluster.slots[keySlot(channel)]?.[0] !== home) {
        this.#scheduleRehome(0);
        return;
      }
    }
  };

  /**
   * @param onFailure receives the failures of these connections, the first after the last success.
   */
  constructor(
    cluster: Cluster,
    onMessage: (channel: string, text: string) => void,
    onFailure: (error: unknown) => void,
  ) {
    this.#cluster = cluster;
    this.#onMessage = onMessage;
    this.#onFailure = onFailure;
    cluster.on('refresh', this.#onRefresh);
  }

  /**
   * Resolves once the master of `channel`'s slot confirmed the `SSUBSCRIBE`: at once when it is
   * reachable, else once a rehome reached it. Rejects when closed first.
   */
  async subscribe(channel: string): Promise<void> {
    const node = await this.#ownerOf(channel);
    this.#assertOpen();
    this.#homes.set(channel, node);
    this.#pending.add(channel);
    this.#slotCheck ??= setInterval(() => {
      if (this.#homes.size > 0) this.#scheduleRehome(0, true);
    }, SLOT_CHECK_INTERVAL_MS).unref();
    const confirmed = new Promise<void>((resolve, reject) => {
      const waiting = this.#waiters.get(channel) ?? [];
      waiting.push({ resolve, reject });
      this.#waiters.set(channel, waiting);
    });
    try {
      await this.#connection(node).ssubscribe(channel);
      if (this.#homes.get(channel) === node) this.#confirmed(channel);
    } catch (error) {
      // The master is down or no longer serves the slot: a rehome (slot map read anew) subscribes it.
      if (this.#closed) throw error;
      this.#failed(error);
      this.#scheduleRehome(this.#retryDelay, true);
    }
    return confirmed;
  }

  /** Resolves once the master no longer counts this subscription. */
  async unsubscribe(channel: string): Promise<void> {
    const node = this.#homes.get(channel);
    this.#homes.delete(channel);
    this.#pending.delete(channel);
    const connection = node === undefined ? undefined : this.#connections.get(node);
    if (connection === undefined) return;
    await connection.sunsubscribe(channel).catch(() => undefined);
    // A connection no channel needs any more is closed (unless a subscribe came meanwhile).
    if (
      ![...this.#homes.values()].includes(node as string) &&
      this.#connections.get(node as string) === connection
    ) {
      this.#drop(node as string);
    }
  }

  /** Unsubscribes everything and closes every connection. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    clearInterval(this.#slotCheck);
    for (const waiting of this.#waiters.values()) {
      for (const { reject } of waiting)
        reject(new Error('the relay bus was closed before Redis confirmed the subscription'));
    }
    this.#waiters.clear();
    this.#cluster.off('refresh', this.#onRefresh);
    this.#homes.clear();
    this.#pending.clear();
    await Promise.all(
      [...this.#connections.keys()].map(async (node) => {
        const connection = this.#connections.get(node);
        this.#connections.delete(node);
        if (connection?.status === 'ready') await connection.quit().catch(() => undefined);
        connection?.disconnect();
      }),
    );
  }

  /** The `host:port` of the master that serves `channel`'s slot, once the cluster client knows it. */
  async #ownerOf(channel: string): Promise<string> {
    const slot = keySlot(channel);
    const known = this.#cluster.slots[slot]?.[0];
    if (known !== undefined) return known;
    if (this.#cluster.status === 'end') throw new Error('the Redis Cluster client was closed');
    if (this.#cluster.status === 'wait') this.#cluster.connect().catch(() => undefined);
    if (this.#cluster.status !== 'ready') {
      await new Promise<void>((resolve, reject) => {
        const ready = () => {
          this.#cluster.off('end', ended);
          resolve();
        };
        const ended = () => {
          this.#cluster.off('ready', ready);
          reject(new Error('the Redis Cluster client was closed'));
        };
        this.#cluster.once('ready', ready);
        this.#cluster.once('end', ended);
      });
    }
    const owner = this.#cluster.slots[slot]?.[0];
    if (owner === undefined) throw new Error(`no master of the Redis Cluster serves slot ${slot}`);
    return owner;
  }

  #connection(node: string): Redis {
    this.#assertOpen();
    const existing = this.#connections.get(node);
    if (existing !== undefined) return existing;
    const separator = node.lastIndexOf(':');
    const connection = new Redis({
      ...this.#cluster.options.redisOptions,
      host: node.slice(0, separator),
      port: Number(node.slice(separator + 1)),
      // A SSUBSCRIBE queued while connecting would otherwise follow the ready check's INFO, which
      // Redis refuses in subscriber mode.
      enableReadyCheck: false,
      // Never reconnected: a node that went away may come back as a replica. What it held is
      // subscribed again on whichever master serves it then.
      retryStrategy: () => null,
      lazyConnect: false,
      enableAutoPipelining: false,
    });
    connection.on('smessage', (channel: string, text: string) => {
      if (this.#homes.get(channel) === node) this.#onMessage(channel, text);
    });
    // A connection dropped meanwhile (its channels moved on) may still fail to connect: not a failure.
    // A slot that moved under a live connection shows as an error of it (Redis unsubscribes the
    // channel itself): the slot map is read again and the channel follows.
    connection.on('error', (error: unknown) => {
      if (this.#connections.get(node) !== connection) return;
      // Redis's own `sunsubscribe` of a moved slot's channel, which ioredis did not ask for: no outage.
      if (!/Last reply: sunsubscribe\b/.test(String((error as Error | undefined)?.message)))
        this.#failed(error);
      this.#scheduleRehome(this.#retryDelay, true);
    });
    connection.on('end', () => {
      if (this.#connections.get(node) !== connection) return;
      this.#connections.delete(node);
      let homed = false;
      for (const [channel, home] of this.#homes) {
        if (home !== node) continue;
        this.#pending.add(channel);
        homed = true;
      }
      if (homed) this.#scheduleRehome(this.#retryDelay, true);
    });
    this.#connections.set(node, connection);
    return connection;
  }

  #drop(node: string): void {
    const connection = this.#connections.get(node);
    this.#connections.delete(node);
    connection?.disconnect();
  }

  #scheduleRehome(delay: number, refreshFirst = false): void {
    if (this.#closed) return;
    if (refreshFirst) this.#refreshFirst = true;
    if (this.#rehoming !== undefined) {
      this.#rehomeAgain = true;
      return;
    }
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#rehomeAgain = false;
      this.#rehoming = this.#rehome().then((settled) => {
        this.#rehoming = undefined;
        if (!settled) {
          // Tried too soon (a master not replaced yet): again later, with the slot map asked for anew.
          this.#retryDelay = Math.min(this.#retryDelay * 2, MAX_RETRY_DELAY_MS);
          this.#scheduleRehome(this.#retryDelay, true);
        } else if (this.#rehomeAgain) {
          this.#scheduleRehome(0);
        }
      });
    }, delay);
    this.#retryTimer.unref();
  }

  /** Subscribes each channel on the master that serves it now; whether every one is. */
  async #rehome(): Promise<boolean> {
    if (this.#refreshFirst) {
      this.#refreshFirst = false;
      await new Promise<void>((resolve) => this.#cluster.refreshSlotsCache(() => resolve()));
    }
    let failed = false;
    await Promise.all(
      [...this.#homes].map(async ([channel, home]) => {
        const owner = this.#cluster.slots[keySlot(channel)]?.[0];
        if (owner === undefined) {
          failed = true;
          return;
        }
        if (owner === home && !this.#pending.has(channel)) return;
        this.#homes.set(channel, owner);
        this.#pending.add(channel);
        const previous = this.#connections.get(home);
        if (previous !== undefined && owner !== home)
          void previous.sunsubscribe(channel).catch(() => undefined);
        try {
          await this.#connection(owner).ssubscribe(channel);
          if (this.#homes.get(channel) === owner) this.#confirmed(channel);
        } catch (error) {
          this.#failed(error);
          failed = true;
        }
      }),
    );
    for (const node of this.#connections.keys()) {
      if (![...this.#homes.values()].includes(node)) this.#drop(node);
    }
    if (failed || this.#pending.size > 0) return false;
    this.#succeeded();
    return true;
  }

  #confirmed(channel: string): void {
    this.#pending.delete(channel);
    for (const { resolve } of this.#waiters.get(channel) ?? []) resolve();
    this.#waiters.delete(channel);
    if (this.#pending.size === 0) this.#succeeded();
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('the relay bus was closed before Redis confirmed the subscription');
  }

  /** Every channel is subscribed on its master: the next failure is a new outage. */
  #succeeded(): void {
    this.#reported = false;
    this.#retryDelay = FIRST_RETRY_DELAY_MS;
  }

  #failed(error: unknown): void {
    if (this.#reported || this.#closed) return;
    this.#reported = true;
    try {
      this.#onFailure(error);
    } catch {
      // A throwing handler must not stop the subscriptions' recovery.
    }
  }
}

/**
 * The Redis Cluster hash slot of `key` (CRC16/XMODEM of its bytes, or of its hash tag — the text
 * between the first `{` and the next `}`, when not empty — modulo 16 384).
 */
export function keySlot(key: string): number {
  let bytes = Buffer.from(key, 'utf8');
  const open = bytes.indexOf(0x7b);
  if (open >= 0) {
    const close = bytes.indexOf(0x7d, open + 1);
    if (close > open + 1) bytes = bytes.subarray(open + 1, close);
  }
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc % 16_384;
}
