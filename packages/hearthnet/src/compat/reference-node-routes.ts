import type { CapabilityRegistry } from '../capabilities/capability-registry.js';
import type { KeyPair } from '../crypto/key-pair.js';
import type { RequestHandler } from '../wire/bus-handler.js';
import { JSON_CONTENT_TYPE } from '../wire/envelope.js';

/** Options of {@link referenceNodeRoutes}. */
export interface ReferenceNodeRoutesOptions {
  /** The node's key pair: `/health` names its node id. */
  readonly identity: KeyPair;
  /** The registry the node's bus handler serves: `/bus/v1/capabilities` lists it. */
  readonly registry: CapabilityRegistry<unknown>;
  /** The clock, epoch ms. Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * The two endpoints a reference node serves besides its bus and manifest, which the reference CLI's
 * `status` and `caps` and its client's `health()` / `fetch_capabilities()` read — as routes for
 * `routeByPath`, beside a bus handler with `wire: referenceWire`:
 * - `GET /health` → `{"status": "ok", "ts": "<UTC second>Z", "node_id": …}`;
 * - `GET /bus/v1/capabilities` → `[{name, version, stability, local: true}, …]`, one entry per registered
 *   capability (what the CLI prints; a reference node's own answer here is a 500).
 * Another method is answered 405, as FastAPI does.
 *
 * @example
 * const node = routeByPath({
 *   ...referenceNodeRoutes({ identity, registry }),
 *   [BUS_CALL_PATH]: createBusHandler({ identity, registry, trust, wire: referenceWire, acceptUnsigned: true }),
 * });
 */
export function referenceNodeRoutes(
  options: ReferenceNodeRoutesOptions,
): Readonly<Record<string, RequestHandler>> {
  const now = options.now ?? Date.now;
  const get =
    (answer: () => unknown): RequestHandler =>
    async (request) =>
      request.method === 'GET' || request.method === 'HEAD'
        ? json(200, answer())
        : json(405, { detail: 'Method Not Allowed' });
  return {
    '/health': get(() => ({
      status: 'ok',
      ts: `${new Date(now()).toISOString().slice(0, 19)}Z`,
      node_id: options.identity.nodeId,
    })),
    '/bus/v1/capabilities': get(() =>
      options.registry.list().map(({ descriptor }) => ({
        name: descriptor.name,
        version: descriptor.version,
        stability: descriptor.stability,
        local: true,
      })),
    ),
  };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': JSON_CONTENT_TYPE } });
}
