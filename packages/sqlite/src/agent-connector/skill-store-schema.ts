import type { SchemaComponent } from '../shared/schema-migrations.js';

/**
 * The skill store's tables:
 * - `skills`: one row per skill — the current body and identity, status, author (locked at the first
 *   write), timestamps, and the optional metadata projections as JSON;
 * - `skill_bodies`: every body the skill has had, by version, so `load(name, version)` returns history;
 * - `skill_history`: the append-only audit trail `versions()` reads, one row per write or transition;
 * - `skill_tags`: the tag relation the `tag` filter uses.
 * History, bodies and tags cascade when a skill is deleted, so the name is free again with no history.
 */
export const SKILL_STORE_SCHEMA: SchemaComponent = {
  name: 'skill_store',
  migrations: [
    `CREATE TABLE skills (
       name TEXT PRIMARY KEY,
       current_version TEXT NOT NULL,
       content_hash TEXT NOT NULL,
       status TEXT NOT NULL CHECK (status IN ('Draft', 'Approved', 'Disabled')),
       source TEXT NOT NULL,
       description TEXT,
       author TEXT,
       projections_json TEXT,
       created_at INTEGER NOT NULL,
       updated_at INTEGER NOT NULL,
       status_changed_at INTEGER NOT NULL
     );
     CREATE INDEX skills_status_idx ON skills (status);
     CREATE INDEX skills_updated_at_idx ON skills (updated_at);
     CREATE INDEX skills_author_idx ON skills (author);
     CREATE TABLE skill_bodies (
       name TEXT NOT NULL REFERENCES skills (name) ON DELETE CASCADE,
       version TEXT NOT NULL,
       content_hash TEXT NOT NULL,
       source TEXT NOT NULL,
       PRIMARY KEY (name, version)
     );
     CREATE TABLE skill_history (
       seq INTEGER PRIMARY KEY AUTOINCREMENT,
       name TEXT NOT NULL REFERENCES skills (name) ON DELETE CASCADE,
       version TEXT NOT NULL,
       content_hash TEXT NOT NULL,
       status TEXT NOT NULL,
       previous_status TEXT,
       changed_at INTEGER NOT NULL,
       changed_by TEXT
     );
     CREATE INDEX skill_history_name_idx ON skill_history (name, seq);
     CREATE TABLE skill_tags (
       name TEXT NOT NULL REFERENCES skills (name) ON DELETE CASCADE,
       tag TEXT NOT NULL,
       PRIMARY KEY (name, tag)
     );
     CREATE INDEX skill_tags_tag_idx ON skill_tags (tag);`,
  ],
};
