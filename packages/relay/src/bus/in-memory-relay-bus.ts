import { RelayError } from '../errors.js';
import { checkRelayBusMessage, checkRelayBusTenant } from './check-arguments.js';
import { callListener, logRelayBusListenerError, type RelayBusErrorHandler } from './listener-errors.js';
import type { RelayBus, RelayBusListener, RelayBusMessage, RelayBusSubscription } from './relay-bus.js';

/** Options of {@link InMemoryRelayBus}. */
export interface InMemoryRelayBusOptions {
  /** Receives what a listener throws; the other listeners and later messages are unaffected. Default: `console.error`. */
  readonly onListenerError?: RelayBusErrorHandler;
}

interface Registration {
  readonly listener: RelayBusListener;
  active: boolean;
}

/**
 * A {@link RelayBus} for a connector that runs as one process: subscriptions live in memory, and a
 * message reaches the listeners that were subscribed to its tenant when it was published, on a later
 * microtask, in publish order. `publish` resolves with how many of those listeners were still
 * subscribed when the message was handed out. Runtime-neutral; no timers.
 *
 * @example
 * ```ts
 * const bus = new InMemoryRelayBus();
 * const subscription = await bus.subscribe('tenant-a', (message) => console.log(message.type));
 * await bus.publish('tenant-a', { type: 'buffered' }); // 1, after logging "buffered"
 * await subscription.unsubscribe();
 * ```
 */
export class InMemoryRelayBus implements RelayBus {
  readonly #tenants = new Map<string, Set<Registration>>();
  readonly #onListenerError: RelayBusErrorHandler;
  #closed = false;

  constructor(options: InMemoryRelayBusOptions = {}) {
    this.#onListenerError = options.onListenerError ?? logRelayBusListenerError;
  }

  /**
   * @throws {RelayError} `invalid_bus_argument`: a malformed tenant or message.
   * @throws {RelayError} `bus_closed`: after `close()`.
   */
  async publish(tenant: string, message: RelayBusMessage): Promise<number> {
    this.#assertOpen();
    const checkedTenant = checkRelayBusTenant(tenant);
    const checkedMessage = checkRelayBusMessage(message);
    const targets = [...(this.#tenants.get(checkedTenant) ?? [])];
    // Every publish waits the same single microtask, so deliveries keep publish order.
    await Promise.resolve();
    let received = 0;
    for (const registration of targets) {
      if (!registration.active) continue;
      received += 1;
      callListener(registration.listener, checkedMessage, checkedTenant, this.#onListenerError);
    }
    return received;
  }

  /**
   * @throws {RelayError} `invalid_bus_argument`: a malformed tenant, or a listener that is not a function.
   * @throws {RelayError} `bus_closed`: after `close()`.
   */
  async subscribe(tenant: string, listener: RelayBusListener): Promise<RelayBusSubscription> {
    this.#assertOpen();
    const checkedTenant = checkRelayBusTenant(tenant);
    if (typeof listener !== 'function') {
      throw new RelayError('invalid_bus_argument', 'listener must be a function', { path: 'listener' });
    }
    const registration: Registration = { listener, active: true };
    let registrations = this.#tenants.get(checkedTenant);
    if (registrations === undefined) {
      registrations = new Set();
      this.#tenants.set(checkedTenant, registrations);
    }
    registrations.add(registration);
    return {
      unsubscribe: async () => {
        if (!registration.active) return;
        registration.active = false;
        const current = this.#tenants.get(checkedTenant);
        current?.delete(registration);
        if (current?.size === 0) this.#tenants.delete(checkedTenant);
      },
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const registrations of this.#tenants.values()) {
      for (const registration of registrations) registration.active = false;
    }
    this.#tenants.clear();
  }

  #assertOpen(): void {
    if (this.#closed) throw new RelayError('bus_closed', 'the relay bus is closed');
  }
}
