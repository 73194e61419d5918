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
