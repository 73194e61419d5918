import type { SignedEvent } from '../events/envelope.js';
import type { EventType } from '../events/event-types.js';
import type { Authorisation } from './rejection.js';
import type { MutableReplayState, ReplayState } from './replay-state.js';

/**
 * The trust rule and the effect of one event type. `authorise` runs after the checks every event
 * gets (community, author revoked, author a member); `apply` runs only on an authorised event.
 */
export interface EventRule<T extends EventType> {
  authorise(event: SignedEvent<T>, state: ReplayState): Authorisation;
  apply(event: SignedEvent<T>, state: MutableReplayState): void;
}
