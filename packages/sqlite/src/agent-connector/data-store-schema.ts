import type { SchemaComponent } from '../shared/schema-migrations.js';

/**
 * The data store's tables:
 * - `data_entries`: one row per write — the public `id` (a UUID), `summary`, `detail` (the full content),
 *   `created_at` / `expires_at` (unix seconds; `expires_at` NULL = durable), recipients and metadata as JSON;
 * - `data_entry_tags`: the `domain_tags` relation, in written order, that the tag filter uses;
 * - `data_entries_fts`: an FTS5 index over `detail` (the summary is a prefix of it), kept by triggers.
 */
export const DATA_STORE_SCHEMA: SchemaComponent = {
  name: 'data_store',
  migrations: [
    `CREATE TABLE data_entries (
       seq INTEGER PRIMARY KEY,
       id TEXT NOT NULL UNIQUE,
       summary TEXT NOT NULL,
       detail TEXT NOT NULL,
       created_at INTEGER NOT NULL,
       expires_at INTEGER,
       recipients_json TEXT,
       metadata_json TEXT
     );
     CREATE INDEX data_entries_recent_idx ON data_entries (created_at DESC, seq DESC);
     CREATE TABLE data_entry_tags (
       entry_seq INTEGER NOT NULL REFERENCES data_entries (seq) ON DELETE CASCADE,
       position INTEGER NOT NULL,
       tag TEXT NOT NULL,
       PRIMARY KEY (entry_seq, position),
       UNIQUE (entry_seq, tag)
     );
     CREATE INDEX data_entry_tags_tag_idx ON data_entry_tags (tag, entry_seq);
     CREATE VIRTUAL TABLE data_entries_fts USING fts5 (
       detail, content = 'data_entries', content_rowid = 'seq', tokenize = 'unicode61 remove_diacritics 2'
     );
     CREATE TRIGGER data_entries_fts_insert AFTER INSERT ON data_entries BEGIN
       INSERT INTO data_entries_fts (rowid, detail) VALUES (new.seq, new.detail);
     END;
     CREATE TRIGGER data_entries_fts_delete AFTER DELETE ON data_entries BEGIN
       INSERT INTO data_entries_fts (data_entries_fts, rowid, detail) VALUES ('delete', old.seq, old.detail);
     END;`,
  ],
};
