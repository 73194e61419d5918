import type { Server as HttpServer } from 'node:http';
import type { InboundBuffer } from '../buffer/index.js';
import type { RelayBus } from '../bus/index.js';
import { DEFAULT_FLOW_BOUNDS } from '../internal/bounded-socket.js';
import { DEFAULT_MAX_LINE_BYTES } from '../ndjson/index.js';
import type { CapabilityVault } from '../vault/index.js';
import type { PlatformAdapter } from './platform-adapter.js';

/** What `authenticate` returns for a known gateway id: its tenant and its secret rotation list. */
export interface GatewayCredentials {
  /** The tenant the gateway acts for; every frame of the connection is scoped to it. */
  readonly tenant: string;
  /** The verify list, primary first; empty strings are skipped. */
  readonly secrets: readonly string[];
}

/** Where the server writes what it cannot report to an `error` listener. */
export interface RelayServerLogger {
  warn(message: string, details?: Readonly<Record<string, unknown>>): void;
  error(message: string, details?: Readonly<Record<string, unknown>>): void;
}

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
