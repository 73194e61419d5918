import { describeKeyString, isKeyString } from './buffer.js';
import { RelayError } from './errors.js';

/**
 * Checks a tenant given to a relay bus: a non-empty string of well-formed Unicode. For bus
 * implementations, which call it before touching their backend.
 *
 * @throws {RelayError} `invalid_bus_argument`, path `tenant`.
 */
export function checkRelayBusTenant(tenant: unknown): string {
  if (isKeyString(tenant)) return tenant;
  throw new RelayError(
    'invalid_bus_argument',
    `tenant must be a non-empty, well-formed string, got ${describeKeyString(tenant)}`,
    { path: 'tenant' },
  );
}

/**
 * Checks a relay bus message and returns a frozen copy holding only the fields of its type, so a
 * publisher that changes its object afterwards changes nothing that was published. Bus
 * implementations call it on `publish`, and on what they receive from a shared backend.
 *
 * @throws {RelayError} `invalid_bus_argument`, path `message` or `message.<field>`.
 * @example
 * ```ts
 * checkRelayBusMessage(JSON.parse('{"type":"buffered"}')); // { type: 'buffered' }
 * ```
 */
export function checkRelayBusMessage(message: unknown): RelayBusMessage {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw new RelayError('invalid_bus_argument', 'message must be an object', { path: 'message' });
  }
  const fields = message as { readonly [key: string]: unknown };
  switch (fields['type']) {
    case 'buffered':
      return Object.freeze({ type: 'buffered' });
    case 'interrupt_inbound':
      return Object.freeze({
        type: 'interrupt_inbound',
        session_key: stringField(fields, 'session_key'),
        chat_id: stringField(fields, 'chat_id'),
      });
    case 'takeover':
      return Object.freeze({
        type: 'takeover',
        instanceId: stringField(fields, 'instanceId'),
        connectionId: stringField(fields, 'connectionId'),
      });
    default:
      throw new RelayError(
        'invalid_bus_argument',
        'message.type must be "buffered", "interrupt_inbound" or "takeover"',
        { path: 'message.type' },
      );
  }
}

function stringField(fields: { readonly [key: string]: unknown }, name: string): string {
  const value = fields[name];
  if (typeof value === 'string') return value;
  throw new RelayError('invalid_bus_argument', `message.${name} must be a string`, {
    path: `message.${name}`,
  });
}

/** Receives what a relay bus listener threw, with the tenant of the message it was handling. */
export type RelayBusErrorHandler = (error: unknown, tenant: string) => void;

/** The default {@link RelayBusErrorHandler}: writes the error to `console.error` and goes on. */
export const logRelayBusListenerError: RelayBusErrorHandler = (error, tenant) => {
  console.error(`relay bus listener for tenant ${JSON.stringify(tenant)} threw`, error);
};

/** Calls `listener` with `message`; a throw goes to `onError` (and one thrown there is dropped). */
export function callListener<M>(
  listener: (message: M) => void,
  message: M,
  tenant: string,
  onError: RelayBusErrorHandler,
): void {
  try {
    listener(message);
  } catch (error) {
    try {
      onError(error, tenant);
    } catch {
      // The error handler failed too; the remaining listeners and messages must still be served.
    }
  }
}

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

/**
 * What travels between connector instances about one tenant. Frames themselves never travel on the
 * bus — buffered frames live in the `InboundBuffer`, which every instance shares:
 * - `buffered`: new entries were appended for the tenant; whoever holds its gateway socket replays
 *   them (a wake-up call: losing one is harmless, the next handshake or append replays everything).
 * - `interrupt_inbound`: forward this interrupt to the gateway socket (not buffered, at most once).
 * - `takeover`: a newer gateway connection for the tenant was accepted on instance `instanceId`; every
 *   other instance closes its older socket for that tenant.
 */
export type RelayBusMessage =
  | { readonly type: 'buffered' }
  | { readonly type: 'interrupt_inbound'; readonly session_key: string; readonly chat_id: string }
  | { readonly type: 'takeover'; readonly instanceId: string; readonly connectionId: string };

/** Called for each message published to a subscribed tenant, in publish order per publisher. */
export type RelayBusListener = (message: RelayBusMessage) => void;

/** A live subscription; `unsubscribe` is idempotent. */
export interface RelayBusSubscription {
  unsubscribe(): Promise<void>;
}

/**
 * Routes messages about a tenant to the connector instance that holds the tenant's gateway socket.
 * Each instance subscribes to the tenants whose sockets it holds; any instance publishes.
 *
 * Rules every implementation keeps (the conformance suite checks them):
 * - `publish` resolves, after the message was handed over, with `0` when no subscription received it
 *   (nobody holds the tenant) and a positive count otherwise: of subscriptions for an in-process bus, of
 *   subscribed connector instances for a shared backend such as Redis (each instance holds at most one
 *   subscription per tenant, so the two agree in a relay server). Messages from one publisher to one
 *   tenant arrive in publish order.
 * - `subscribe` resolves once delivery to the new listener is active: a message published after it
 *   resolves reaches it. A listener that throws does not affect other listeners or later messages.
 * - Tenants are isolated: a listener only sees messages published for its tenant.
 */
export interface RelayBus {
  publish(tenant: string, message: RelayBusMessage): Promise<number>;
  subscribe(tenant: string, listener: RelayBusListener): Promise<RelayBusSubscription>;
  /** Drops every subscription and releases connections; the bus is unusable afterwards. */
  close(): Promise<void>;
}
