import type { KeyPair } from '../../crypto/index.js';
import { type CreateEventOptions, createEvent, type EventStore } from '../../events/index.js';
import type { BlobStoreEvent } from '../store/blob-store.js';

/** Options of {@link recordBlobEvents}. */
export interface BlobEventRecorderOptions {
  /** The community log the events are appended to. */
  readonly events: EventStore;
  /** The holder: it authors and signs the events. */
  readonly identity: KeyPair;
  /** The community the events belong to. */
  readonly communityId: string;
  /** Clock and ULID factory of the events. */
  readonly createOptions?: CreateEventOptions;
  /** Receives an append that failed (the store's change itself stands). Default: kept for `settled()` to throw. */
  readonly onError?: (error: unknown, event: BlobStoreEvent) => void;
}

/** The blob store hook made by {@link recordBlobEvents}. */
export interface BlobEventRecorder {
  /** Pass as the store's `onEvent` option. */
  readonly onEvent: (event: BlobStoreEvent) => void;
  /**
   * Resolves once every event reported so far is in the log (appends run one at a time, in order).
   *
   * @throws the first append failure not handed to `onError`.
   */
  settled(): Promise<void>;
}

/**
 * Writes what a blob store reports into the community log as signed events (contract §7.2): a newly
 * held blob as `file.cid.advertised` `{cid, sizes_bytes}` (the contract's field name), an unpinned or
 * collected one as `file.cid.unpinned` `{cid}` — each with the next Lamport value of the holder's log.
 *
 * @example
 * const recorder = recordBlobEvents({ events: eventStore, identity, communityId });
 * const store = new InMemoryBlobStore({ onEvent: recorder.onEvent });
 * await store.putBlob(pdf);
 * await recorder.settled(); // the file.cid.advertised event is in the log
 */
export function recordBlobEvents(options: BlobEventRecorderOptions): BlobEventRecorder {
  const { events, identity, communityId } = options;
  let queue: Promise<void> = Promise.resolve();
  let failure: { readonly error: unknown } | undefined;
  const append = async (event: BlobStoreEvent) => {
    await events.appendLocal(communityId, (lamport) =>
      event.type === 'file.cid.advertised'
        ? createEvent(
            {
              community_id: communityId,
              event_type: 'file.cid.advertised',
              data: { cid: event.cid, sizes_bytes: event.size_bytes },
              lamport,
            },
            identity,
            options.createOptions,
          )
        : createEvent(
            { community_id: communityId, event_type: 'file.cid.unpinned', data: { cid: event.cid }, lamport },
            identity,
            options.createOptions,
          ),
    );
  };
  return {
    onEvent: (event) => {
      queue = queue.then(() =>
        append(event).catch((error: unknown) => {
          if (options.onError !== undefined) options.onError(error, event);
          else failure ??= { error };
        }),
      );
    },
    settled: async () => {
      await queue;
      if (failure !== undefined) {
        const { error } = failure;
        failure = undefined;
        throw error;
      }
    },
  };
}
