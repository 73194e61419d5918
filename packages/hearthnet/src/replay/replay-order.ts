import type { SignedEvent } from '../events/envelope.js';
import { compareEvents } from '../events/ordering.js';

const REVOKED = 'community.member.revoked';

/**
 * Replay order (contract §7.4): by `lamport`, then `event_id`, except that within one Lamport value
 * revocations come first, so a revocation is checked before the concurrent actions of the party it
 * revokes. A total order: the same set of events sorts the same whatever order it arrives in.
 */
export function compareForReplay(a: SignedEvent, b: SignedEvent): number {
  if (a.lamport === b.lamport) {
    const aRevokes = a.event_type === REVOKED;
    if (aRevokes !== (b.event_type === REVOKED)) return aRevokes ? -1 : 1;
  }
  return compareEvents(a, b);
}
