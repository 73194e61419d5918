/** What replay order looks at. */
export interface ReplayKey {
  readonly lamport: number;
  readonly event_id: string;
}

/**
 * Replay order (contract §7.4): by `lamport` ascending, then `event_id` ascending. Event ids are
 * compared as strings of ASCII characters (code-unit order equals byte order there), so ULIDs of one
 * Lamport value replay in time order. Returns 0 only for the same `(lamport, event_id)`.
 *
 * @example
 * events.sort(compareEvents);
 */
export function compareEvents(a: ReplayKey, b: ReplayKey): number {
  if (a.lamport !== b.lamport) return a.lamport < b.lamport ? -1 : 1;
  if (a.event_id === b.event_id) return 0;
  return a.event_id < b.event_id ? -1 : 1;
}

/**
 * The events in replay order (a sorted copy; the input is untouched). The same set of events gives
 * the same order whatever order it arrives in. Duplicates are kept.
 *
 * @example
 * for (const event of sortForReplay(received)) view.apply(event);
 */
export function sortForReplay<E extends ReplayKey>(events: Iterable<E>): E[] {
  return [...events].sort(compareEvents);
}
