import { randomUUID } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import { DEFAULT_FLOW_BOUNDS } from '../bounded-socket.js';
import { type InboundBuffer, InMemoryInboundBuffer } from '../buffer.js';
import { InMemoryRelayBus, type RelayBus } from '../bus.js';
import { createDescriptor, DESCRIPTOR_ERROR_CODES, type StrictCapabilityDescriptor } from '../descriptor.js';
import { RelayError } from '../errors.js';
import { OUTBOUND_OPS, type OutboundOp } from '../frames/actions.js';
import { DEFAULT_MAX_LINE_BYTES } from '../ndjson.js';
import { type CapabilityVault, InMemoryCapabilityVault } from '../vault.js';
import type { GatewayCredentials, PlatformAdapter } from './platform-adapter.js';

/** Where the server writes what it cannot report to an `error` listener. */
export interface RelayServerLogger {
  warn(message: string, details?: Readonly<Record<string, unknown>>): void;
  error(message: string, details?: Readonly<Record<string, unknown>>): void;
}

/** What a {@link ChatRouter} is told about the frame it routes. */
export interface ChatRouteContext {
  readonly tenant: string;
  readonly gatewayId: string;
  readonly op: OutboundOp;
  /** The `(platform, botId)` identities the connection announced, in hello order. */
  readonly identities: readonly { readonly platform: string; readonly botId: string }[];
}

/** Where a {@link ChatRouter} sends a frame: a platform name, or a platform and one of its bot ids. */
export type ChatRoute = string | { readonly platform: string; readonly botId?: string };

/** The connector's rule for outbound frames without a platform (the `routeChat` option). */
export type ChatRouter = (
  chatId: string,
  context: ChatRouteContext,
) => ChatRoute | undefined | Promise<ChatRoute | undefined>;

/** Options of `createRelayServer`. */
export interface RelayServerOptions {
  /** Port to listen on when no `server` is given; `0` (the default) picks a free one (see `port`). */
  readonly port?: number;
  /**
   * Interface to listen on when no `server` is given. Default `'127.0.0.1'` (loopback only, safe in
   * development); pass `'0.0.0.0'` or `'::'` to accept gateways from other hosts.
   */
  readonly host?: string;
  /**
   * An HTTP(S) server to attach to instead of listening: the relay answers upgrades on `path` and
   * leaves other paths to the server's other `upgrade` listeners (or answers 404 when there are none).
   * The server is not closed by `close()`.
   */
  readonly server?: HttpServer;
  /** The upgrade path. Default `'/relay'` (what the gateway dials). */
  readonly path?: string;
  /**
   * Looks up a gateway by the id its bearer token names (read before verifying): its tenant and
   * secret list, or `null` when the id is unknown or revoked. A throw closes the socket with 1011.
   */
  readonly authenticate: (
    gatewayId: string,
  ) => GatewayCredentials | null | Promise<GatewayCredentials | null>;
  /** The adapter of each platform a gateway may `hello`, by platform name (`discord`, `telegram` …). */
  readonly platforms: Readonly<Record<string, PlatformAdapter>>;
  /**
   * The key of `platforms` that answers a hello naming a platform without an adapter (such as the
   * gateway's generic `relay` identity). Without it such a hello is left unanswered and reported.
   */
  readonly fallbackPlatform?: string;
  /**
   * Picks the adapter of an outbound frame that names no platform: every `get_chat_info` (the gateway
   * never names one there) and any op for a chat the gateway has not seen inbound. Return one of the
   * platforms the connection announced in a hello (with `botId` when it announced several bots of it),
   * or `undefined` for the default: the platform of the chat's latest inbound event this server
   * delivered, else the connection's session default (its first hello). A platform the connection did
   * not announce, or a throw, answers the gateway `{ success: false }`; a throw is also reported as
   * `error`. Use it when several instances share the gateways: the default knows only this instance's
   * deliveries.
   */
  readonly routeChat?: ChatRouter;
  /** Routes inbound calls between connector instances. Default: an in-memory bus (one process). */
  readonly bus?: RelayBus;
  /** Holds unacknowledged inbound frames. Default: an in-memory buffer (one process). */
  readonly buffer?: InboundBuffer;
  /** Holds `follow_up` credentials. Default: an in-memory vault using `now`. */
  readonly vault?: CapabilityVault;
  /** This instance's id on the bus. Default: a random UUID. */
  readonly instanceId?: string;
  /**
   * Largest WebSocket message and NDJSON line accepted from a gateway, in bytes. Default 1 MiB (what
   * the gateway's own client accepts). A larger message closes the socket with 1009.
   */
  readonly maxPayload?: number;
  /** How long an adapter call may run before the gateway is answered with a failure. Default 25 000 (the gateway waits 30 000). */
  readonly outboundTimeoutMs?: number;
  /** Interval of WebSocket pings; a socket that has not answered the previous ping is terminated. Default 30 000; 0 disables. */
  readonly pingIntervalMs?: number;
  /**
   * Per-connection send backlog (bytes not yet handed to the OS) above which buffered replay waits and
   * the server stops reading from the gateway until the backlog drains. Default 1 MiB.
   */
  readonly maxBufferedAmount?: number;
  /**
   * Per-connection send backlog above which the connection is dropped at once (close 1008, reason
   * `send_backlog`): a gateway that sends but does not read. Default 16 MiB; at least `maxBufferedAmount`.
   */
  readonly dropBufferedAmount?: number;
  /**
   * How long the send backlog may stay above `maxBufferedAmount` before the connection is dropped
   * (close 1008, reason `drain_timeout`). Default 60 000: twice the 30 s the gateway's reader can stall
   * itself while it waits for a result inside a handler.
   */
  readonly drainTimeoutMs?: number;
  /**
   * Distinct `(platform, botId)` identities one connection may `hello`; one more drops it (close 1008,
   * reason `identities`). A repeated hello of a known identity is answered again and counts once. Default 64.
   */
  readonly maxIdentities?: number;
  /**
   * Outbound calls one connection may have running at once; an `outbound` frame past it is answered at
   * once with `{ success: false }` and never reaches an adapter. Default 256.
   */
  readonly maxRunningOutbound?: number;
  /** How many buffered entries one replay read fetches. Default 100. */
  readonly replayBatchSize?: number;
  /** Seconds a token stays acceptable past its expiry (clock skew). Default 0, as the gateway's reference verifier. */
  readonly tokenSkewSeconds?: number;
  /** The clock, in milliseconds since the epoch (token expiry, default vault TTLs). Default `Date.now`. */
  readonly now?: () => number;
  /** Receives errors and warnings when nobody listens to the server's `error` event. */
  readonly logger?: RelayServerLogger;
}

/** The defaults of {@link RelayServerOptions}. */
export const RELAY_SERVER_DEFAULTS = {
  host: '127.0.0.1',
  path: '/relay',
  maxPayload: DEFAULT_MAX_LINE_BYTES,
  outboundTimeoutMs: 25_000,
  pingIntervalMs: 30_000,
  ...DEFAULT_FLOW_BOUNDS,
  maxIdentities: 64,
  maxRunningOutbound: 256,
  replayBatchSize: 100,
  tokenSkewSeconds: 0,
} as const;

/** The ops `adapter` implements, in the contract's op order. */
export function implementedOps(adapter: PlatformAdapter): readonly OutboundOp[] {
  return OUTBOUND_OPS.filter((op) => typeof adapter[op] === 'function');
}

/**
 * The descriptor the server answers a hello for `name` with: the adapter's fields, checked with
 * `createDescriptor`, and `supported_ops` set to exactly the ops it implements. (An adapter that
 * implements none sends `[]`, which the gateway reads as the legacy four; each is then refused.)
 *
 * @throws {RelayError} `relay_server_invalid_option`: the adapter is not an object, or its fields would break
 * the gateway.
 */
export function platformDescriptor(name: string, adapter: PlatformAdapter): StrictCapabilityDescriptor {
  const path = `platforms.${name}`;
  if (adapter === null || typeof adapter !== 'object') {
    throw new RelayError('relay_server_invalid_option', `${path} must be a PlatformAdapter object`, { path });
  }
  const fields: unknown = adapter.descriptor;
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) {
    throw new RelayError('relay_server_invalid_option', `${path}.descriptor must be an object`, {
      path: `${path}.descriptor`,
    });
  }
  if (Object.hasOwn(fields, 'supported_ops')) {
    throw new RelayError(
      'relay_server_invalid_option',
      `${path}.descriptor must not set supported_ops: the server lists the ops the adapter implements`,
      { path: `${path}.descriptor.supported_ops` },
    );
  }
  try {
    return createDescriptor({ ...adapter.descriptor, supported_ops: implementedOps(adapter) });
  } catch (error) {
    if (!(error instanceof RelayError && DESCRIPTOR_ERROR_CODES.has(error.code))) throw error;
    throw new RelayError('relay_server_invalid_option', `${path}.descriptor: ${error.message}`, {
      path: `${path}.descriptor.${error.path}`,
      cause: error,
    });
  }
}

/** A platform the server can answer a hello for: its adapter and the descriptor it sends. */
export interface ServedPlatform {
  readonly name: string;
  readonly adapter: PlatformAdapter;
  readonly descriptor: StrictCapabilityDescriptor;
}

/** {@link RelayServerOptions} checked, with defaults filled and descriptors built. */
export interface ResolvedServerOptions {
  readonly listen: { readonly port: number; readonly host: string } | undefined;
  readonly path: string;
  readonly platforms: ReadonlyMap<string, ServedPlatform>;
  readonly fallbackPlatform: ServedPlatform | undefined;
  readonly routeChat: ChatRouter | undefined;
  readonly instanceId: string;
  readonly maxPayload: number;
  readonly outboundTimeoutMs: number;
  readonly pingIntervalMs: number;
  readonly maxBufferedAmount: number;
  readonly dropBufferedAmount: number;
  readonly drainTimeoutMs: number;
  readonly maxIdentities: number;
  readonly maxRunningOutbound: number;
  readonly replayBatchSize: number;
  readonly tokenSkewSeconds: number;
  readonly now: () => number;
}

/**
 * Checks the options of `createRelayServer` and fills the defaults.
 *
 * @throws {RelayError} `relay_server_invalid_option`: naming the first unusable option.
 */
export function resolveServerOptions(options: RelayServerOptions): ResolvedServerOptions {
  if (options === null || typeof options !== 'object') {
    throw new RelayError('relay_server_invalid_option', 'options must be an object');
  }
  if (typeof options.authenticate !== 'function') {
    throw new RelayError('relay_server_invalid_option', 'authenticate must be a function', {
      path: 'authenticate',
    });
  }
  if (options.server !== undefined && (options.port !== undefined || options.host !== undefined)) {
    throw new RelayError('relay_server_invalid_option', 'pass either server or port/host, not both', {
      path: 'server',
    });
  }
  const path = options.path ?? RELAY_SERVER_DEFAULTS.path;
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new RelayError('relay_server_invalid_option', 'path must be a string starting with "/"', {
      path: 'path',
    });
  }
  const platforms = resolvePlatforms(options.platforms);
  const fallbackName = options.fallbackPlatform;
  const fallbackPlatform = fallbackName === undefined ? undefined : platforms.get(fallbackName);
  if (fallbackName !== undefined && fallbackPlatform === undefined) {
    throw new RelayError('relay_server_invalid_option', 'fallbackPlatform must name a key of platforms', {
      path: 'fallbackPlatform',
    });
  }
  if (options.routeChat !== undefined && typeof options.routeChat !== 'function') {
    throw new RelayError('relay_server_invalid_option', 'routeChat must be a function', {
      path: 'routeChat',
    });
  }
  const instanceId = options.instanceId ?? randomUUID();
  if (typeof instanceId !== 'string' || instanceId === '') {
    throw new RelayError('relay_server_invalid_option', 'instanceId must be a non-empty string', {
      path: 'instanceId',
    });
  }
  const now = options.now ?? Date.now;
  if (typeof now !== 'function')
    throw new RelayError('relay_server_invalid_option', 'now must be a function', { path: 'now' });
  const maxBufferedAmount = integer(
    options.maxBufferedAmount,
    RELAY_SERVER_DEFAULTS.maxBufferedAmount,
    'maxBufferedAmount',
    0,
  );
  return {
    listen:
      options.server === undefined
        ? {
            port: integer(options.port, 0, 'port', 0, 65_535),
            host: nonEmptyString(options.host, RELAY_SERVER_DEFAULTS.host, 'host'),
          }
        : undefined,
    path,
    platforms,
    fallbackPlatform,
    routeChat: options.routeChat,
    instanceId,
    maxPayload: integer(options.maxPayload, RELAY_SERVER_DEFAULTS.maxPayload, 'maxPayload', 1),
    outboundTimeoutMs: integer(
      options.outboundTimeoutMs,
      RELAY_SERVER_DEFAULTS.outboundTimeoutMs,
      'outboundTimeoutMs',
      1,
    ),
    pingIntervalMs: integer(
      options.pingIntervalMs,
      RELAY_SERVER_DEFAULTS.pingIntervalMs,
      'pingIntervalMs',
      0,
    ),
    maxBufferedAmount,
    dropBufferedAmount: integer(
      options.dropBufferedAmount,
      Math.max(RELAY_SERVER_DEFAULTS.dropBufferedAmount, maxBufferedAmount),
      'dropBufferedAmount',
      maxBufferedAmount,
    ),
    drainTimeoutMs: integer(
      options.drainTimeoutMs,
      RELAY_SERVER_DEFAULTS.drainTimeoutMs,
      'drainTimeoutMs',
      1,
    ),
    maxIdentities: integer(options.maxIdentities, RELAY_SERVER_DEFAULTS.maxIdentities, 'maxIdentities', 1),
    maxRunningOutbound: integer(
      options.maxRunningOutbound,
      RELAY_SERVER_DEFAULTS.maxRunningOutbound,
      'maxRunningOutbound',
      1,
    ),
    replayBatchSize: integer(
      options.replayBatchSize,
      RELAY_SERVER_DEFAULTS.replayBatchSize,
      'replayBatchSize',
      1,
    ),
    tokenSkewSeconds: integer(
      options.tokenSkewSeconds,
      RELAY_SERVER_DEFAULTS.tokenSkewSeconds,
      'tokenSkewSeconds',
      0,
    ),
    now,
  };
}

function resolvePlatforms(
  platforms: RelayServerOptions['platforms'] | undefined,
): ReadonlyMap<string, ServedPlatform> {
  if (platforms === null || typeof platforms !== 'object' || Array.isArray(platforms)) {
    throw new RelayError(
      'relay_server_invalid_option',
      'platforms must be an object of PlatformAdapters by name',
      { path: 'platforms' },
    );
  }
  const served = new Map<string, ServedPlatform>();
  for (const [name, adapter] of Object.entries(platforms)) {
    served.set(name, { name, adapter, descriptor: platformDescriptor(name, adapter) });
  }
  if (served.size === 0)
    throw new RelayError('relay_server_invalid_option', 'platforms must name at least one platform', {
      path: 'platforms',
    });
  return served;
}

function integer(
  value: unknown,
  fallback: number,
  path: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new RelayError('relay_server_invalid_option', `${path} must be an integer from ${min} to ${max}`, {
      path,
    });
  }
  return value;
}

function nonEmptyString(value: unknown, fallback: string, path: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value === '') {
    throw new RelayError('relay_server_invalid_option', `${path} must be a non-empty string`, { path });
  }
  return value;
}

/** The bus, buffer and vault a server uses, and which of them it created (and closes with itself). */
export interface ServerStores {
  readonly bus: RelayBus;
  readonly buffer: InboundBuffer;
  readonly vault: CapabilityVault;
  /** The stores the server created; `close()` closes these and leaves the given ones open. */
  readonly owned: readonly { close(): Promise<void> }[];
}

/** The given stores, with in-memory ones (single process) for those not given. */
export function serverStores(
  given: { readonly bus?: RelayBus; readonly buffer?: InboundBuffer; readonly vault?: CapabilityVault },
  now: () => number,
): ServerStores {
  const owned: { close(): Promise<void> }[] = [];
  const own = <T extends { close(): Promise<void> }>(store: T): T => {
    owned.push(store);
    return store;
  };
  return {
    bus: given.bus ?? own(new InMemoryRelayBus()),
    buffer: given.buffer ?? own(new InMemoryInboundBuffer()),
    vault: given.vault ?? own(new InMemoryCapabilityVault({ now })),
    owned,
  };
}

/**
 * Connection ids sort by when the connection was accepted: `<ms, base 36, 9 digits>-<sequence, base 36,
 * 7 digits>-<instance id>`. A `takeover` from a connection whose id sorts before this one's is stale
 * (it lost a race with this newer one) and is ignored; ordering across instances relies on their clocks.
 */
const ORDER_PREFIX = /^[0-9a-z]{9}-[0-9a-z]{7}-/;

/** A new connection id for `instanceId`, accepted at `nowMs`, the `sequence`-th of this instance. */
export function newConnectionId(instanceId: string, nowMs: number, sequence: number): string {
  const time = Math.max(0, Math.floor(nowMs)).toString(36).padStart(9, '0');
  return `${time}-${sequence.toString(36).padStart(7, '0')}-${instanceId}`;
}

/**
 * Whether the connection `other` was accepted before `mine`: `false` when `other` is newer or is not
 * an id in this form (a takeover that cannot be ordered wins).
 */
export function acceptedBefore(other: string, mine: string): boolean {
  if (!ORDER_PREFIX.test(other) || !ORDER_PREFIX.test(mine)) return false;
  return other.slice(0, 17) < mine.slice(0, 17);
}
