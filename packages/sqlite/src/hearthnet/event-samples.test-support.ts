// Test support only (imported by *.test.ts, never by the package entry): signed events of fresh
// communities, and stores on database files in temp folders.
import { generateKeyPair, type KeyPair } from '@agentwire/hearthnet';
import { createEvent, createUlidFactory, type SignedEvent } from '@agentwire/hearthnet/events';
import { createTempDirectory, type TempDirectory } from '../../test/temp-directory.js';
import { SqliteEventStore } from './sqlite-event-store.js';

const ulid = createUlidFactory();

/** A community with its own root key, and signed events in it. */
export interface SampleCommunity {
  readonly id: string;
  readonly root: KeyPair;
  /** A `file.cid.unpinned` event at `lamport`; `n` makes its content (and so its id) distinct. */
  event(lamport: number, n?: number, options?: { readonly eventId?: string }): SignedEvent;
  /** A `market.post.created` event with non-ASCII text and fractional numbers, to test stored bytes. */
  post(lamport: number, title: string): SignedEvent;
}

export function sampleCommunity(): SampleCommunity {
  const root = generateKeyPair();
  return {
    id: root.nodeId,
    root,
    event: (lamport, n = 0, options = {}) =>
      createEvent(
        {
          community_id: root.nodeId,
          event_type: 'file.cid.unpinned',
          data: { cid: `blake3:${n.toString(16).padStart(64, '0')}` },
          lamport,
          ...(options.eventId === undefined ? {} : { event_id: options.eventId }),
        },
        root,
        { ulid },
      ),
    post: (lamport, title) =>
      createEvent(
        {
          community_id: root.nodeId,
          event_type: 'market.post.created',
          data: {
            client_id: `p-${lamport}`,
            category: 'offer',
            title,
            location: { lat: 51.79, lng: 6.140000000000001, label: 'Kleve – Zentrum' },
            ttl_seconds: 604_800,
          },
          lamport,
        },
        root,
        { ulid },
      ),
  };
}

/** Opens stores on files of one temp folder and closes them all (then removes the folder) in `cleanUp`. */
export class StoreFiles {
  readonly #dir: TempDirectory = createTempDirectory('agentwire-sqlite-events-');
  readonly #stores: SqliteEventStore[] = [];

  /** A path inside the temp folder. */
  file(name = 'events.db'): string {
    return this.#dir.file(name);
  }

  /** A store (a connection of its own) on `file(name)`. */
  open(name = 'events.db'): SqliteEventStore {
    const store = new SqliteEventStore({ path: this.file(name) });
    this.#stores.push(store);
    return store;
  }

  cleanUp(): void {
    for (const store of this.#stores.splice(0)) store.close();
    this.#dir.remove();
  }
}
