/**
 * `@agentwire/hearthnet/sync` — community snapshots (contract §7.5) and gossip sync (§7.6): signed
 * snapshots of the replayed state, verified against the membership and restored with the tail of the
 * log; a web-standard sync handler and a `syncWith` client that reconcile two event stores by id.
 *
 * @example
 * ```ts
 * import { createSyncHandler, syncWith } from '@agentwire/hearthnet/sync';
 * import { serveBusHandler } from '@agentwire/hearthnet/node-http';
 *
 * const served = await serveBusHandler(createSyncHandler({ store }));
 * const reports = await syncWith(served.url, { store: otherStore }); // both stores now hold the same events
 * ```
 *
 * @packageDocumentation
 */
export {
  type BuildSnapshotOptions,
  buildSnapshot,
  type RestoreSnapshotOptions,
  restoreSnapshot,
  type SignedSnapshot,
  verifySnapshot,
} from './snapshot.js';
export { type SyncWithOptions, syncWith } from './sync-client.js';
export { createSyncHandler, type SyncHandlerOptions } from './sync-handler.js';
export { ingestEvents, SYNC_PATHS, type SyncRejection } from './sync-protocol.js';
