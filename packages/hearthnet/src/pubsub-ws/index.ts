/**
 * `@agentwire/hearthnet/pubsub-ws` — the WebSocket transport of the pub-sub topics (contract §8,
 * Phase 2), behind the same `TopicHub`, cursors, authentication and authorisation as the long poll of
 * `@agentwire/hearthnet/pubsub`: a server side attached to a `node:http` server's upgrades at
 * `/pubsub/v1/ws/{topic}` with ack-window back-pressure, and a client with the same async-iterator
 * API. Node only (it uses the `ws` package).
 *
 * @example
 * ```ts
 * import { attachPubSubWebSocket, createPubSubWebSocketClient } from '@agentwire/hearthnet/pubsub-ws';
 *
 * const served = await serveBusHandler(createPubSubHandler({ identity: b, hub, trust }));
 * const ws = attachPubSubWebSocket(served.server, { identity: b, hub, trust });
 *
 * const client = createPubSubWebSocketClient({ identity: a, community, node: served.url });
 * for await (const event of client.subscribe('marketplace.post.created', { signal })) console.log(event);
 * ```
 *
 * @packageDocumentation
 */

export { SLOW_CONSUMER_CLOSE_CODE } from '../wire/sse.js';
export {
  createPubSubWebSocketClient,
  type PubSubWebSocketClientOptions,
} from './ws-client.js';
export { attachPubSubWebSocket, type PubSubWebSocketOptions } from './ws-server.js';
