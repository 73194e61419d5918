/**
 * `@agentwire/hearthnet/compat` — reading and writing what the Python reference implementation
 * produces: its community events (`payload`, `issued_at` in µs, RFC 4648 base32 ids) converted to
 * and from contract events, their signatures (Python `json.dumps` with `ensure_ascii` and float
 * `repr`, "B-form"), its signed view snapshots, its SSE frames, `hn1:` invite blobs, its node and
 * community manifests and its blob `manifest_cid` — one object of functions per form:
 * `referenceEvents`, `referenceSnapshots`, `referenceManifests`, `referenceInvites`, `referenceJson` —
 * and `referenceWire`, the reference nodes' wire dialect for the bus handler and the client of
 * `@agentwire/hearthnet/wire`, with `referenceNodeRoutes` (`/health`, `/bus/v1/capabilities`) for a node
 * that serves reference callers.
 *
 * @example
 * ```ts
 * import { referenceEvents, referenceJson, referenceWire } from '@agentwire/hearthnet/compat';
 * import { createHearthNetClient } from '@agentwire/hearthnet/wire';
 *
 * const verdict = referenceEvents.verify(referenceJson.parse(text), { acceptUnsigned: true });
 * if (verdict.valid) {
 *   const unsigned = referenceEvents.toContract(verdict.event); // contract field names, ULID ids
 * }
 *
 * const client = createHearthNetClient({ identity, community, node: referenceNodeUrl, wire: referenceWire });
 * ```
 *
 * @packageDocumentation
 */
export {
  referenceEvents,
  referenceInvites,
  referenceJson,
  referenceManifests,
  referenceSnapshots,
} from './reference-dialect.js';
export type { ReferenceEvent } from './reference-event.js';
export { PythonFloat } from './reference-json.js';
export { type ReferenceNodeRoutesOptions, referenceNodeRoutes } from './reference-node-routes.js';
export type { ReferenceSnapshot } from './reference-snapshot.js';
export { referenceWire } from './reference-wire.js';
