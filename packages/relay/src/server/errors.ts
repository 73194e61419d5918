import { RelayError } from '../errors.js';

/** Stable codes of the errors `@agentwire/relay/server` throws, rejects with or reports. */
export type RelayServerErrorCode =
  | 'relay_server_invalid_option'
  | 'relay_server_invalid_input'
  | 'relay_server_closed'
  | 'relay_server_unknown_platform'
  | 'relay_server_outbound_timeout'
  | 'relay_server_connection_closed'
  | 'relay_server_callback_failed';

/**
 * Base class of every error of the connector-side relay server: catch it to handle them all. Errors
 * that happen on a live connection (a throwing `onInterrupt`, a `hello` for an unknown platform) are
 * not thrown but reported through the server's `error` event.
 */
export abstract class RelayServerError extends RelayError {
  abstract override readonly name: string;
  abstract override readonly code: RelayServerErrorCode;
}

/** `createRelayServer` was given an unusable option; `path` names it (`platforms.discord.descriptor`). */
export class RelayServerOptionsError extends RelayServerError {
  override readonly name = 'RelayServerOptionsError';
  readonly code = 'relay_server_invalid_option';
}

/** An argument of an inbound API call (`deliverInbound`, `forwardPassthrough`, …) is not usable. */
export class RelayServerInputError extends RelayServerError {
  override readonly name = 'RelayServerInputError';
  readonly code = 'relay_server_invalid_input';
}

/** The server was closed: it accepts no connections and no inbound calls. */
export class RelayServerClosedError extends RelayServerError {
  override readonly name = 'RelayServerClosedError';
  readonly code = 'relay_server_closed';

  constructor(operation: string) {
    super(`relay server is closed (${operation})`);
  }
}

/**
 * A gateway said `hello` for a platform the server has no adapter for (and no `fallbackPlatform`).
 * The hello is left unanswered and outbound frames naming that platform are refused.
 */
export class UnknownPlatformError extends RelayServerError {
  override readonly name = 'UnknownPlatformError';
  readonly code = 'relay_server_unknown_platform';
  /** The platform the hello named. */
  readonly platform: string;

  constructor(platform: string) {
    super(`no platform adapter for hello platform ${JSON.stringify(platform)}`, 'platform');
    this.platform = platform;
  }
}

/**
 * The reason an adapter call's `signal` is aborted with when the call ran past `outboundTimeoutMs`; the
 * gateway has then been answered `{ success: false }` already.
 */
export class OutboundTimeoutError extends RelayServerError {
  override readonly name = 'OutboundTimeoutError';
  readonly code = 'relay_server_outbound_timeout';
  /** The op that timed out. */
  readonly op: string;
  /** The limit that passed, in milliseconds. */
  readonly timeoutMs: number;

  constructor(op: string, timeoutMs: number) {
    super(`${op} did not complete within ${timeoutMs} ms`);
    this.op = op;
    this.timeoutMs = timeoutMs;
  }
}

/** The reason an adapter call's `signal` is aborted with when its gateway connection closed first. */
export class ConnectionClosedError extends RelayServerError {
  override readonly name = 'ConnectionClosedError';
  readonly code = 'relay_server_connection_closed';
}

/** A callback the server calls (`authenticate`, an adapter's `onInterrupt`) threw; `cause` is what it threw. */
export class RelayServerCallbackError extends RelayServerError {
  override readonly name = 'RelayServerCallbackError';
  readonly code = 'relay_server_callback_failed';
  /** Which callback failed: `authenticate`, `onInterrupt`, `bus`, `buffer`, … */
  readonly callback: string;

  constructor(callback: string, cause: unknown) {
    super(`${callback} failed: ${cause instanceof Error ? cause.message : String(cause)}`, '', { cause });
    this.callback = callback;
  }
}
