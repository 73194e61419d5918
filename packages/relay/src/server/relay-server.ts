import { EventEmitter } from 'node:events';
import { createServer, type Server as HttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import {
  RELAY_CLOSE_REASON_UNAUTHORIZED,
  RELAY_CLOSE_UNAUTHORIZED,
  type RelayAuthCloseReason,
} from '../auth.js';
import type { RelayBusMessage, RelayBusSubscription } from '../bus.js';
import { RELAY_CLOSE_PEER_LIMIT, RelayError } from '../errors.js';
import type { MessageEvent, MessageEventWire } from '../message-event.js';
import type { CapabilityBinding } from '../vault.js';
import { type ConnectionHost, GatewayConnection, type GatewayConnectionInfo } from './gateway-connection.js';
import {
  newConnectionId,
  type RelayServerOptions,
  type ResolvedServerOptions,
  resolveServerOptions,
  type ServerStores,
  serverStores,
} from './options.js';
import {
  authenticateUpgrade,
  callbackError,
  inboundFrame,
  type PassthroughForwardInput,
  passthroughFrame,
  type UpgradeAccepted,
  type UpgradeRefused,
} from './platform-adapter.js';
import { RecentChats } from './recent-chats.js';

/** The first descriptor was sent and the connection delivers: its session default identity. */
export interface RelaySessionInfo extends GatewayConnectionInfo {
  readonly platform: string;
  readonly botId: string;
}

/** Events of a {@link RelayServer}, for operators and tests. */
export interface RelayServerEvents {
  /** An authenticated gateway socket was accepted. */
  connection: [info: GatewayConnectionInfo];
  /** A connection answered its first hello and now receives inbound frames. */
  session: [info: RelaySessionInfo];
  /** A gateway socket closed (for any reason). */
  disconnect: [info: GatewayConnectionInfo & { readonly code: number; readonly reason: string }];
  /** An upgrade was refused with 4401; `detail` says why (for logs, never sent to the gateway). */
  rejected: [info: { readonly reason: RelayAuthCloseReason; readonly detail: string }];
  /** Replay on a connection waits for its socket backlog (`bufferedAmount` bytes) to drain. */
  backpressure: [info: GatewayConnectionInfo & { readonly bufferedAmount: number }];
  /**
   * A fault of a gateway: a malformed line or a hello for an unknown platform (the connection goes on),
   * or a passed limit (a `RelayError` `peer_limit`: the connection was dropped).
   */
  warning: [error: Error];
  /** A fault of this side: a throwing callback, a failing bus, buffer or vault. */
  error: [error: Error];
}

/** The outcome of `deliverInbound` / `forwardPassthrough`: the entry is stored under `bufferId`. */
export interface BufferedDelivery {
  readonly bufferId: string;
}

/** The outcome of `deliverInterrupt`: whether a connection holding the tenant received it. */
export interface InterruptDelivery {
  readonly delivered: boolean;
}

/**
 * The connector side of the relay: a WebSocket server that gateways dial. See {@link createRelayServer}.
 *
 * Every call of the inbound API works on any instance of a multi-instance connector: frames go to the
 * shared buffer first, and the bus wakes whichever instance holds the tenant's gateway socket.
 */
export class RelayServer extends EventEmitter<RelayServerEvents> {
  /** This instance's id on the bus. */
  readonly instanceId: string;
  readonly #options: ResolvedServerOptions;
  readonly #source: RelayServerOptions;
  readonly #stores: ServerStores;
  readonly #httpServer: HttpServer;
  readonly #ownsHttpServer: boolean;
  readonly #wss: WebSocketServer;
  readonly #connections = new Map<WebSocket, GatewayConnection>();
  readonly #recentChats = new RecentChats();
  /** Per tenant, the `buffered` wake-up being published and whether appends since need another. */
  readonly #wakeUps = new Map<string, { running: Promise<void>; next: Promise<void> | undefined }>();
  readonly #host: ConnectionHost;
  readonly #onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) =>
    this.#upgrade(request, socket, head);
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #sequence = 0;
  #closing: Promise<void> | undefined;

  /** Use {@link createRelayServer}, which also starts listening. */
  constructor(options: RelayServerOptions) {
    super();
    this.#options = resolveServerOptions(options);
    this.#source = options;
    this.instanceId = this.#options.instanceId;
    this.#stores = serverStores(options, this.#options.now);
    this.#ownsHttpServer = options.server === undefined;
    this.#httpServer = options.server ?? createServer((_request, response) => response.writeHead(404).end());
    this.#wss = new WebSocketServer({ noServer: true, maxPayload: this.#options.maxPayload });
    this.#host = this.#connectionHost();
    this.#httpServer.on('upgrade', this.#onUpgrade);
  }

  /** The address the server listens on (of the attached server when one was given). */
  address(): AddressInfo {
    const address = this.#httpServer.address();
    if (address === null || typeof address === 'string') {
      throw new RelayError('relay_server_invalid_input', 'the relay server is not listening on a TCP port', {
        path: 'address',
      });
    }
    return address;
  }

  /** The TCP port, e.g. the one picked for `port: 0`. */
  get port(): number {
    return this.address().port;
  }

  /** The live gateway connections of this instance, with their send backlog in bytes. */
  get connections(): readonly (GatewayConnectionInfo & { readonly bufferedAmount: number })[] {
    return [...this.#connections.values()].map(({ connectionId, gatewayId, tenant, bufferedAmount }) => ({
      connectionId,
      gatewayId,
      tenant,
      bufferedAmount,
    }));
  }

  /** Starts listening (when the server owns its HTTP server) and the ping timer. */
  async start(): Promise<void> {
    const listen = this.#options.listen;
    if (listen !== undefined && !this.#httpServer.listening) {
      await new Promise<void>((resolve, reject) => {
        this.#httpServer.once('error', reject);
        this.#httpServer.listen(listen.port, listen.host, () => {
          this.#httpServer.off('error', reject);
          resolve();
        });
      });
    }
    const interval = this.#options.pingIntervalMs;
    if (interval > 0 && this.#heartbeat === undefined) {
      this.#heartbeat = setInterval(() => {
        for (const connection of this.#connections.values()) connection.heartbeat();
      }, interval);
      this.#heartbeat.unref();
    }
  }

  /**
   * Queues a `MessageEvent` (the gateway view, or a wire `event` object as `createMessageEvent`
   * builds it) for the tenant's gateway. It is stored in the buffer first; the promise resolves once
   * it is, and the instance holding the gateway's socket sends it as an `inbound` frame with its
   * `bufferId` until the gateway acks it — now, or on the next connection.
   *
   * @throws {RelayError} `relay_server_invalid_input`: a missing tenant or an event the gateway could not
   * read.
   * @throws {RelayError} `relay_server_closed`: after `close()`.
   */
  async deliverInbound(tenant: string, event: MessageEvent | MessageEventWire): Promise<BufferedDelivery> {
    this.#assertOpen('deliverInbound');
    checkTenant(tenant);
    const frame = inboundFrame(event);
    if (frame.type === 'inbound') this.#recentChats.remember(tenant, frame.event['source']);
    return this.#buffered(tenant, frame);
  }

  /**
   * Queues a `passthrough_forward` (a provider webhook already answered at the edge) for the tenant's
   * gateway, buffered like {@link deliverInbound}. `bodyB64` must be standard base64 with padding.
   *
   * @throws {RelayError} `relay_server_invalid_input`: a missing tenant or a forward the gateway could not
   * read.
   * @throws {RelayError} `relay_server_closed`: after `close()`.
   */
  async forwardPassthrough(tenant: string, forward: PassthroughForwardInput): Promise<BufferedDelivery> {
    this.#assertOpen('forwardPassthrough');
    checkTenant(tenant);
    return this.#buffered(tenant, passthroughFrame(forward));
  }

  /**
   * Sends an `interrupt_inbound` (stop the running turn of `sessionKey`, the key without profile, and
   * clear typing in `chatId`) to the tenant's gateway through the bus. Not buffered: `delivered` is
   * `false` when no active connection holds the tenant.
   *
   * @throws {RelayError} `relay_server_invalid_input`: a missing tenant or a non-string key.
   * @throws {RelayError} `relay_server_closed`: after `close()`.
   */
  async deliverInterrupt(tenant: string, sessionKey: string, chatId: string): Promise<InterruptDelivery> {
    this.#assertOpen('deliverInterrupt');
    checkTenant(tenant);
    if (typeof sessionKey !== 'string' || typeof chatId !== 'string') {
      throw new RelayError('relay_server_invalid_input', 'sessionKey and chatId must be strings', {
        path: 'sessionKey',
      });
    }
    const message: RelayBusMessage = { type: 'interrupt_inbound', session_key: sessionKey, chat_id: chatId };
    return { delivered: (await this.#stores.bus.publish(tenant, message)) > 0 };
  }

  /**
   * Binds a `follow_up` credential in the vault (see `CapabilityVault.bind`): the gateway's
   * `follow_up` for `(session_key, kind)` then reaches the adapter with it — for this tenant only.
   */
  async bindCapability(binding: CapabilityBinding): Promise<void> {
    this.#assertOpen('bindCapability');
    await this.#stores.vault.bind(binding);
  }

  /**
   * Closes this instance's sockets of `gatewayId` with 4401 `unauthorized` (make `authenticate` refuse
   * the id first, or the gateway dials straight back in). Returns how many sockets it closed.
   */
  revoke(gatewayId: string): number {
    return this.#closeGateway(gatewayId, RELAY_CLOSE_UNAUTHORIZED, RELAY_CLOSE_REASON_UNAUTHORIZED);
  }

  /**
   * Closes this instance's sockets of `gatewayId` with 1000 and `reason` (at most 123 bytes of UTF-8).
   * The gateway dials again (any instance, with backoff) and gets every unacknowledged entry replayed:
   * use it to move a gateway to another instance, or to make it authenticate again after a rotation.
   * Returns how many sockets it closed. To keep a gateway out, use {@link revoke}.
   *
   * @throws {RelayError} `relay_server_invalid_input`: a gateway id or reason that is not a string, or a
   * reason too long for a close frame.
   */
  disconnect(gatewayId: string, reason = 'disconnected by the connector'): number {
    if (typeof gatewayId !== 'string') {
      throw new RelayError('relay_server_invalid_input', 'gatewayId must be a string', { path: 'gatewayId' });
    }
    if (typeof reason !== 'string' || Buffer.byteLength(reason, 'utf8') > 123) {
      throw new RelayError(
        'relay_server_invalid_input',
        'reason must be a string of at most 123 bytes of UTF-8 (what a close frame carries)',
        { path: 'reason' },
      );
    }
    return this.#closeGateway(gatewayId, 1000, reason);
  }

  /** Closes this instance's sockets of `gatewayId` with `code` and `reason`; how many it closed. */
  #closeGateway(gatewayId: string, code: number, reason: string): number {
    let closed = 0;
    for (const connection of this.#connections.values()) {
      if (connection.gatewayId !== gatewayId) continue;
      connection.close(code, reason);
      closed += 1;
    }
    return closed;
  }

  /**
   * Stops accepting gateways, closes every socket with 1001, drops the bus subscriptions, and closes
   * the HTTP server it created and the stores it created. Buffered entries stay in a given buffer for
   * the next instance. Idempotent.
   */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    clearInterval(this.#heartbeat);
    this.#httpServer.off('upgrade', this.#onUpgrade);
    const sockets = [...this.#connections.keys()];
    const allClosed = Promise.all(
      sockets.map(
        (ws) =>
          new Promise<void>((resolve) =>
            ws.readyState === ws.CLOSED ? resolve() : ws.once('close', () => resolve()),
          ),
      ),
    );
    for (const connection of this.#connections.values()) connection.close(1001, 'server closing');
    await allClosed;
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
    if (this.#ownsHttpServer && this.#httpServer.listening) {
      await new Promise<void>((resolve) => {
        this.#httpServer.close(() => resolve());
        this.#httpServer.closeAllConnections();
      });
    }
    for (const store of this.#stores.owned) await store.close();
  }

  #assertOpen(operation: string): void {
    if (this.#closing !== undefined)
      throw new RelayError('relay_server_closed', `relay server is closed (${operation})`);
  }

  async #buffered(
    tenant: string,
    frame: Parameters<ServerStores['buffer']['append']>[1],
  ): Promise<BufferedDelivery> {
    const bufferId = await this.#stores.buffer.append(tenant, frame);
    await this.#wakeUp(tenant);
    return { bufferId };
  }

  /**
   * Publishes `buffered` for the tenant, after every append that resolved before: when a wake-up is
   * already being published, one more follows it for all the appends made meanwhile (a burst of appends
   * costs two publishes, not one each). A lost wake-up is harmless: the next handshake or append
   * replays the entry.
   */
  #wakeUp(tenant: string): Promise<void> {
    const pending = this.#wakeUps.get(tenant);
    if (pending !== undefined) {
      pending.next ??= pending.running.then(() => this.#publishWakeUp(tenant));
      return pending.next;
    }
    return this.#publishWakeUp(tenant);
  }

  #publishWakeUp(tenant: string): Promise<void> {
    const state = { running: Promise.resolve(), next: undefined as Promise<void> | undefined };
    state.running = this.#stores.bus.publish(tenant, { type: 'buffered' }).then(
      () => undefined,
      (error: unknown) => {
        try {
          this.#fail(callbackError('bus.publish', error));
        } catch {
          // A throwing error listener must not stop the tenant's later wake-ups.
        }
      },
    );
    this.#wakeUps.set(tenant, state);
    void state.running.then(() => {
      if (this.#wakeUps.get(tenant) === state && state.next === undefined) this.#wakeUps.delete(tenant);
    });
    return state.running;
  }

  #upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (requestPath(request) !== this.#options.path) {
      // Another listener of an attached server may serve this path.
      if (!this.#ownsHttpServer && this.#httpServer.listenerCount('upgrade') > 1) return;
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    socket.on('error', () => socket.destroy());
    authenticateUpgrade(request.headers.authorization, {
      authenticate: this.#source.authenticate,
      nowSeconds: Math.floor(this.#options.now() / 1000),
      skewSeconds: this.#options.tokenSkewSeconds,
    }).then(
      (result) => this.#complete(request, socket, head, result),
      (error: unknown) => {
        this.#fail(error instanceof Error ? error : callbackError('authenticate', error));
        this.#complete(request, socket, head, undefined);
      },
    );
  }

  /** Completes the upgrade: refused sockets are closed right after it (the gateway reads the close code). */
  #complete(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    result: UpgradeAccepted | UpgradeRefused | undefined,
  ): void {
    if (socket.destroyed) return;
    this.#wss.handleUpgrade(request, socket, head, (ws) => {
      if (result === undefined) ws.close(1011, 'authentication unavailable');
      else if (!result.ok) {
        ws.close(RELAY_CLOSE_UNAUTHORIZED, result.reason);
        this.emit('rejected', { reason: result.reason, detail: result.detail });
      } else if (this.#closing !== undefined) ws.close(1001, 'server closing');
      else this.#accept(ws, result);
    });
  }

  #accept(ws: WebSocket, accepted: UpgradeAccepted): void {
    this.#sequence += 1;
    const info: GatewayConnectionInfo = {
      connectionId: newConnectionId(this.instanceId, this.#options.now(), this.#sequence),
      gatewayId: accepted.gatewayId,
      tenant: accepted.tenant,
    };
    const connection = new GatewayConnection(ws, info, this.#host);
    this.#connections.set(ws, connection);
    ws.on('error', (error) => this.#warn(error));
    ws.once('close', (code, reason) => {
      this.#connections.delete(ws);
      connection.closed();
      // A dropped socket closes without the peer's close frame: report the code the server closed with.
      const dropped = connection.dropped;
      this.emit(
        'disconnect',
        dropped === undefined
          ? { ...info, code, reason: reason.toString('utf8') }
          : { ...info, code: RELAY_CLOSE_PEER_LIMIT, reason: dropped },
      );
    });
    this.emit('connection', info);
  }

  #connectionHost(): ConnectionHost {
    const { bus, buffer, vault } = this.#stores;
    return {
      options: this.#options,
      buffer,
      vault,
      recentChats: this.#recentChats,
      subscribe: (tenant, listener): Promise<RelayBusSubscription> => bus.subscribe(tenant, listener),
      publishTakeover: async (connection) => {
        await bus.publish(connection.tenant, {
          type: 'takeover',
          instanceId: this.instanceId,
          connectionId: connection.connectionId,
        });
      },
      activated: (connection) => {
        const identity = connection.identities[0];
        if (identity === undefined) return;
        const { connectionId, gatewayId, tenant } = connection;
        this.emit('session', {
          connectionId,
          gatewayId,
          tenant,
          platform: identity.platform,
          botId: identity.botId,
        });
      },
      backpressure: ({ connectionId, gatewayId, tenant }, bufferedAmount) =>
        this.emit('backpressure', { connectionId, gatewayId, tenant, bufferedAmount }),
      warn: (error) => this.#warn(error),
      fail: (error) => this.#fail(error),
    };
  }

  #warn(error: Error): void {
    if (this.listenerCount('warning') > 0) this.emit('warning', error);
    else this.#source.logger?.warn(error.message, { error });
  }

  #fail(error: Error): void {
    if (this.listenerCount('error') > 0) this.emit('error', error);
    else this.#source.logger?.error(error.message, { error });
  }
}

/**
 * Creates the connector-side relay server and starts it: it listens on `port`/`host` (or attaches to
 * `server`), authenticates each `/relay` upgrade with the gateway's bearer token, answers every
 * `hello` with its platform's descriptor, executes `outbound` actions on the platform adapters, and
 * delivers buffered inbound frames to whichever gateway holds the tenant.
 *
 * @throws {RelayError} `relay_server_invalid_option`: an unusable option (an adapter descriptor the gateway
 * would choke on …).
 * @example
 * ```ts
 * import { createRelayServer } from '@agentwire/relay/server';
 *
 * const server = await createRelayServer({
 *   port: 8080,
 *   host: '0.0.0.0',
 *   authenticate: async (gatewayId) => store.gateway(gatewayId), // { tenant, secrets } | null
 *   platforms: { discord: discordAdapter },
 * });
 * server.on('error', (error) => log.error(error));
 * await server.deliverInbound('tenant-a', createMessageEvent({ text: 'hi', source: { … } }));
 * ```
 */
export async function createRelayServer(options: RelayServerOptions): Promise<RelayServer> {
  const server = new RelayServer(options);
  try {
    await server.start();
  } catch (error) {
    await server.close();
    throw error;
  }
  return server;
}

function requestPath(request: IncomingMessage): string {
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

function checkTenant(tenant: unknown): asserts tenant is string {
  if (typeof tenant !== 'string' || tenant === '') {
    throw new RelayError('relay_server_invalid_input', 'tenant must be a non-empty string', {
      path: 'tenant',
    });
  }
}
