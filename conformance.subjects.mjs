// The implementations of this repository that `agentwire-conformance` does not bundle, for
// `--subjects` (see ConformanceSubjects in @agentwire/conformance): the SQLite stores. The CLI may not
// depend on @agentwire/sqlite (ARCHITECTURE.md, dependency rules), so the repository names them here
// and `pnpm conformance` passes this module.
//
// Every store lives on a database file in its own folder under os.tmpdir(); releasing the store
// closes it and removes the folder, and any folder still there when the process exits is removed too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataStoreQueryBridge, storageConventions } from '@agentwire/agent-connector';
import { SqliteDataStore, SqliteSkillStore } from '@agentwire/sqlite/agent-connector';
import { SqliteEventStore } from '@agentwire/sqlite/hearthnet';

const folders = new Set();
process.once('exit', () => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A fresh folder under the system temp folder: the path of `file` in it, and how to remove it. */
function temporaryFile(file) {
  const folder = mkdtempSync(join(tmpdir(), 'agentwire-conformance-sqlite-'));
  folders.add(folder);
  return {
    path: join(folder, file),
    remove: () => {
      rmSync(folder, { recursive: true, force: true });
      folders.delete(folder);
    },
  };
}

/** A factory of stores opened by `open` on a fresh temporary `file`, each released with its folder. */
function onTemporaryFile(file, open) {
  return () => {
    const { path, remove } = temporaryFile(file);
    let store;
    try {
      store = open(path);
    } catch (error) {
      remove();
      throw error;
    }
    return {
      store,
      dispose: () => {
        try {
          store.close();
        } finally {
          remove();
        }
      },
    };
  };
}

/** The event store on one file for the run, opened again on it for the persistence case. */
function eventStoreOnTemporaryFile() {
  let file;
  return {
    name: 'SqliteEventStore, on a temporary file',
    create: () => {
      file = temporaryFile('events.db');
      return new SqliteEventStore({ path: file.path });
    },
    reopen: (store) => {
      store.close();
      return new SqliteEventStore({ path: file.path });
    },
    dispose: (store) => {
      try {
        store.close();
      } finally {
        file.remove();
      }
    },
  };
}

export default {
  skillStores: [
    {
      name: 'SqliteSkillStore, on a temporary file',
      create: onTemporaryFile('skills.db', (path) => new SqliteSkillStore({ path })),
      // The stores use agent-connector's storage-convention helpers; checking them here too keeps the
      // helper cases of the suite from being skipped for these rows.
      conventions: storageConventions,
    },
  ],
  dataStores: [
    {
      name: 'SqliteDataStore, on a temporary file',
      create: onTemporaryFile('data.db', (path) => new SqliteDataStore({ path })),
      conventions: { ...storageConventions, createQueryBridge: (store) => new DataStoreQueryBridge(store) },
    },
  ],
  eventStores: [eventStoreOnTemporaryFile()],
};
