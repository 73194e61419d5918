import {
  type RelayBus,
  type RelayBusErrorHandler,
  type RelayBusListener,
  type RelayBusMessage,
  type RelayBusSubscription,
  RelayError,
  relayStoreKit,
} from '@agentwire/relay';
import type { Redis } from 'ioredis';
import {
  busChannel,
  closeOwnedClient,
  isCluster,
  openBackendConnection,
  type RedisClient,
  type RedisRelayBackendOptions,
} from './redis-connection.js';
import { ShardedSubscriber } from './redis-sharded-subscriber.js';

/** Options of {@link RedisRelayBus}. */
export interface RedisRelayBusOptions extends RedisRelayBackendOptions {
  /**
   * Receives what a listener throws, and messages on a bus channel that are not relay bus messages
   * (written by something else); delivery goes on. Default: `console.error`.
   */
  readonly onListenerError?: RelayBusErrorHandler;
}

interface Registration {
  readonly listener: RelayBusListener;
  active: boolean;
}

/** One tenant channel this instance is subscribed to, and its local listeners. */
interface ChannelSubscription {
  readonly tenant: string;
  readonly registrations: Set<Registration>;
  /** Settles when Redis confirmed the SUBSCRIBE. */
  readonly ready: Promise<void>;
}

/**
 * A {@link RelayBus} on Redis pub/sub, for a connector that runs as several instances: one channel per
 * tenant (`<keyPrefix>bus:<tenant, URI-encoded>`), messages as JSON. Each instance publishes on its
 * main connection and listens on one subscriber connection of its own (a `duplicate()` of the main
 * one, always owned and closed by the bus), subscribed once per tenant however many local listeners
 * the tenant has; Redis keeps the order of one connection's messages.
 *
 * **Counts:** `publish` resolves with Redis `PUBLISH`'s answer, the number of subscribed *connections*,
 * i.e. of bus instances holding the tenant — not of their listeners. It equals the number of
 * subscriptions while each instance holds at most one per tenant (one gateway socket per tenant and
 * instance, as the relay server does), and is `0` exactly when nobody holds the tenant.
 *
 * **On a Redis Cluster** (an ioredis `Cluster`, or `{ clusterNodes }` options) the bus uses sharded
 * pub/sub: `SPUBLISH` goes to the master that serves the tenant channel's hash slot, and each instance
 * `SSUBSCRIBE`s there, on one connection per master it opens itself — so counts and per-tenant order
 * hold as on one server. After a failover or a slot move, its channels are subscribed again on the
 * master that serves them now. Needs Redis ≥ 7.0.
 *
 * Pub/sub delivers at most once: messages published while the subscriber connection is down are lost
 * (ioredis resubscribes on reconnect; on a cluster, the bus subscribes again). The relay server only
 * sends wake-ups and interrupts this way. The subscriber connections' failures go to
 * `onConnectionError`, once per outage.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * const redis = new Redis(process.env.REDIS_URL!);
 * const bus = new RedisRelayBus({ redis });
 * await bus.subscribe('tenant-a', (message) => console.log(message.type));
 * await bus.publish('tenant-a', { type: 'buffered' }); // 1 (this instance)
 * await bus.close();
 * await redis.quit(); // the caller's client: the bus never closes it
 * ```
 */
export class RedisRelayBus implements RelayBus {
  readonly #publisher: RedisClient;
  readonly #ownsPublisher: boolean;
  /** One server: a duplicate of the publisher; a cluster: the sharded subscriptions. */
  readonly #subscriber: Redis | ShardedSubscriber;
  readonly #keyPrefix: string;
  readonly #onListenerError: RelayBusErrorHandler;
  /** Subscriptions by channel name. */
  readonly #channels = new Map<string, ChannelSubscription>();
  #closed = false;

  /**
   * @throws {RedisRelayError} `invalid_redis_relay_option`: a missing `redis`, a `keyPrefix` that is not a
   * string or an `onConnectionError` that is not a function.
   */
  constructor(options: RedisRelayBusOptions) {
    const connection = openBackendConnection(options, 'RedisRelayBus');
    this.#publisher = connection.client;
    this.#ownsPublisher = connection.owned;
    this.#keyPrefix = connection.keyPrefix;
    this.#onListenerError = options.onListenerError ?? relayStoreKit.logRelayBusListenerError;
    const publisher = this.#publisher;
    if (isCluster(publisher)) {
      this.#subscriber = new ShardedSubscriber(
        publisher,
        (channel, text) => this.#deliver(channel, text),
        (cause) => connection.report('subscriber', cause),
      );
      return;
    }
    // No ready check on the subscriber: its INFO would otherwise be sent after a SUBSCRIBE queued while
    // connecting, which Redis refuses in subscriber mode — and ioredis then drops the subscription.
    const subscriber = publisher.duplicate({ enableReadyCheck: false, enableAutoPipelining: false });
    connection.watch(subscriber, 'subscriber');
    subscriber.on('message', (channel: string, text: string) => this.#deliver(channel, text));
    this.#subscriber = subscriber;
  }

  /**
   * @throws {RelayError} `invalid_bus_argument`: a malformed tenant or message.
   * @throws {RelayError} `bus_closed`: after `close()`.
   */
  async publish(tenant: string, message: RelayBusMessage): Promise<number> {
    this.#assertOpen();
    const checkedTenant = relayStoreKit.checkRelayBusTenant(tenant);
    const text = JSON.stringify(relayStoreKit.checkRelayBusMessage(message));
    const channel = busChannel(this.#keyPrefix, checkedTenant);
    return isCluster(this.#publisher)
      ? ((await this.#publisher.spublish(channel, text)) as number)
      : this.#publisher.publish(channel, text);
  }

  /**
   * Resolves once Redis confirmed the subscription of this instance to the tenant's channel.
   *
   * @throws {RelayError} `invalid_bus_argument`: a malformed tenant, or a listener that is not a function.
   * @throws {RelayError} `bus_closed`: after `close()`.
   */
  async subscribe(tenant: string, listener: RelayBusListener): Promise<RelayBusSubscription> {
    this.#assertOpen();
    const checkedTenant = relayStoreKit.checkRelayBusTenant(tenant);
    if (typeof listener !== 'function') {
      throw new RelayError('invalid_bus_argument', 'listener must be a function', { path: 'listener' });
    }
    const channel = busChannel(this.#keyPrefix, checkedTenant);
    const subscription = this.#channels.get(channel) ?? this.#openChannel(channel, checkedTenant);
    const registration: Registration = { listener, active: true };
    subscription.registrations.add(registration);
    try {
      await subscription.ready;
    } catch (error) {
      registration.active = false;
      subscription.registrations.delete(registration);
      throw error;
    }
    return { unsubscribe: () => this.#unsubscribe(channel, subscription, registration) };
  }

  /** Drops every subscription and closes the subscriber connection (and the main one when owned). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const subscription of this.#channels.values()) {
      for (const registration of subscription.registrations) registration.active = false;
    }
    this.#channels.clear();
    // Unsubscribing first means no instance counts this one once `close` resolved. Only when connected:
    // during an outage the command would wait in ioredis's offline queue, and the server has already
    // dropped the subscriptions of a connection it lost.
    const subscriber = this.#subscriber;
    if (subscriber instanceof ShardedSubscriber) {
      await subscriber.close();
    } else {
      if (subscriber.status === 'ready') await subscriber.unsubscribe().catch(() => undefined);
      await closeOwnedClient(subscriber);
    }
    if (this.#ownsPublisher) await closeOwnedClient(this.#publisher);
  }

  #openChannel(channel: string, tenant: string): ChannelSubscription {
    const ready = this.#subscriber.subscribe(channel).then(
      () => undefined,
      (error: unknown) => {
        // The next subscribe to this tenant tries again.
        if (this.#channels.get(channel) === subscription) this.#channels.delete(channel);
        throw error;
      },
    );
    const subscription: ChannelSubscription = { tenant, registrations: new Set(), ready };
    // Rejections reach every subscribe that awaits `ready`; this keeps an unawaited one from surfacing.
    ready.catch(() => undefined);
    this.#channels.set(channel, subscription);
    return subscription;
  }

  async #unsubscribe(channel: string, subscription: ChannelSubscription, registration: Registration) {
    if (!registration.active) return;
    registration.active = false;
    subscription.registrations.delete(registration);
    if (subscription.registrations.size > 0 || this.#channels.get(channel) !== subscription) return;
    this.#channels.delete(channel);
    // Commands on one connection run in order, so a later SUBSCRIBE to the channel still wins.
    await this.#subscriber.unsubscribe(channel);
  }

  #deliver(channel: string, text: string): void {
    const subscription = this.#channels.get(channel);
    if (subscription === undefined) return;
    let message: RelayBusMessage;
    try {
      message = relayStoreKit.checkRelayBusMessage(JSON.parse(text));
    } catch (error) {
      this.#report(error, subscription.tenant);
      return;
    }
    for (const registration of [...subscription.registrations]) {
      if (!registration.active) continue;
      try {
        registration.listener(message);
      } catch (error) {
        this.#report(error, subscription.tenant);
      }
    }
  }

  #report(error: unknown, tenant: string): void {
    try {
      this.#onListenerError(error, tenant);
    } catch {
      // The error handler failed too; the remaining listeners and messages must still be served.
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw new RelayError('bus_closed', 'the relay bus is closed');
  }
}
