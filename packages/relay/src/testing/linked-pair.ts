import { HANDSHAKE_TIMEOUT_MS, OUTBOUND_RESULT_TIMEOUT_MS } from '../frames/frames.js';
import type { FrameJsonStyle } from '../ndjson.js';
import { newRequestId } from '../transport.js';
import { ActivityTracker, type WireChunk, type WireRecord } from './linked-connection.js';
import { type LinkedConnector, LinkedConnectorEnd, type LinkedConnectorHandler } from './linked-connector.js';
import { type HelloIdentity, LinkedGateway, type LinkedGatewayTransport } from './linked-gateway.js';

/** Options of {@link createLinkedTransportPair}. */
export interface LinkedTransportPairOptions {
  /** Plays the connector: its descriptor and how it answers the gateway's frames. */
  readonly connector: LinkedConnectorHandler;
  /** The gateway's fronted identities, one `hello` each; default `[{ platform: 'relay', botId: '' }]`. */
  readonly identities?: readonly HelloIdentity[];
  /** How long the gateway waits for an `outbound_result`; default 30 000 ms, as the gateway. */
  readonly outboundTimeoutMs?: number;
  /** How long `handshake()` waits for the first descriptor; default 30 000 ms, as the gateway. */
  readonly handshakeTimeoutMs?: number;
  /** How the gateway end writes JSON; default `python`, the gateway's exact bytes. The connector writes compact JSON. */
  readonly gatewayJsonStyle?: FrameJsonStyle;
  /**
   * Splits each frame line into the WebSocket messages that carry it (both directions); default one
   * message per line, as the gateway writes. Use it to exercise the decoders with split or byte chunks.
   */
  readonly chunk?: (line: string) => readonly WireChunk[];
  /** Makes each outbound `requestId`; default {@link newRequestId} (32 lowercase hex). */
  readonly newRequestId?: () => string;
  /**
   * Ack a buffered `passthrough_forward` after its handler, as newer gateways do. Default `false`:
   * the baseline gateway never acks them.
   */
  readonly ackPassthroughBuffers?: boolean;
}

/** The two ends of an in-memory relay connection. */
export interface LinkedTransportPair {
  /** The gateway side: a `RelayTransport` to hand to the code under test. */
  readonly gateway: LinkedGatewayTransport;
  /** The connector side: push drivers and records of what the gateway sent. */
  readonly connector: LinkedConnector;
  /** Every message written, both directions, in order: whole frame lines, or raw data as sent. */
  readonly wire: readonly WireRecord[];
  /**
   * Resolves once nothing is in flight: every message delivered, every handler and connector callback
   * settled (a callback that never settles keeps it waiting; wait for a record such as
   * `connector.outbound` instead).
   */
  flush(): Promise<void>;
}

/**
 * An in-memory gateway ⇄ connector connection that speaks the real wire format. The gateway end is a
 * `RelayTransport` that writes frames with `encodeFrame` (Python `json.dumps` bytes by default) and
 * reads the connector's lines with `FrameDecoder`; the connector end decodes those frames and answers
 * them through the `connector` handler: `hello` → `descriptor`, `outbound` → one `outbound_result`
 * per `requestId`, `going_idle` → `going_idle_ack`, and records `interrupt` and `inbound_ack`. Its
 * drivers send `inbound` (with `bufferId`), `interrupt_inbound`, `passthrough_forward`, any frame or
 * raw bytes. Delivery is asynchronous and ordered, like a socket; `flush()` waits for quiet.
 *
 * The gateway end follows the Python transport, except: a malformed or non-object connector line is
 * recorded in `gateway.errors` and skipped (the Python reader dies on a non-object line), a bad first
 * descriptor fails `handshake()` at once, and `outbound_result` / `descriptor` / `going_idle_ack` are
 * read while an inbound handler runs (the Python reader handles every frame in turn, so an inbound
 * handler that awaits an outbound result stalls until the 30 s timeout).
 *
 * @example
 * const pair = createLinkedTransportPair({
 *   connector: {
 *     descriptor: createDescriptor({ platform: 'discord', label: 'Discord', max_message_length: 2000,
 *       supports_draft_streaming: false, supports_edit: true, supports_threads: true,
 *       markdown_dialect: 'discord', len_unit: 'utf16' }),
 *     onOutbound: (action) => ({ success: true, message_id: 'm1' }),
 *   },
 * });
 * pair.gateway.onInbound((event) => seen.push(event));
 * await pair.gateway.connect();
 * await pair.gateway.handshake();
 * pair.connector.pushInbound(createMessageEvent({ text: 'hi', source }), { bufferId: 'b1' });
 * await pair.flush();
 * pair.connector.inboundAcks; // ['b1']
 */
export function createLinkedTransportPair(options: LinkedTransportPairOptions): LinkedTransportPair {
  const tracker = new ActivityTracker();
  const wire: WireRecord[] = [];
  const context = { tracker, wire, chunk: options.chunk ?? ((line: string) => [line]) };
  const connector = new LinkedConnectorEnd(context, options.connector);
  const gateway = new LinkedGateway(
    context,
    {
      identities: options.identities ?? [{ platform: 'relay', botId: '' }],
      outboundTimeoutMs: options.outboundTimeoutMs ?? OUTBOUND_RESULT_TIMEOUT_MS,
      handshakeTimeoutMs: options.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS,
      jsonStyle: options.gatewayJsonStyle ?? 'python',
      newRequestId: options.newRequestId ?? newRequestId,
      ackPassthroughBuffers: options.ackPassthroughBuffers ?? false,
    },
    (gatewayEnd) => connector.accept(gatewayEnd),
  );
  return { gateway, connector, wire, flush: () => tracker.idle() };
}
