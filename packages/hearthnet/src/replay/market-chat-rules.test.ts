import { describe, expect, it } from 'vitest';
import { replay } from './replay.js';
import {
  alice,
  bob,
  communityId,
  dave,
  foundedCommunity,
  type LogBuilder,
  mallory,
  root,
} from './replay.test-support.js';

const run = (log: LogBuilder, now?: number) =>
  replay(log.events, { communityId, ...(now === undefined ? {} : { now }) });

function refusalOf(log: LogBuilder, eventId: string) {
  return run(log).rejected.find((rejection) => rejection.event_id === eventId);
}

describe('marketplace view', () => {
  it('lists a post with the contract location and its TTL expiry', () => {
    const log = foundedCommunity();
    const post = log.post(dave, 'p-1');
    expect(run(log).views.marketplace.posts).toEqual([
      {
        event_id: post.event_id,
        lamport: post.lamport,
        author: dave.nodeId,
        client_id: 'p-1',
        category: 'offer',
        title: 'post p-1',
        location: { lat: 51.79, lng: 6.14, label: 'Kleve' },
        ttl_seconds: 3600,
        created_at: post.wall_clock,
        expires_at: new Date(Date.parse(post.wall_clock) + 3_600_000).toISOString().replace('.000Z', 'Z'),
      },
    ]);
  });

  it('drops posts whose TTL has passed at now, and only then', () => {
    const log = foundedCommunity();
    const post = log.post(dave, 'p-1');
    const expiresAt = Date.parse(post.wall_clock) + 3_600_000;
    expect(run(log, expiresAt - 1).views.marketplace.posts).toHaveLength(1);
    expect(run(log, expiresAt).views.marketplace.posts).toHaveLength(0);
  });

  it('keeps the first post of an (author, client_id) and ignores retries', () => {
    const log = foundedCommunity();
    const first = log.post(dave, 'p-1');
    log.post(dave, 'p-1');
    const otherAuthor = log.post(mallory, 'p-1');
    const result = run(log);
    expect(result.views.marketplace.posts.map((p) => p.event_id)).toEqual([
      first.event_id,
      otherAuthor.event_id,
    ]);
    expect(result.rejected).toEqual([]);
  });

  it('refuses a TTL above 30 days', () => {
    const log = foundedCommunity();
    const post = log.add(dave, 'market.post.created', {
      client_id: 'p',
      category: 'info',
      title: 't',
      ttl_seconds: 30 * 86_400 + 1,
    });
    expect(refusalOf(log, post.event_id)).toMatchObject({ reason: 'ttl_out_of_range', code: 'bad_request' });
  });

  it('applies updates by the author only, to valid fields', () => {
    const log = foundedCommunity();
    const post = log.post(dave, 'p-1');
    const update = log.add(dave, 'market.post.updated', {
      client_id: 'u-1',
      target_event_id: post.event_id,
      fields: { body: '2 Ster', tags: ['holz'] },
    });
    const foreign = log.add(alice, 'market.post.updated', {
      client_id: 'u-2',
      target_event_id: post.event_id,
      fields: { body: 'spam' },
    });
    const invalid = log.add(dave, 'market.post.updated', {
      client_id: 'u-3',
      target_event_id: post.event_id,
      fields: { category: 'nonsense' },
    });
    const renamed = log.add(dave, 'market.post.updated', {
      client_id: 'u-4',
      target_event_id: post.event_id,
      fields: { client_id: 'other' },
    });
    const [listed] = run(log).views.marketplace.posts;
    expect(listed).toMatchObject({ body: '2 Ster', tags: ['holz'], updated_lamport: update.lamport });
    expect(refusalOf(log, foreign.event_id)).toMatchObject({
      reason: 'not_post_author',
      code: 'unauthorized',
    });
    expect(refusalOf(log, invalid.event_id)).toMatchObject({ reason: 'invalid_update' });
    expect(refusalOf(log, renamed.event_id)).toMatchObject({ reason: 'invalid_update' });
  });

  it('lets the author or a trusted moderator (not for user_request) expire a post', () => {
    const log = foundedCommunity();
    const a = log.post(dave, 'p-1');
    const b = log.post(dave, 'p-2');
    const c = log.post(dave, 'p-3');
    const expire = (key: typeof dave, target: string, reason: 'fulfilled' | 'user_request' | 'stale') =>
      log.add(key, 'market.post.expired', { client_id: `x-${target}`, target_event_id: target, reason });
    expire(dave, a.event_id, 'fulfilled');
    expire(alice, b.event_id, 'stale');
    const userRequest = expire(bob, c.event_id, 'user_request');
    const byMember = expire(mallory, c.event_id, 'stale');
    const again = expire(dave, a.event_id, 'fulfilled');
    expect(run(log).views.marketplace.posts.map((p) => p.event_id)).toEqual([c.event_id]);
    expect(refusalOf(log, userRequest.event_id)).toMatchObject({ reason: 'moderator_user_request' });
    expect(refusalOf(log, byMember.event_id)).toMatchObject({ reason: 'not_post_author' });
    expect(refusalOf(log, again.event_id)).toMatchObject({ reason: 'post_ended', code: 'not_found' });
  });

  it('refuses updates and expiries of unknown posts', () => {
    const log = foundedCommunity();
    const orphan = log.add(dave, 'market.post.expired', {
      client_id: 'x',
      target_event_id: '01ARYZ6S410000000000000000',
      reason: 'fulfilled',
    });
    expect(refusalOf(log, orphan.event_id)).toMatchObject({ reason: 'post_not_found', code: 'not_found' });
  });
});

describe('chat view', () => {
  it('records sent, delivered and read, receipts by the recipient only', () => {
    const log = foundedCommunity();
    const sent = log.chat(dave, mallory, 'c-1');
    const delivered = { target_event_id: sent.event_id, delivered_at: '2026-05-26T09:00:00Z' };
    const foreign = log.add(alice, 'chat.message.delivered', delivered);
    log.add(mallory, 'chat.message.delivered', delivered);
    log.add(mallory, 'chat.message.read', {
      target_event_id: sent.event_id,
      read_at: '2026-05-26T09:00:05.250Z',
    });
    expect(run(log).views.chat.messages).toEqual([
      {
        event_id: sent.event_id,
        lamport: sent.lamport,
        from: dave.nodeId,
        to: mallory.nodeId,
        client_id: 'c-1',
        body: 'hi',
        attachments: [],
        created_at: sent.wall_clock,
        delivered_at: '2026-05-26T09:00:00Z',
        read_at: '2026-05-26T09:00:05.250Z',
      },
    ]);
    expect(refusalOf(log, foreign.event_id)).toMatchObject({ reason: 'not_recipient', code: 'unauthorized' });
  });

  it('refuses messages to non-members and to revoked nodes, and receipts of unknown messages', () => {
    const log = foundedCommunity();
    log.revoke(alice, mallory, [bob, root]);
    const toRevoked = log.chat(dave, mallory, 'c-1');
    const toStranger = log.add(dave, 'chat.message.sent', {
      client_id: 'c-2',
      recipient: 'ed25519:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      body: 'hi',
    });
    const receipt = log.add(dave, 'chat.message.read', {
      target_event_id: '01ARYZ6S410000000000000000',
      read_at: '2026-05-26T09:00:00Z',
    });
    expect(refusalOf(log, toRevoked.event_id)).toMatchObject({
      reason: 'recipient_revoked',
      code: 'revoked',
    });
    expect(refusalOf(log, toStranger.event_id)).toMatchObject({ reason: 'recipient_not_found' });
    expect(refusalOf(log, receipt.event_id)).toMatchObject({ reason: 'message_not_found' });
  });
});
