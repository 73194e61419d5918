/**
 * Base class of every error `@agentwire/relay` throws for input it refuses: catch it to handle them
 * all, or catch a family (`DescriptorError`, `FrameError`, `RelayAuthError`, …). `code` is a stable,
 * machine-readable identifier of the condition; `path` names the argument, field or JSON path that
 * failed (`''` or `$` for the value as a whole). Transport failures are `RelayTransportError`s.
 */
export abstract class RelayError extends Error {
  abstract readonly code: string;
  readonly path: string;

  constructor(message: string, path = '', options?: ErrorOptions) {
    super(message, options);
    this.path = path;
  }
}

/** The WebSocket close code a relay connection is dropped with when its peer passes a limit (policy violation). */
export const RELAY_CLOSE_PEER_LIMIT = 1008;

/**
 * The limits a relay peer can pass (the close reason of the drop):
 * - `send_backlog`: more bytes queued to it than it reads (`dropBufferedAmount`);
 * - `drain_timeout`: the queue stayed above `maxBufferedAmount` and none of it was read for `drainTimeoutMs`;
 * - `identities`: more distinct `hello` identities on one connection than `maxIdentities`;
 * - `bad_frames`: more than 100 lines the server refused (malformed, or a hello for an unknown platform);
 * - `queued_frames`: (client) more than 4 × `dropBufferedAmount` bytes of inbound frames waiting for their
 *   handler (read while a request waited for its result).
 */
export type PeerLimit = 'send_backlog' | 'drain_timeout' | 'identities' | 'bad_frames' | 'queued_frames';

/**
 * A peer of a relay connection (a gateway, seen by the server; a connector, seen by the client) passed
 * one of the limits that keep its memory bounded, and the connection was dropped: a close frame with
 * {@link RELAY_CLOSE_PEER_LIMIT} (1008) and `limit` as reason, then the TCP connection. Reported, never
 * thrown: through the server's `warning` event, the client's `error` event.
 */
export class PeerLimitError extends RelayError {
  override readonly name = 'PeerLimitError';
  readonly code = 'peer_limit';
  /** Which limit was passed; also the close reason. */
  readonly limit: PeerLimit;
  /** The close code the connection was closed with. */
  readonly closeCode = RELAY_CLOSE_PEER_LIMIT;

  constructor(limit: PeerLimit, message: string) {
    super(`connection dropped (${limit}): ${message}`);
    this.limit = limit;
  }

  /** The close reason the connection was closed with: the limit. */
  get closeReason(): string {
    return this.limit;
  }
}
