import { z } from 'zod';
import { communityPolicySchema, eventDataSchemas, MEMBER_LEVELS } from '../events/event-data.js';
import { countSchema, nodeIdSchema, timestampSchema } from '../manifests/field-schemas.js';
import {
  type CommunityRecord,
  clientKey,
  createReplayState,
  type InviteRecord,
  type MemberRecord,
  type MessageRecord,
  type MutableReplayState,
  type PostRecord,
  type ReplayState,
  type RevokedRecord,
} from '../replay/replay-state.js';
import { chatView, marketplaceView, membershipView, type ReplayViews } from '../replay/views.js';

const levelSchema = z.enum(MEMBER_LEVELS);
const byKey =
  <K extends string>(key: K) =>
  (a: Record<K, string>, b: Record<K, string>) =>
    a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0;

/**
 * Everything replay derived up to a snapshot's head, record by record: what a node needs to judge
 * and apply the events after it exactly as a full replay would. Arrays are sorted by `node_id` or
 * `event_id`, so the same state always has the same canonical JSON.
 */
export const snapshotRecordsSchema = z.strictObject({
  community: z
    .strictObject({
      name: z.string(),
      root_key: nodeIdSchema,
      created_at: timestampSchema,
      lamport_at_creation: countSchema,
      policy: communityPolicySchema,
    })
    .nullable(),
  members: z.array(
    z.strictObject({
      node_id: nodeIdSchema,
      level: levelSchema,
      added_at: timestampSchema,
      added_by: nodeIdSchema,
    }),
  ),
  revoked: z.array(z.strictObject({ node_id: nodeIdSchema, revoked_at: timestampSchema })),
  invites: z.array(
    z.strictObject({
      event_id: z.string(),
      inviter: nodeIdSchema,
      invitee: nodeIdSchema,
      initial_level: levelSchema,
      expires_at: timestampSchema,
    }),
  ),
  posts: z.array(
    z.strictObject({
      event_id: z.string(),
      lamport: countSchema,
      author: nodeIdSchema,
      created_at: timestampSchema,
      data: eventDataSchemas['market.post.created'],
      updated_lamport: countSchema.optional(),
      ended: z.boolean(),
    }),
  ),
  messages: z.array(
    z.strictObject({
      event_id: z.string(),
      lamport: countSchema,
      from: nodeIdSchema,
      created_at: timestampSchema,
      data: eventDataSchemas['chat.message.sent'],
      delivered_at: timestampSchema.optional(),
      read_at: timestampSchema.optional(),
    }),
  ),
  head_lamport: countSchema.nullable(),
});

/** The records of a snapshot ({@link snapshotRecordsSchema}). */
export type SnapshotRecords = z.infer<typeof snapshotRecordsSchema>;

/**
 * A snapshot's `state` (contract §7.5): the three materialised views (marketplace without TTL
 * expiry, as replay gives it without `now`) and the replay records they derive from.
 */
export interface SnapshotState {
  readonly views: ReplayViews;
  readonly records: SnapshotRecords;
}

/** The snapshot state of a replay state: its views and its records. */
export function snapshotStateOf(state: ReplayState): SnapshotState {
  return { views: viewsOf(state), records: recordsOf(state) };
}

/** The views of a replay state, without TTL expiry. */
export function viewsOf(state: ReplayState): ReplayViews {
  return { membership: membershipView(state), marketplace: marketplaceView(state), chat: chatView(state) };
}

function recordsOf(state: ReplayState): SnapshotRecords {
  const community = state.community;
  return {
    community:
      community === undefined
        ? null
        : {
            name: community.name,
            root_key: community.root_key,
            created_at: community.created_at,
            lamport_at_creation: community.lamport_at_creation,
            policy: community.policy,
          },
    members: [...state.members.values()]
      .map(({ node_id, level, added_at, added_by }) => ({ node_id, level, added_at, added_by }))
      .sort(byKey('node_id')),
    revoked: [...state.revoked.values()]
      .map(({ node_id, revoked_at }) => ({ node_id, revoked_at }))
      .sort(byKey('node_id')),
    invites: [...state.invites.values()]
      .map(({ event_id, inviter, invitee, initial_level, expires_at }) => ({
        event_id,
        inviter,
        invitee,
        initial_level,
        expires_at,
      }))
      .sort(byKey('event_id')),
    posts: [...state.posts.values()]
      .map((post) => ({
        event_id: post.event_id,
        lamport: post.lamport,
        author: post.author,
        created_at: post.created_at,
        data: post.data,
        ...(post.updated_lamport === undefined ? {} : { updated_lamport: post.updated_lamport }),
        ended: post.ended,
      }))
      .sort(byKey('event_id')),
    messages: [...state.messages.values()]
      .map((message) => ({
        event_id: message.event_id,
        lamport: message.lamport,
        from: message.from,
        created_at: message.created_at,
        data: message.data,
        ...(message.delivered_at === undefined ? {} : { delivered_at: message.delivered_at }),
        ...(message.read_at === undefined ? {} : { read_at: message.read_at }),
      }))
      .sort(byKey('event_id')),
    head_lamport: state.headLamport ?? null,
  };
}

/**
 * A fresh replay state of `communityId` holding `records` (already checked against
 * {@link snapshotRecordsSchema}), deep-copied so that applying later events never touches them.
 */
export function replayStateFromRecords(communityId: string, records: SnapshotRecords): MutableReplayState {
  const copy = structuredClone(records);
  const state = createReplayState(communityId);
  state.community = copy.community === null ? undefined : (copy.community as CommunityRecord);
  for (const member of copy.members) state.members.set(member.node_id, member as MemberRecord);
  for (const revoked of copy.revoked) state.revoked.set(revoked.node_id, revoked as RevokedRecord);
  for (const invite of copy.invites) state.invites.set(invite.event_id, invite as InviteRecord);
  for (const post of copy.posts) {
    state.posts.set(post.event_id, post as PostRecord);
    state.clientIds.add(clientKey('post', post.author, post.data.client_id));
  }
  for (const message of copy.messages) {
    state.messages.set(message.event_id, message as MessageRecord);
    state.clientIds.add(clientKey('message', message.from, message.data.client_id));
  }
  state.headLamport = copy.head_lamport ?? undefined;
  return state;
}
