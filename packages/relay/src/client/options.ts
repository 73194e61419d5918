import type { ClientOptions } from 'ws';
import { relayUpgradeHeaders } from '../auth/index.js';
import { RelayError } from '../errors.js';
import {
  GOING_IDLE_ACK_TIMEOUT_MS,
  HANDSHAKE_TIMEOUT_MS,
  type HelloFrame,
  OUTBOUND_RESULT_TIMEOUT_MS,
} from '../frames/index.js';
import type { SendBounds } from '../internal/bounded-socket.js';
import { DEFAULT_FLOW_BOUNDS } from '../internal/bounded-socket.js';
import { encodeFrame } from '../ndjson/index.js';
import { deriveRelayUrls } from '../passthrough/index.js';
import { newRequestId } from '../transport/index.js';
import {
  DEFAULT_BACKOFF_INITIAL_MS,
  DEFAULT_BACKOFF_MAX_MS,
  type ReconnectBackoffOptions,
} from './backoff.js';
import { DEFAULT_PING_INTERVAL_MS, DEFAULT_PING_TIMEOUT_MS } from './keepalive.js';

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
