import type { SignedEvent } from '../events/envelope.js';
import type { EventRule } from './event-rule.js';
import { AUTHORISED, type Authorisation, refuse } from './rejection.js';
import { clientKey, type ReplayState } from './replay-state.js';

type ChatType = 'chat.message.sent' | 'chat.message.delivered' | 'chat.message.read';

/** Delivered and read receipts: by the message's recipient only. */
function authoriseReceipt(
  event: SignedEvent<'chat.message.delivered' | 'chat.message.read'>,
  state: ReplayState,
): Authorisation {
  const message = state.messages.get(event.data.target_event_id);
  if (message === undefined)
    return refuse(event.event_id, 'message_not_found', 'not_found', 'no such message');
  return message.data.recipient === event.author
    ? AUTHORISED
    : refuse(event.event_id, 'not_recipient', 'unauthorized', 'only the recipient confirms a message');
}

/** Chat events (contract §7.2, §4.15–§4.16). Receipts are last-writer-wins in replay order. */
export const chatRules: { readonly [T in ChatType]: EventRule<T> } = {
  'chat.message.sent': {
    // Any member, to a current member. A message whose (author, client_id) was already applied changes nothing.
    authorise(event, state) {
      const recipient = event.data.recipient;
      if (state.revoked.has(recipient)) {
        return refuse(event.event_id, 'recipient_revoked', 'revoked', `${recipient} is revoked`);
      }
      return state.members.has(recipient)
        ? AUTHORISED
        : refuse(event.event_id, 'recipient_not_found', 'not_found', `${recipient} is not a member`);
    },
    apply(event, state) {
      const key = clientKey('message', event.author, event.data.client_id);
      if (state.clientIds.has(key)) return;
      state.clientIds.add(key);
      state.messages.set(event.event_id, {
        event_id: event.event_id,
        lamport: event.lamport,
        from: event.author,
        created_at: event.wall_clock,
        data: event.data,
      });
    },
  },
  'chat.message.delivered': {
    authorise: authoriseReceipt,
    apply(event, state) {
      state.messages.get(event.data.target_event_id)!.delivered_at = event.data.delivered_at;
    },
  },
  'chat.message.read': {
    authorise: authoriseReceipt,
    apply(event, state) {
      state.messages.get(event.data.target_event_id)!.read_at = event.data.read_at;
    },
  },
};
