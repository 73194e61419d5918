import type { ClientOptions } from 'ws';
import { RELAY_CLOSE_REASON_EXPIRED, RELAY_CLOSE_UNAUTHORIZED, relayUpgradeHeaders } from '../auth.js';
import { DEFAULT_FLOW_BOUNDS, type SendBounds } from '../bounded-socket.js';
import type { CapabilityDescriptor } from '../descriptor.js';
import { RelayError } from '../errors.js';
import {
  GOING_IDLE_ACK_TIMEOUT_MS,
  HANDSHAKE_TIMEOUT_MS,
  type HelloFrame,
  OUTBOUND_RESULT_TIMEOUT_MS,
} from '../frames/frames.js';
import { encodeFrame } from '../ndjson.js';
import { deriveRelayUrls } from '../passthrough.js';
import { newRequestId, type RelayTransportError } from '../transport.js';
import { DEFAULT_PING_INTERVAL_MS, DEFAULT_PING_TIMEOUT_MS } from './client-connection.js';

/** Delays between re-dials, in milliseconds. */
export interface ReconnectBackoffOptions {
  /** The first delay; default 1 000 ms, as the gateway. */
  readonly initialMs?: number;
  /** The longest delay; default 30 000 ms, as the gateway. */
  readonly maxMs?: number;
}

/** The gateway's first re-dial delay. */
export const DEFAULT_BACKOFF_INITIAL_MS = 1_000;
/** The gateway's longest re-dial delay. */
export const DEFAULT_BACKOFF_MAX_MS = 30_000;

/**
 * The gateway's re-dial schedule: the first delay, then twice the previous one, capped at the
 * longest; {@link reset} (after a successful handshake) starts over.
 *
 * @example
 * const backoff = new ReconnectBackoff({ initialMs: 1000, maxMs: 30000 });
 * [1, 2, 3, 4, 5, 6, 7].map(() => backoff.next()); // [1000, 2000, 4000, 8000, 16000, 30000, 30000]
 */
export class ReconnectBackoff {
  readonly #initialMs: number;
  readonly #maxMs: number;
  #nextMs: number;

  /** Options are taken as given; `WebSocketRelayTransport` checks them first. */
  constructor(options: Required<ReconnectBackoffOptions>) {
    this.#initialMs = options.initialMs;
    this.#maxMs = options.maxMs;
    this.#nextMs = options.initialMs;
  }

  /** The delay before the next re-dial; each call doubles the following one up to the cap. */
  next(): number {
    const delay = this.#nextMs;
    this.#nextMs = Math.min(delay * 2, this.#maxMs);
    return delay;
  }

  /** Starts the schedule over from the first delay. */
  reset(): void {
    this.#nextMs = this.#initialMs;
  }
}

/** One identity the gateway fronts: the fields of its `hello` frame (`command_manifest` for Discord). */
export type RelayHelloIdentity = Omit<HelloFrame, 'type'>;

/** Options of `WebSocketRelayTransport`. Only `url` is required; the defaults are the gateway's. */
export interface WebSocketRelayTransportOptions {
  /**
   * The connector's base URL (`GATEWAY_RELAY_URL`). The dial URL is derived as the gateway derives
   * it (`deriveRelayUrls(url).webSocket`): white space and trailing `/` dropped, `https://` → `wss://`,
   * `http://` → `ws://`, `/relay` appended once.
   */
  readonly url: string;
  /** The gateway id (`GATEWAY_RELAY_ID`): the payload of the upgrade token. */
  readonly gatewayId?: string | undefined;
  /**
   * The shared secret (`GATEWAY_RELAY_SECRET`). With a non-empty `gatewayId` and `secret` every dial
   * carries `Authorization: Bearer <token>` with a freshly minted 300-second token; without them the
   * upgrade is unauthenticated (an enforcing connector refuses it with 4401).
   */
  readonly secret?: string | undefined;
  /** One `hello` each, in order; the first is the session default. Default `[{ platform: 'relay', botId: '' }]`. */
  readonly identities?: readonly RelayHelloIdentity[];
  /** How long `handshake()` waits for the first descriptor; default 30 000 ms. */
  readonly handshakeTimeoutMs?: number;
  /** How long an outbound request waits for its `outbound_result`; default 30 000 ms. */
  readonly outboundTimeoutMs?: number;
  /** How long `goIdle()` waits for `going_idle_ack` when not told; default 10 000 ms. */
  readonly goingIdleTimeoutMs?: number;
  /**
   * WebSocket keepalive, as newer gateways run it: a ping every `pingIntervalMs` (default 30 000; `0`
   * turns pings off) and the connection dropped — then re-dialled — when a pong is `pingTimeoutMs`
   * overdue (default 60 000).
   */
  readonly pingIntervalMs?: number;
  /** See {@link pingIntervalMs}. */
  readonly pingTimeoutMs?: number;
  /**
   * Re-dial after an unexpected close or a failed dial, with {@link backoff}, until `disconnect()` or
   * a revocation. Default `true`, as in production.
   */
  readonly reconnect?: boolean;
  /** The re-dial delays: 1 000 ms doubling to 30 000 ms by default; reset after each handshake. */
  readonly backoff?: ReconnectBackoffOptions;
  /**
   * Ack a buffered `passthrough_forward` (`inbound_ack`) after its handler resolves, as newer
   * gateways do once the interaction settled. Default `false`: the baseline gateway never acks them.
   */
  readonly ackPassthrough?: boolean;
  /** The clock the upgrade token is minted with, in milliseconds like `Date.now` (the default). */
  readonly clock?: () => number;
  /** Makes each outbound `requestId`; default 32 lowercase hex digits (`uuid4().hex`). */
  readonly newRequestId?: () => string;
  /**
   * Send backlog (bytes written and not yet handed to the OS) above which the transport stops reading
   * from the connector until the backlog drains. Default 1 MiB.
   */
  readonly maxBufferedAmount?: number;
  /**
   * Send backlog above which the connection is dropped at once (close 1008, reason `send_backlog`, a
   * `RelayError` `peer_limit` on the `error` event; then re-dialled): a connector that does not read. Default
   * 16 MiB; at least `maxBufferedAmount`.
   */
  readonly dropBufferedAmount?: number;
  /**
   * How long the send backlog may stay above `maxBufferedAmount` before the connection is dropped
   * (close 1008, reason `drain_timeout`). Default 60 000.
   */
  readonly drainTimeoutMs?: number;
  /**
   * Inbound, interrupt and passthrough frames that may wait for their handler; past it the transport
   * stops reading from the connector until the handlers catch up. Default 1 000.
   */
  readonly maxQueuedFrames?: number;
  /**
   * Passed to the `ws` client on every dial (`maxPayload`, `handshakeTimeout`, `agent`, TLS options
   * …). Extra `headers` are sent too; `Authorization` is always the transport's own. `maxPayload`
   * defaults to 1 MiB (the gateway's `websockets` limit) instead of `ws`'s 100 MiB.
   */
  readonly webSocketOptions?: ClientOptions;
}

/** The defaults of the flow-control options of `WebSocketRelayTransport`. */
export const RELAY_CLIENT_FLOW_DEFAULTS = {
  ...DEFAULT_FLOW_BOUNDS,
  maxQueuedFrames: 1_000,
} as const;

/** The options after checking, with every default filled in. */
export interface ResolvedClientOptions {
  readonly dialUrl: string;
  readonly identities: readonly RelayHelloIdentity[];
  /** Each identity's `hello`, encoded once (Python `json.dumps` bytes plus `\n`). */
  readonly helloLines: readonly string[];
  readonly handshakeTimeoutMs: number;
  readonly outboundTimeoutMs: number;
  readonly goingIdleTimeoutMs: number;
  /** `0`: no keepalive pings. */
  readonly pingIntervalMs: number;
  readonly pingTimeoutMs: number;
  readonly reconnect: boolean;
  readonly backoff: Required<ReconnectBackoffOptions>;
  readonly ackPassthrough: boolean;
  readonly newRequestId: () => string;
  /** The headers of one dial: the `webSocketOptions` headers plus a fresh bearer token when configured. */
  readonly upgradeHeaders: () => Record<string, string>;
  readonly webSocketOptions: ClientOptions;
  readonly sendBounds: SendBounds;
  readonly maxQueuedFrames: number;
}

const DEFAULT_IDENTITIES: readonly RelayHelloIdentity[] = [{ platform: 'relay', botId: '' }];

/**
 * Checks `options` and fills in the defaults; throws a `RelayError` `invalid_client_options` on unusable
 * ones.
 */
export function resolveClientOptions(options: WebSocketRelayTransportOptions): ResolvedClientOptions {
  if (options === null || typeof options !== 'object') {
    throw new RelayError('invalid_client_options', 'options must be an object');
  }
  const dialUrl = wrapped('url', () => deriveRelayUrls(options.url).webSocket);
  if (!/^wss?:\/\/[^/]/.test(dialUrl) || !URL.canParse(dialUrl)) {
    throw new RelayError(
      'invalid_client_options',
      `url must be an http(s):// or ws(s):// URL with a host, got ${JSON.stringify(options.url)}`,
      { path: 'url' },
    );
  }
  const identities = options.identities ?? DEFAULT_IDENTITIES;
  if (!Array.isArray(identities) || identities.length === 0) {
    throw new RelayError('invalid_client_options', 'identities must be a non-empty array', {
      path: 'identities',
    });
  }
  const helloLines = identities.map((identity, i) =>
    wrapped(`identities[${i}]`, () => encodeFrame({ ...identity, type: 'hello' }, { style: 'python' })),
  );
  const backoff = {
    initialMs: positiveMs(options.backoff?.initialMs, DEFAULT_BACKOFF_INITIAL_MS, 'backoff.initialMs'),
    maxMs: positiveMs(options.backoff?.maxMs, DEFAULT_BACKOFF_MAX_MS, 'backoff.maxMs'),
  };
  if (backoff.maxMs < backoff.initialMs) {
    throw new RelayError('invalid_client_options', 'backoff.maxMs must not be below backoff.initialMs', {
      path: 'backoff.maxMs',
    });
  }
  const clock = options.clock ?? Date.now;
  const webSocketOptions = options.webSocketOptions ?? {};
  const upgradeHeaders = (): Record<string, string> => ({
    ...webSocketOptions.headers,
    ...relayUpgradeHeaders(options.gatewayId, options.secret, { now: clock() / 1000 }),
  });
  // Minting once here reports an unusable gateway id, secret or clock now rather than on a dial.
  wrapped('secret', upgradeHeaders);
  const pauseAbove = count(
    options.maxBufferedAmount,
    RELAY_CLIENT_FLOW_DEFAULTS.maxBufferedAmount,
    'maxBufferedAmount',
    0,
  );
  const sendBounds: SendBounds = {
    pauseAbove,
    dropAbove: count(
      options.dropBufferedAmount,
      Math.max(RELAY_CLIENT_FLOW_DEFAULTS.dropBufferedAmount, pauseAbove),
      'dropBufferedAmount',
      pauseAbove,
    ),
    drainTimeoutMs: positiveMs(
      options.drainTimeoutMs,
      RELAY_CLIENT_FLOW_DEFAULTS.drainTimeoutMs,
      'drainTimeoutMs',
    ),
  };
  return {
    dialUrl,
    identities,
    helloLines,
    handshakeTimeoutMs: positiveMs(options.handshakeTimeoutMs, HANDSHAKE_TIMEOUT_MS, 'handshakeTimeoutMs'),
    outboundTimeoutMs: positiveMs(options.outboundTimeoutMs, OUTBOUND_RESULT_TIMEOUT_MS, 'outboundTimeoutMs'),
    goingIdleTimeoutMs: positiveMs(
      options.goingIdleTimeoutMs,
      GOING_IDLE_ACK_TIMEOUT_MS,
      'goingIdleTimeoutMs',
    ),
    pingIntervalMs:
      options.pingIntervalMs === 0
        ? 0
        : positiveMs(options.pingIntervalMs, DEFAULT_PING_INTERVAL_MS, 'pingIntervalMs'),
    pingTimeoutMs: positiveMs(options.pingTimeoutMs, DEFAULT_PING_TIMEOUT_MS, 'pingTimeoutMs'),
    reconnect: options.reconnect ?? true,
    backoff,
    ackPassthrough: options.ackPassthrough ?? false,
    newRequestId: options.newRequestId ?? newRequestId,
    upgradeHeaders,
    webSocketOptions,
    sendBounds,
    maxQueuedFrames: count(
      options.maxQueuedFrames,
      RELAY_CLIENT_FLOW_DEFAULTS.maxQueuedFrames,
      'maxQueuedFrames',
      1,
    ),
  };
}

/** `value` when it is a safe integer of at least `min`, `fallback` when it is absent. */
function count(value: number | undefined, fallback: number, path: string, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new RelayError(
      'invalid_client_options',
      `${path} must be an integer of at least ${min}, got ${String(value)}`,
      { path },
    );
  }
  return value;
}

/** The largest delay `setTimeout` honours (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** `value` when it is a usable delay, `fallback` when it is absent. */
export function positiveMs(value: number | undefined, fallback: number, path: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_TIMER_MS) {
    throw new RelayError(
      'invalid_client_options',
      `${path} must be a positive number of milliseconds up to ${MAX_TIMER_MS}, got ${String(value)}`,
      { path },
    );
  }
  return value;
}

/** Runs `check`, turning a package error into a `RelayError` `invalid_client_options` for `path`. */
function wrapped<T>(path: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof RelayError)) throw error;
    throw new RelayError('invalid_client_options', `${path} is unusable: ${error.message}`, {
      path,
      cause: error,
    });
  }
}

/**
 * What to do after a connection ends: re-dial after the backoff delay, re-dial at once with a fresh
 * token (the one retry after a post-handshake 4401), or stop for good (revoked).
 */
export type CloseDecision =
  | { readonly kind: 'redial_after_backoff' }
  | { readonly kind: 'redial_now' }
  | { readonly kind: 'revoked'; readonly reason: string };

const AFTER_BACKOFF: CloseDecision = { kind: 'redial_after_backoff' };
const NOW: CloseDecision = { kind: 'redial_now' };

/**
 * How a gateway reads the connector's close code 4401, as newer upstream gateways do:
 * - before any handshake ever completed on this transport, 4401 is retryable (the connector may be
 *   cold or the gateway not yet provisioned): re-dial after the backoff delay;
 * - reason `"expired"` is never a revocation (the token aged out): re-dial after the backoff delay;
 * - any other 4401 after a handshake gets one immediate re-dial with a fresh token; a second 4401
 *   on that fresh-token connection is a revocation.
 *
 * The fresh-token retry stays pending across dials that fail to open, and is cleared by a completed
 * handshake, by an `"expired"` 4401 and by any other close code.
 *
 * @example
 * const policy = new AuthClosePolicy();
 * policy.handshakeCompleted();
 * policy.connectionClosed(4401, 'unauthorized'); // { kind: 'redial_now' }
 * policy.connectionClosed(4401, 'unauthorized'); // { kind: 'revoked', reason: 'unauthorized' }
 */
export class AuthClosePolicy {
  #handshakeSucceeded = false;
  #freshTokenRetryPending = false;

  /** Whether a handshake has ever completed on this transport (a later 4401 can then revoke). */
  get handshakeSucceeded(): boolean {
    return this.#handshakeSucceeded;
  }

  /** A descriptor arrived: latches "handshake succeeded" and clears a pending fresh-token retry. */
  handshakeCompleted(): void {
    this.#handshakeSucceeded = true;
    this.#freshTokenRetryPending = false;
  }

  /** Decides what follows an opened connection's close with `code` and `reason`. */
  connectionClosed(code: number, reason: string): CloseDecision {
    if (code !== RELAY_CLOSE_UNAUTHORIZED || reason === RELAY_CLOSE_REASON_EXPIRED) {
      this.#freshTokenRetryPending = false;
      return AFTER_BACKOFF;
    }
    if (!this.#handshakeSucceeded) return AFTER_BACKOFF;
    if (this.#freshTokenRetryPending) return { kind: 'revoked', reason };
    this.#freshTokenRetryPending = true;
    return NOW;
  }
}

/**
 * Where a `WebSocketRelayTransport` stands:
 * - `idle`: created, `connect()` not called yet;
 * - `connecting`: the first dial (or one `connect()` started) is in progress;
 * - `open`: the socket is open and the hellos are written (the descriptor may still be on its way);
 * - `reconnecting`: the connection ended or a dial failed, and a re-dial is scheduled or in progress;
 * - `closed`: `disconnect()` was called, or the connection ended with `reconnect: false`;
 *   `connect()` starts again;
 * - `revoked`: the connector revoked this gateway (a `RelayTransportError` `auth_revoked`); terminal.
 */
export type RelayClientState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed' | 'revoked';

/** How an open connection ended. */
export interface RelayDisconnectInfo {
  /** The WebSocket close code (`1006` when the socket dropped without a close frame). */
  readonly code: number;
  /** The close reason, `""` when none was given. */
  readonly reason: string;
  /** Milliseconds until the re-dial (`0`: at once), or `null` when none will follow. */
  readonly reconnectInMs: number | null;
}

/** The listeners `WebSocketRelayTransport.on` accepts, by event name. */
export interface RelayClientEvents {
  /** The state changed. */
  state: (state: RelayClientState, previous: RelayClientState) => void;
  /** A socket opened and every `hello` was written; the descriptor is still to come. */
  connected: () => void;
  /** The first `descriptor` of a connection arrived: the handshake completed. */
  handshake: (descriptor: CapabilityDescriptor) => void;
  /** An open connection ended. */
  disconnected: (info: RelayDisconnectInfo) => void;
  /** A re-dial is scheduled in `delayMs` (`0`: at once), after a close or a failed dial. */
  redial: (info: { readonly delayMs: number }) => void;
  /** The connector revoked this gateway; the transport is now `revoked` for good. */
  revoked: (error: RelayTransportError) => void;
  /**
   * Something went wrong without failing a call: a dial that did not open, an undecodable connector line (a
   * `RelayError` with a frame code), an inbound event the gateway's reader refuses, an error thrown by an
   * inbound, interrupt or passthrough handler, or a connector that passed a limit (a `RelayError`
   * `peer_limit`: the connection was dropped and is re-dialled).
   */
  error: (error: unknown) => void;
}

/** A small typed event emitter; a listener that throws is ignored, so it cannot break the transport. */
export class RelayClientEmitter {
  readonly #listeners = new Map<keyof RelayClientEvents, Set<RelayClientEvents[keyof RelayClientEvents]>>();

  /** Adds `listener`; returns the function that removes it. */
  on<E extends keyof RelayClientEvents>(event: E, listener: RelayClientEvents[E]): () => void {
    let set = this.#listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  /** Calls every listener of `event` with `args`, in the order they were added. */
  emit<E extends keyof RelayClientEvents>(event: E, ...args: Parameters<RelayClientEvents[E]>): void {
    const set = this.#listeners.get(event);
    if (set === undefined) return;
    for (const listener of [...set]) {
      try {
        (listener as unknown as (...values: Parameters<RelayClientEvents[E]>) => void)(...args);
      } catch {
        // A listener's failure is its own; the transport goes on.
      }
    }
  }
}
