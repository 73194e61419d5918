/**
 * SQLite-backed storage for the HearthNet contract, on better-sqlite3: {@link SqliteEventStore}, a
 * durable `EventStore` of `@agentwire/hearthnet/events` (append-only, the Lamport counter moved in the
 * same transaction as the event). Node only: this entry loads a native module.
 *
 * @example
 * ```ts
 * import { SqliteEventStore } from '@agentwire/sqlite/hearthnet';
 *
 * const events = new SqliteEventStore({ path: './data/hearthnet.db' });
 * const sent = await events.appendLocal(communityId, (lamport) => createEvent({ ...input, lamport }, me));
 * events.close();
 * ```
 * @packageDocumentation
 */

export { SqliteStoreError, type SqliteStoreErrorCode } from '../shared/errors.js';
export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite-event-store.js';
