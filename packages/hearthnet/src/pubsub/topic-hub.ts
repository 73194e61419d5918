import { LruCache } from '../crypto/ed25519.js';
import { HearthNetLocalError } from '../errors.js';
import type { SignedEvent } from '../events/event.js';
import type { AppendResult, EventStore, LamportRange } from '../events/event-store.js';
import { MAX_TIMER_MS } from '../wire/sse.js';
import { localOnlyTopic } from './subscribe-protocol.js';
import { type ResolvedTopic, resolveTopic, topicForEvent, validateTopicPayload } from './topics.js';

/** How many items a hub keeps per topic, by default. */
export const DEFAULT_TOPIC_RETENTION = 256;
/** How many items one read returns at most, by default. */
export const DEFAULT_READ_LIMIT = 100;

/** One published item: its cursor position `seq` (unique and increasing across the hub's topics), topic and payload. */
export interface TopicItem<P = unknown> {
  readonly seq: number;
  readonly topic: string;
  readonly payload: P;
}

/**
 * The answer to a read (and the JSON body of `GET /pubsub/v1/subscribe`): the items after the
 * requested cursor, oldest first, and the `cursor` to read from next. `gap: true` means items after
 * the requested cursor are gone (out of retention, or the cursor is not from this hub); then `items`
 * is empty and `cursor` is the oldest retained position: reading from it returns every item still held.
 */
export interface TopicRead<P = unknown> {
  readonly items: readonly TopicItem<P>[];
  readonly cursor: number;
  readonly gap: boolean;
}

/** Options of {@link TopicHub.read}. */
export interface TopicReadOptions {
  /** The most items returned. Default {@link DEFAULT_READ_LIMIT}. */
  readonly limit?: number;
  /** When nothing is there yet, wait up to this long (ms) for the next item of the topic. Default 0. */
  readonly waitMs?: number;
  /** Ends a wait early: the read rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/** Options of {@link TopicHub.publish}. */
export interface PublishOptions {
  /**
   * Publishes only once per key (e.g. `event:<event_id>`): a later publish with a key the hub still
   * remembers is skipped. Keys are remembered up to `dedupeMemory` of the hub.
   */
  readonly dedupeKey?: string;
  /** `peer` when the payload came from another node: local-only topics refuse it. Default `local`. */
  readonly origin?: 'local' | 'peer';
}

/** Options of a {@link TopicHub}. */
export interface TopicHubOptions {
  /** Items kept per topic; older ones are dropped and a read that needs them reports a gap. Default `DEFAULT_TOPIC_RETENTION`. */
  readonly retention?: number;
  /** How many dedupe keys are remembered (least recently used forgotten first). Default 10 000. */
  readonly dedupeMemory?: number;
}

interface TopicState {
  readonly items: TopicItem[];
  /** The `seq` of the newest item dropped from retention (0 when none was). */
  evictedUpTo: number;
  readonly waiters: Set<() => void>;
}

/**
 * An in-memory pub-sub hub with cursors (contract §8): every published item gets the next `seq` of
 * the hub; each topic keeps its last `retention` items; a read returns the items after a cursor,
 * waits for the next one when there is none (long poll), and never loses items silently — a cursor
 * older than the retained window is answered with `gap: true`.
 *
 * @example
 * const hub = new TopicHub({ retention: 512 });
 * hub.publish('emergency.mode.changed', { online: false, since: '2026-05-26T08:14:22Z' });
 * const { items, cursor } = await hub.read('marketplace.post.created', 0, { waitMs: 25_000, signal });
 */
export class TopicHub {
  readonly #retention: number;
  readonly #published: LruCache<string, true>;
  readonly #topics = new Map<string, TopicState>();
  #seq = 0;

  constructor(options: TopicHubOptions = {}) {
    this.#retention = positiveInteger('retention', options.retention ?? DEFAULT_TOPIC_RETENTION);
    this.#published = new LruCache(positiveInteger('dedupeMemory', options.dedupeMemory ?? 10_000));
  }

  /** The `seq` of the newest item of any topic (0 before the first publish). */
  get lastSeq(): number {
    return this.#seq;
  }

  /** How many reads are waiting for a publish, over all topics (each ends on publish, timeout or abort). */
  get waiting(): number {
    let count = 0;
    for (const state of this.#topics.values()) count += state.waiters.size;
    return count;
  }

  /**
   * Publishes `payload` on `topic` after checking it against the topic's payload kind. Resolves
   * waiting reads of the topic.
   *
   * @returns the item, or `undefined` when `dedupeKey` was published before.
   * @throws {HearthNetLocalError} `unknown_topic`; `invalid_topic_payload`; `local_only_topic` for a
   *   local-only topic with `origin: 'peer'`.
   */
  publish(topic: string, payload: unknown, options: PublishOptions = {}): TopicItem | undefined {
    const resolved = resolveTopic(topic);
    if (options.origin === 'peer' && resolved.definition.scope === 'local_only') {
      throw localOnlyTopic(resolved.topic, 'publish');
    }
    validateTopicPayload(resolved, payload);
    const { dedupeKey } = options;
    if (dedupeKey !== undefined) {
      if (this.#published.get(dedupeKey) !== undefined) return undefined;
      this.#published.set(dedupeKey, true);
    }
    this.#seq += 1;
    const item: TopicItem = Object.freeze({ seq: this.#seq, topic: resolved.topic, payload });
    const state = this.#state(resolved.topic);
    state.items.push(item);
    if (state.items.length > this.#retention) {
      state.evictedUpTo = (state.items.shift() as TopicItem).seq;
    }
    const waiters = [...state.waiters];
    state.waiters.clear();
    for (const wake of waiters) wake();
    return item;
  }

  /**
   * The items of `topic` after `afterSeq` (`undefined`: from now on, i.e. only items published after
   * this call), up to `limit`. When there are none, waits up to `waitMs` for one. The returned
   * `cursor` is the position to read from next: the last item's `seq` when `limit` cut the answer,
   * else the hub's {@link lastSeq} (nothing of this topic is pending up to there).
   *
   * @throws {HearthNetLocalError} `unknown_topic`; `invalid_pubsub_options` for a bad cursor, limit or wait;
   *   the signal's reason when it aborts a wait.
   */
  async read(
    topic: string,
    afterSeq: number | undefined,
    options: TopicReadOptions = {},
  ): Promise<TopicRead> {
    const resolved = resolveTopic(topic);
    if (afterSeq !== undefined) nonNegativeInteger('cursor', afterSeq);
    const limit = positiveInteger('limit', options.limit ?? DEFAULT_READ_LIMIT);
    const waitMs = nonNegativeInteger('waitMs', options.waitMs ?? 0);
    if (waitMs > MAX_TIMER_MS)
      throw new HearthNetLocalError('invalid_pubsub_options', `waitMs must be at most ${MAX_TIMER_MS}`);
    options.signal?.throwIfAborted();
    const after = afterSeq ?? this.#seq;
    const answer = this.#readNow(resolved, after, limit);
    if (answer.items.length > 0 || answer.gap || waitMs === 0) return answer;
    const published = await this.#waitForPublish(resolved.topic, waitMs, options.signal);
    return published ? this.#readNow(resolved, after, limit) : { items: [], cursor: this.#seq, gap: false };
  }

  /** The cursor from which a read of `topic` returns every retained item. */
  oldestCursor(topic: string): number {
    return this.#topics.get(resolveTopic(topic).topic)?.evictedUpTo ?? 0;
  }

  #readNow(resolved: ResolvedTopic, after: number, limit: number): TopicRead {
    const state = this.#topics.get(resolved.topic);
    const oldest = state?.evictedUpTo ?? 0;
    // A cursor ahead of this hub comes from an earlier hub (e.g. before a restart): what it saw is unknown.
    if (after < oldest || after > this.#seq) return { items: [], cursor: oldest, gap: true };
    const pending = state === undefined ? [] : state.items.slice(firstAfter(state.items, after));
    const items = pending.slice(0, limit);
    const cursor = pending.length > limit ? (items.at(-1) as TopicItem).seq : this.#seq;
    return { items, cursor, gap: false };
  }

  #waitForPublish(topic: string, waitMs: number, signal: AbortSignal | undefined): Promise<boolean> {
    const state = this.#state(topic);
    return new Promise<boolean>((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        state.waiters.delete(onPublish);
        signal?.removeEventListener('abort', onAbort);
      };
      const onPublish = () => {
        finish();
        resolve(true);
      };
      const onAbort = () => {
        finish();
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        finish();
        resolve(false);
      }, waitMs);
      state.waiters.add(onPublish);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #state(topic: string): TopicState {
    let state = this.#topics.get(topic);
    if (state === undefined) {
      state = { items: [], evictedUpTo: 0, waiters: new Set() };
      this.#topics.set(topic, state);
    }
    return state;
  }
}

/** The index of the first item with `seq > after` (items are sorted by `seq`). */
function firstAfter(items: readonly TopicItem[], after: number): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((items[middle] as TopicItem).seq <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new HearthNetLocalError(
      'invalid_pubsub_options',
      `${name} must be a positive integer, got ${String(value)}`,
    );
  }
  return value;
}

function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new HearthNetLocalError(
      'invalid_pubsub_options',
      `${name} must be a non-negative integer, got ${String(value)}`,
    );
  }
  return value;
}

/**
 * Publishes an event of the community log on its topic (see `EVENT_TOPICS`), once per `event_id`:
 * the hub remembers the key `event:<event_id>`, so an event seen again (a sync duplicate) is skipped.
 *
 * @returns the published item; `undefined` when the event type has no topic or was published before.
 * @example
 * const result = await store.append(event);
 * if (result.status === 'appended') publishFromEventLog(hub, event);
 */
export function publishFromEventLog(hub: TopicHub, event: SignedEvent): TopicItem | undefined {
  const publication = topicForEvent(event);
  if (publication === undefined) return undefined;
  return hub.publish(publication.topic, publication.payload, { dedupeKey: `event:${event.event_id}` });
}

/**
 * An {@link EventStore} that publishes every event it stores, made here (`appendLocal`) or received
 * (`append`, which is what gossip sync calls), exactly once (see `publishFromEventLog`).
 * Reads go to the wrapped store unchanged.
 *
 * @example
 * const store = new PublishingEventStore(new InMemoryEventStore(), hub);
 * const sync = createSyncHandler({ store }); // events accepted by sync reach subscribers too
 */
export class PublishingEventStore implements EventStore {
  readonly #inner: EventStore;
  readonly #hub: TopicHub;

  constructor(inner: EventStore, hub: TopicHub) {
    this.#inner = inner;
    this.#hub = hub;
  }

  async append(event: SignedEvent): Promise<AppendResult> {
    const result = await this.#inner.append(event);
    if (result.status === 'appended') publishFromEventLog(this.#hub, event);
    return result;
  }

  async appendLocal<E extends SignedEvent>(communityId: string, create: (lamport: number) => E): Promise<E> {
    const event = await this.#inner.appendLocal(communityId, create);
    publishFromEventLog(this.#hub, event);
    return event;
  }

  get(eventId: string): Promise<SignedEvent | undefined> {
    return this.#inner.get(eventId);
  }

  list(communityId: string, range?: LamportRange): Promise<SignedEvent[]> {
    return this.#inner.list(communityId, range);
  }

  head(communityId: string): Promise<number | undefined> {
    return this.#inner.head(communityId);
  }

  heads(): Promise<ReadonlyMap<string, number>> {
    return this.#inner.heads();
  }

  clock(communityId: string): Promise<number> {
    return this.#inner.clock(communityId);
  }

  count(communityId?: string): Promise<number> {
    return this.#inner.count(communityId);
  }
}
