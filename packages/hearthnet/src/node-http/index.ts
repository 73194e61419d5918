/**
 * `@agentwire/hearthnet/node-http` — serves a bus handler (or any web-standard handler) over
 * `node:http`, with streaming responses and client disconnects turned into aborts. Node only.
 *
 * @example
 * ```ts
 * import { createBusHandler } from '@agentwire/hearthnet/wire';
 * import { serveBusHandler } from '@agentwire/hearthnet/node-http';
 *
 * const node = await serveBusHandler(createBusHandler({ identity, registry, trust }), { port: 7080 });
 * ```
 *
 * @packageDocumentation
 */

export {
  HearthNetLocalError,
  type HearthNetLocalErrorCode,
  type HearthNetLocalErrorDetails,
  type HearthNetLocalErrorOptions,
} from '../errors.js';
export {
  DEFAULT_DRAIN_TIMEOUT_MS,
  type SlowConsumerLimit,
} from '../wire/sse/slow-consumer.js';
export { type NodeListenerOptions, toNodeListener, type WebHandler } from './node-listener.js';
export { type ServedBusHandler, type ServeOptions, serveBusHandler } from './serve.js';
