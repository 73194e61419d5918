import { eventDataSchemas } from '../events/event-data.js';
import type { EventRule } from './event-rule.js';
import { postExpiryMs } from './post-expiry.js';
import { AUTHORISED, refuse } from './rejection.js';
import { clientKey, isTrusted } from './replay-state.js';

type MarketType = 'market.post.created' | 'market.post.updated' | 'market.post.expired';

/** Marketplace events (contract §7.2, §4.11–§4.13). */
export const marketRules: { readonly [T in MarketType]: EventRule<T> } = {
  'market.post.created': {
    // Any member. A post whose (author, client_id) was already applied is a retry: it changes nothing.
    authorise(event) {
      return postExpiryMs(event.wall_clock, event.data.ttl_seconds) === undefined
        ? refuse(event.event_id, 'ttl_out_of_range', 'bad_request', 'ttl_seconds must be at most 30 days')
        : AUTHORISED;
    },
    apply(event, state) {
      const key = clientKey('post', event.author, event.data.client_id);
      if (state.clientIds.has(key)) return;
      state.clientIds.add(key);
      state.posts.set(event.event_id, {
        event_id: event.event_id,
        lamport: event.lamport,
        author: event.author,
        created_at: event.wall_clock,
        data: event.data,
        ended: false,
      });
    },
  },
  'market.post.updated': {
    // Original author only, on a post that has not ended; any field but client_id may change, and
    // the result must still be a valid post.
    authorise(event, state) {
      const post = state.posts.get(event.data.target_event_id);
      if (post === undefined) return refuse(event.event_id, 'post_not_found', 'not_found', 'no such post');
      if (post.author !== event.author) {
        return refuse(event.event_id, 'not_post_author', 'unauthorized', 'only the post’s author updates it');
      }
      if (post.ended) return refuse(event.event_id, 'post_ended', 'not_found', 'the post has ended');
      const fields = event.data.fields;
      const merged = eventDataSchemas['market.post.created'].safeParse({ ...post.data, ...fields });
      if (Object.hasOwn(fields, 'client_id') || !merged.success) {
        return refuse(
          event.event_id,
          'invalid_update',
          'bad_request',
          'the updated post is not a valid post',
        );
      }
      return postExpiryMs(post.created_at, merged.data.ttl_seconds) === undefined
        ? refuse(event.event_id, 'ttl_out_of_range', 'bad_request', 'ttl_seconds must be at most 30 days')
        : AUTHORISED;
    },
    apply(event, state) {
      const post = state.posts.get(event.data.target_event_id)!;
      post.data = { ...post.data, ...event.data.fields } as typeof post.data;
      post.updated_lamport = event.lamport;
    },
  },
  'market.post.expired': {
    // The original author, or a trusted moderator for any reason but user_request.
    authorise(event, state) {
      const post = state.posts.get(event.data.target_event_id);
      if (post === undefined) return refuse(event.event_id, 'post_not_found', 'not_found', 'no such post');
      if (post.ended) return refuse(event.event_id, 'post_ended', 'not_found', 'the post has already ended');
      if (post.author === event.author) return AUTHORISED;
      if (!isTrusted(state, event.author)) {
        return refuse(
          event.event_id,
          'not_post_author',
          'unauthorized',
          'not the author nor a trusted moderator',
        );
      }
      return event.data.reason === 'user_request'
        ? refuse(
            event.event_id,
            'moderator_user_request',
            'unauthorized',
            'a moderator cannot expire for user_request',
          )
        : AUTHORISED;
    },
    apply(event, state) {
      state.posts.get(event.data.target_event_id)!.ended = true;
    },
  },
};
