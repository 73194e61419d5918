import type { CapabilityDescriptor, CapabilityRegistry } from '../../capabilities/index.js';
import type { SseFrame } from '../sse/sse-event.js';
import type { TrustStatus } from './trust.js';

/** What a capability handler learns about the call besides the request. */
export interface CallContext {
  /** The caller's full node id: verified from the signature, or `undefined` for an accepted unsigned call. */
  readonly caller: string | undefined;
  /** Whether `caller` was proven by a signature. */
  readonly callerVerified: boolean;
  /** The caller's trust status, from the handler's `TrustPolicy`. */
  readonly trust: TrustStatus;
  /** `X-HearthNet-Request-Id`. */
  readonly requestId: string;
  /** The descriptor being served (the highest compatible minor, contract §2.1). */
  readonly descriptor: CapabilityDescriptor;
  /** The version the caller asked for. */
  readonly requestedVersion: string;
  /**
   * Whether the caller takes an event stream: the capability streams, the request accepts
   * `text/event-stream` (reference wire: `stream: true` in the body), and `input.stream` is not
   * `false`. Return frames only when it is `true`.
   */
  readonly stream: boolean;
  /**
   * Aborts when the caller goes away (connection closed, stream cancelled) or the handler shuts
   * down. Contract §4.1: a closed connection must cancel generation within 200 ms — pass this signal
   * to the backend, or check it between frames.
   */
  readonly signal: AbortSignal;
  /**
   * The frames the caller sends after its request, when it opened a client stream (`file.put`
   * chunks): validated against the capability's stream schema, ending when the caller ends its
   * request body; a frame that breaks the rules is thrown as `bad_request`. `undefined` for an
   * ordinary call. Iterate it once.
   */
  readonly clientFrames: AsyncIterable<SseFrame> | undefined;
}

/**
 * Serves one capability. It receives the request body `{params, input}` validated by the
 * capability's request schema (defaults filled in) and returns either:
 * - the response body `{output, meta}` (checked against the response schema), sent as JSON; or
 * - when `context.stream` is true, an async iterable of frames `{event, data}` (checked against the
 *   stream schema), sent as SSE. A `done` frame ends the stream (one with data `{}` is added when
 *   the iterable ends without it); throwing ends it with an `error` frame.
 *
 * Throw a `HearthNetError` (`NotFoundError`, `BadRequestError`, …) to answer with that code; any
 * other exception becomes `internal_error` without its message.
 *
 * @example
 * const echo: CapabilityHandler = async ({ input }) => ({ output: { text: String(input.prompt) }, meta: { ms: 0 } });
 */
export type CapabilityHandler = (
  request: { readonly params: Record<string, unknown>; readonly input: Record<string, unknown> },
  context: CallContext,
) => unknown | Promise<unknown>;

/** The registry a bus handler serves: capability descriptors with their {@link CapabilityHandler}s. */
export type BusRegistry = CapabilityRegistry<CapabilityHandler>;

/** Whether a handler result is a stream of frames rather than a JSON body. */
export function isFrameStream(value: unknown): value is AsyncIterable<SseFrame> {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}
