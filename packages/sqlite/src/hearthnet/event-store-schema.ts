import type { SchemaComponent } from '../shared/schema-migrations.js';

/**
 * The event store's tables:
 * - `hearthnet_events`: append-only (triggers refuse UPDATE and DELETE), one row per event, keyed by `event_id`; `event_json` is the event's
 *   canonical JSON exactly as appended, `community_id` and `lamport` are copied out of it for the replay
 *   order index `(community_id, lamport, event_id)` (contract §7.4; ULIDs are ASCII, so SQLite's binary
 *   collation orders them as the contract does);
 * - `hearthnet_lamport_clocks`: each community's Lamport counter (contract §7.3), written in the same
 *   transaction as the event that moves it.
 */
export const EVENT_STORE_SCHEMA: SchemaComponent = {
  name: 'hearthnet_event_store',
  migrations: [
    `CREATE TABLE hearthnet_events (
       event_id TEXT PRIMARY KEY NOT NULL,
       community_id TEXT NOT NULL,
       lamport INTEGER NOT NULL CHECK (lamport >= 0),
       event_json TEXT NOT NULL
     );
     CREATE INDEX hearthnet_events_replay_idx ON hearthnet_events (community_id, lamport, event_id);
     CREATE TRIGGER hearthnet_events_no_update BEFORE UPDATE ON hearthnet_events BEGIN
       SELECT RAISE(ABORT, 'hearthnet_events is append-only');
     END;
     CREATE TRIGGER hearthnet_events_no_delete BEFORE DELETE ON hearthnet_events BEGIN
       SELECT RAISE(ABORT, 'hearthnet_events is append-only');
     END;
     CREATE TABLE hearthnet_lamport_clocks (
       community_id TEXT PRIMARY KEY NOT NULL,
       clock INTEGER NOT NULL CHECK (clock >= 0)
     ) WITHOUT ROWID;`,
  ],
};
