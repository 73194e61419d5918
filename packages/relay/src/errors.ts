/**
 * Every condition `@agentwire/relay` refuses input or an operation for, as the stable `code` of a
 * {@link RelayError}. Codes never change meaning; the conformance fixtures name them.
 */
export type RelayErrorCode =
  // a bad argument of a function with no argument code of its own (FrameDecoder, the edge verifiers)
  | 'invalid_argument'
  // channel tokens (auth)
  | 'relay_token_invalid_argument'
  | 'relay_token_unpaired_surrogate'
  | 'relay_secret_empty'
  | 'relay_token_malformed'
  // inbound buffer
  | 'invalid_buffer_argument'
  | 'corrupt_buffered_frame'
  | 'buffer_closed'
  // relay bus
  | 'invalid_bus_argument'
  | 'bus_closed'
  // capability descriptors
  | 'descriptor_invalid_json'
  | 'descriptor_not_object'
  | 'descriptor_missing_fields'
  | 'descriptor_max_message_length_overflow'
  | 'descriptor_not_json'
  | 'descriptor_invalid_field'
  // Discord interaction events
  | 'discord_interaction_invalid_argument'
  | 'discord_interaction_unreadable'
  // frames
  | 'malformed_json'
  | 'not_object'
  | 'invalid_frame'
  | 'unencodable_frame'
  // NDJSON lines
  | 'line_too_long'
  | 'invalid_utf8'
  | 'incomplete_frame'
  // MessageEvent
  | 'message_event_not_object'
  | 'message_event_not_json'
  | 'message_event_invalid'
  // passthrough bodies and prompt callbacks
  | 'passthrough_invalid_argument'
  | 'passthrough_body_invalid'
  | 'passthrough_headers_invalid'
  | 'prompt_callback_invalid_id'
  | 'prompt_callback_malformed'
  // gateway secret store
  | 'invalid_gateway_secret_argument'
  | 'gateway_exists'
  | 'gateway_not_found'
  | 'gateway_revoked'
  | 'gateway_tenant_mismatch'
  | 'gateway_secret_store_closed'
  // session keys
  | 'whatsapp_identifier_unresolvable'
  | 'invalid_session_source'
  | 'invalid_session_key_options'
  // SessionSource
  | 'session_source_not_object'
  | 'session_source_not_json'
  | 'session_source_invalid_field'
  | 'session_source_missing_platform'
  | 'session_source_unknown_platform'
  | 'session_source_missing_chat_id'
  | 'session_source_ambiguous_chat_id'
  // capability vault
  | 'invalid_vault_argument'
  | 'vault_closed'
  // connector server (./server)
  | 'relay_server_invalid_option'
  | 'relay_server_invalid_input'
  | 'relay_server_closed'
  | 'relay_server_unknown_platform'
  | 'relay_server_outbound_timeout'
  | 'relay_server_connection_closed'
  | 'relay_server_callback_failed'
  | 'peer_limit'
  // gateway client (./client)
  | 'invalid_client_options'
  // test doubles (./testing)
  | 'handler_missing'
  // edge (./edge): HTTP surface
  | 'edge_http_bad_request'
  | 'edge_http_unauthorized'
  | 'edge_http_not_found'
  | 'edge_http_method_not_allowed'
  | 'edge_http_payload_too_large'
  | 'edge_http_request_aborted'
  | 'edge_http_invalid_argument'
  // edge: enrollment
  | 'invalid_enrollment_argument'
  | 'enrollment_callback_failed'
  | 'enrollment_invalid_body'
  | 'enrollment_token_rejected'
  | 'enrollment_gateway_conflict'
  | 'enrollment_gateway_revoked'
  // edge: media store
  | 'media_empty'
  | 'media_filename_too_long'
  | 'media_not_found'
  | 'media_invalid_argument'
  | 'media_store_corrupt'
  // edge: platform webhook verifiers
  | 'malformed_request'
  | 'missing_signature'
  | 'malformed_signature'
  | 'bad_signature'
  | 'missing_timestamp'
  | 'malformed_timestamp'
  | 'stale_timestamp'
  | 'body_hash_mismatch'
  | 'malformed_body'
  | 'decrypt_failed'
  | 'corp_id_mismatch'
  // edge: sanitisers
  | 'sanitiser_invalid_argument'
  | 'sanitiser_malformed_payload'
  // edge: passthrough webhooks
  | 'edge_webhook_unauthorized'
  | 'edge_unknown_tenant'
  | 'edge_passthrough_invalid_argument';

/**
 * The facts some codes carry besides their message. Each field names the codes that set it; every
 * other code leaves it out.
 */
export interface RelayErrorDetails {
  /** `descriptor_missing_fields`: the missing field names, in the order the gateway declares them. */
  readonly missing?: readonly string[];
  /** `peer_limit`: which limit the peer passed; also the close reason of the dropped connection. */
  readonly limit?: PeerLimit;
  /** `peer_limit`: the close code the connection was closed with ({@link RELAY_CLOSE_PEER_LIMIT}). */
  readonly closeCode?: number;
  /** `malformed_json` (from the Python-compatible JSON reader): the UTF-16 offset of the failure. */
  readonly offset?: number;
  /** `not_object`: the decoded JSON value that is not an object. */
  readonly value?: unknown;
  /** `invalid_frame`: the frame `type` (or outbound `op` result) the object claimed. */
  readonly frameType?: string;
  /**
   * `invalid_frame`: the object as received, so a connector can still answer an `outbound` it cannot
   * read by its `requestId`.
   */
  readonly raw?: Readonly<Record<string, unknown>>;
  /** `line_too_long`: the limit that was passed, in UTF-8 bytes. */
  readonly maxLineBytes?: number;
  /** `incomplete_frame`: how many bytes of the unterminated line were buffered. */
  readonly bufferedBytes?: number;
  /** `gateway_exists`, `gateway_not_found`, `gateway_revoked`, `gateway_tenant_mismatch`: the id. */
  readonly gatewayId?: string;
  /** `whatsapp_identifier_unresolvable`: the normalised identifier the gateway could not resolve. */
  readonly normalized?: string;
  /** `relay_server_unknown_platform`: the platform the gateway's `hello` named. */
  readonly platform?: string;
  /** `relay_server_outbound_timeout`: the op that timed out. */
  readonly op?: string;
  /** `relay_server_outbound_timeout`: the limit that passed, in milliseconds. */
  readonly timeoutMs?: number;
  /** `relay_server_callback_failed`: which callback (`authenticate`, `onInterrupt`, `bus.publish`, …). */
  readonly callback?: string;
  /** `handler_missing` (`@agentwire/relay/testing`): the `StubConnector` handler a push driver needed. */
  readonly handler?: 'inbound' | 'interrupt_inbound' | 'passthrough';
  /**
   * `edge_http_unauthorized`: why the bearer token was refused, `'expired'` (validly signed but past
   * its expiry) or `'unauthorized'` (missing, malformed, forged, revoked); the `error` field of the 401
   * answer, as the WebSocket close reason is (`RelayAuthCloseReason`).
   */
  readonly authReason?: 'unauthorized' | 'expired';
  /** `edge_http_unauthorized`: what was wrong with the token, for logs; never part of the answer. */
  readonly authDetail?: string;
  /** `edge_http_method_not_allowed`: the refused request method. */
  readonly method?: string;
  /** `edge_http_method_not_allowed`: the methods the path is served with (the answer's `Allow` header). */
  readonly allow?: readonly string[];
  /** `edge_http_payload_too_large`: the most request body bytes accepted. */
  readonly maxBytes?: number;
  /**
   * `enrollment_invalid_body`: `'invalid_json'` (the body is not UTF-8 JSON) or `'invalid_body'` (not
   * of the endpoint's shape); the `error` field of the 400 answer.
   */
  readonly bodyRefusal?: 'invalid_json' | 'invalid_body';
  /**
   * `enrollment_token_rejected`: why the one-time enrollment token was refused
   * (`EnrollmentTokenRefusal`: unknown, already used, expired, or issued to another tenant).
   */
  readonly tokenRefusal?: 'unknown' | 'used' | 'expired' | 'tenant_mismatch';
}

/** What a {@link RelayError} carries besides its code and message. */
export interface RelayErrorOptions extends ErrorOptions {
  /** The argument, field or JSON path that failed (`''` or `$` for the value as a whole). */
  readonly path?: string;
  /** Whether the same call may succeed when made again unchanged (default `false`). */
  readonly retryable?: boolean;
  /** Facts particular to the code (see {@link RelayErrorDetails}). */
  readonly details?: RelayErrorDetails;
}

/**
 * The one error `@agentwire/relay` throws (or reports) for input or an operation it refuses: switch on
 * `code`. `path` names the argument, field or JSON path that failed (`''` or `$` for the value as a
 * whole), `details` the facts particular to a code, `cause` the underlying error. Transport failures
 * (a request the peer never answered) are {@link RelayTransportError}s instead.
 *
 * @example
 * ```ts
 * try {
 *   parseDescriptor(text);
 * } catch (error) {
 *   if (error instanceof RelayError && error.code === 'descriptor_missing_fields') {
 *     console.log(error.details?.missing);
 *   }
 * }
 * ```
 */
export class RelayError extends Error {
  override readonly name: string = 'RelayError';
  /** Which condition failed; stable across releases. */
  readonly code: RelayErrorCode;
  /** The argument, field or JSON path that failed (`''` or `$` for the value as a whole). */
  readonly path: string;
  /** Whether the same call may succeed when made again unchanged. */
  readonly retryable: boolean;
  /** Facts particular to the code; empty for codes that carry none. */
  readonly details: RelayErrorDetails;

  constructor(code: RelayErrorCode, message: string, options: RelayErrorOptions = {}) {
    const { path = '', retryable = false, details, ...errorOptions } = options;
    super(message, errorOptions);
    this.code = code;
    this.path = path;
    this.retryable = retryable;
    this.details = details ?? {};
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
 * The error reported when a peer of a relay connection (a gateway, seen by the server; a connector, seen
 * by the client) passed one of the limits that keep its memory bounded and the connection was dropped:
 * a close frame with {@link RELAY_CLOSE_PEER_LIMIT} (1008) and the limit as reason, then the TCP
 * connection. Reported, never thrown: through the server's `warning` event, the client's `error` event.
 */
export function peerLimitError(limit: PeerLimit, message: string): RelayError {
  return new RelayError('peer_limit', `connection dropped (${limit}): ${message}`, {
    details: { limit, closeCode: RELAY_CLOSE_PEER_LIMIT },
  });
}

/**
 * The `RelayError` codes of a wire line or value that is not a usable relay frame; `path` says where
 * (a JSON path such as `$.action.chat_id`, `$` for the whole line):
 * - `malformed_json`: a line (or string passed to a decoder) is not JSON. The gateway logs "skipping
 *   malformed frame" and goes on; so does `FrameDecoder`. Python's reader also accepts the non-standard
 *   literals `NaN`, `Infinity` and `-Infinity`, which are reported here as malformed;
 * - `not_object`: valid JSON but not an object (`details.value`). The gateway's reader crashes on such a
 *   line and stops reading the socket; the codec reports it and goes on;
 * - `invalid_frame`: an object names a known frame `type` (or action `op`) but a field is missing or has
 *   the wrong type; `details.frameType` and `details.raw` (the object, so a connector can still answer
 *   an `outbound` it cannot read by its `requestId`);
 * - `unencodable_frame`: a frame cannot be written as JSON (a non-finite number, a bigint, a cycle, a
 *   value that is not plain JSON data);
 * - `line_too_long`: a line grew past the decoder's `maxLineBytes` (`details.maxLineBytes`); reported
 *   once, the rest of the line is discarded and decoding resumes after the next `\n`;
 * - `invalid_utf8`: a line received as bytes is not valid UTF-8; the line is skipped;
 * - `incomplete_frame`: the stream ended inside a frame (`details.bufferedBytes`); the gateway never
 *   processes a frame that lacks its terminating newline.
 */
export type FrameErrorCode =
  | 'malformed_json'
  | 'not_object'
  | 'invalid_frame'
  | 'unencodable_frame'
  | 'line_too_long'
  | 'invalid_utf8'
  | 'incomplete_frame';

const FRAME_ERROR_CODES: ReadonlySet<string> = new Set<FrameErrorCode>([
  'malformed_json',
  'not_object',
  'invalid_frame',
  'unencodable_frame',
  'line_too_long',
  'invalid_utf8',
  'incomplete_frame',
]);

/** Whether `error` is a frame codec refusal. */
export function isFrameError(error: unknown): error is RelayError {
  return error instanceof RelayError && FRAME_ERROR_CODES.has(error.code);
}

/** A frame codec refusal at `path`; the message names the path unless it is the whole frame (`$`). */
export function frameError(
  code: FrameErrorCode,
  message: string,
  path: string,
  options: { readonly details?: RelayErrorDetails; readonly cause?: unknown } = {},
): RelayError {
  return new RelayError(code, path === '$' ? message : `${message} at ${path}`, { ...options, path });
}

/** `not_object`: `value` is valid JSON but not an object. */
export function frameNotObjectError(value: unknown): RelayError {
  const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return frameError('not_object', `a relay frame must be a JSON object, got ${kind}`, '$', {
    details: { value },
  });
}
