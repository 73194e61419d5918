import { CapacityExceededError } from '../capabilities/hearthnet-errors.js';
import type { KeyPair } from '../crypto/index.js';
import { HearthNetLocalError } from '../errors.js';
import type { TrustPolicy } from '../wire/handler/trust.js';
import type { RequestVerifierOptions } from '../wire/request-verifier.js';
import type { TopicHub } from './topic-hub.js';

/** What every pub-sub transport's server side is given (long-poll handler, WebSocket endpoint). */
export interface PubSubServerOptions extends Pick<RequestVerifierOptions, 'clockSkewMs' | 'seenRequestIds'> {
  /** This node's key pair: it answers as `X-HearthNet-From` and signs what it answers. */
  readonly identity: KeyPair;
  /** The hub served. */
  readonly hub: TopicHub;
  /** The callers' trust status (the same policy as the bus handler's). */
  readonly trust: TrustPolicy;
  /** The community served; a request for another community is `unauthorized`. Default: not checked. */
  readonly community?: string;
  /** The clock, epoch ms. Default `Date.now`. */
  readonly now?: () => number;
  /**
   * The most subscriptions one caller (node id) may hold open at once on this transport (waiting long
   * polls, or WebSocket connections); one more is refused with `capacity_exceeded` (429,
   * `retry_after_ms` 1000) until one ends. Default {@link DEFAULT_MAX_SUBSCRIPTIONS_PER_CALLER} (32).
   */
  readonly maxSubscriptionsPerCaller?: number;
  /**
   * The most subscriptions of all callers open at once on this transport; one more is refused like
   * above. Default {@link DEFAULT_MAX_SUBSCRIPTIONS} (4096).
   */
  readonly maxSubscriptions?: number;
}

/** The default `maxSubscriptionsPerCaller`: room for every wire topic of §8, several times over. */
export const DEFAULT_MAX_SUBSCRIPTIONS_PER_CALLER = 32;
/** The default `maxSubscriptions` of one transport. */
export const DEFAULT_MAX_SUBSCRIPTIONS = 4096;

/** {@link PubSubServerOptions} checked, with the clock and the limits defaulted. */
export interface PubSubServerSettings {
  readonly identity: KeyPair;
  readonly hub: TopicHub;
  readonly trust: TrustPolicy;
  readonly community: string | undefined;
  readonly now: () => number;
  readonly maxSubscriptionsPerCaller: number;
  readonly maxSubscriptions: number;
}

/**
 * Checks the options both pub-sub server transports share.
 *
 * @throws {HearthNetLocalError} `invalid_pubsub_options` naming the unusable option.
 */
export function readPubSubServerOptions(options: PubSubServerOptions): PubSubServerSettings {
  if (options === null || typeof options !== 'object') {
    throw new HearthNetLocalError('invalid_pubsub_options', 'options are required');
  }
  const { identity, hub, trust } = options;
  if (identity === null || typeof identity !== 'object' || typeof identity.nodeId !== 'string') {
    throw new HearthNetLocalError('invalid_pubsub_options', 'identity must be a KeyPair');
  }
  if (hub === null || typeof hub !== 'object' || typeof hub.read !== 'function') {
    throw new HearthNetLocalError('invalid_pubsub_options', 'hub must be a TopicHub');
  }
  if (trust === null || typeof trust !== 'object' || typeof trust.trustOf !== 'function') {
    throw new HearthNetLocalError(
      'invalid_pubsub_options',
      'trust must be a TrustPolicy with trustOf(nodeId)',
    );
  }
  const maxSubscriptionsPerCaller = options.maxSubscriptionsPerCaller ?? DEFAULT_MAX_SUBSCRIPTIONS_PER_CALLER;
  const maxSubscriptions = options.maxSubscriptions ?? DEFAULT_MAX_SUBSCRIPTIONS;
  for (const [name, value] of [
    ['maxSubscriptionsPerCaller', maxSubscriptionsPerCaller],
    ['maxSubscriptions', maxSubscriptions],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new HearthNetLocalError(
        'invalid_pubsub_options',
        `${name} must be a positive integer, got ${String(value)}`,
      );
    }
  }
  return {
    identity,
    hub,
    trust,
    community: options.community,
    now: options.now ?? Date.now,
    maxSubscriptionsPerCaller,
    maxSubscriptions,
  };
}

/** The `retry_after_ms` of a subscription refused for {@link SubscriptionSlots}. */
const SUBSCRIPTION_RETRY_AFTER_MS = 1000;

/**
 * The open subscriptions of one transport, counted per caller and in all, so that a peer opening
 * thousands of long polls or sockets costs a bounded number of waiters.
 */
export class SubscriptionSlots {
  readonly #perCaller = new Map<string, number>();
  readonly #maxPerCaller: number;
  readonly #max: number;
  #open = 0;

  constructor(settings: Pick<PubSubServerSettings, 'maxSubscriptionsPerCaller' | 'maxSubscriptions'>) {
    this.#maxPerCaller = settings.maxSubscriptionsPerCaller;
    this.#max = settings.maxSubscriptions;
  }

  /**
   * Takes a slot for `caller`.
   *
   * @returns its release (calling it again does nothing).
   * @throws {CapacityExceededError} (429, `retry_after_ms` 1000) when the caller or the transport is at its
   *   limit.
   */
  acquire(caller: string): () => void {
    const held = this.#perCaller.get(caller) ?? 0;
    if (held >= this.#maxPerCaller || this.#open >= this.#max) {
      throw new CapacityExceededError(
        held >= this.#maxPerCaller
          ? `node ${caller} already holds ${held} subscriptions (maxSubscriptionsPerCaller)`
          : `${this.#open} subscriptions are open (maxSubscriptions)`,
        { retryAfterMs: SUBSCRIPTION_RETRY_AFTER_MS },
      );
    }
    this.#perCaller.set(caller, held + 1);
    this.#open += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#open -= 1;
      const left = (this.#perCaller.get(caller) ?? 1) - 1;
      if (left === 0) this.#perCaller.delete(caller);
      else this.#perCaller.set(caller, left);
    };
  }
}
