import { z } from 'zod';
import { canonicalJsonString } from '../canonical-json/canonical-json.js';
import type { HearthNetErrorCode } from '../capabilities/hearthnet-errors.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { signPayload, verifyPayload } from '../crypto/payload-signature.js';
import type { SnapshotRejectionReason } from '../errors.js';
import { HearthNetLocalError } from '../errors.js';
import { communityPolicySchema, eventDataSchemas, MEMBER_LEVELS } from '../events/event.js';
import {
  countSchema,
  formatTimestamp,
  jsonObjectSchema,
  nodeIdSchema,
  signatureSchema,
  timestampSchema,
} from '../manifests/node-manifest.js';
import { type ReplayResult, replay, replayOnto } from '../replay/replay.js';
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
import {
  chatView,
  type MembershipView,
  marketplaceView,
  membershipView,
  type ReplayViews,
} from '../replay/views.js';

/** `schema_version` of the snapshots this SDK writes and reads (contract §7.5). */
export const SNAPSHOT_SCHEMA_VERSION = 1;

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

/** The shape of a §7.5 snapshot; no other field is allowed. */
export const snapshotSchema = z.strictObject({
  schema_version: z.literal(SNAPSHOT_SCHEMA_VERSION),
  community_id: nodeIdSchema,
  lamport: countSchema,
  wall_clock: timestampSchema,
  state: z.strictObject({ views: jsonObjectSchema, records: snapshotRecordsSchema }),
  covers_events_up_to: countSchema,
  signature: signatureSchema,
});

/**
 * A community snapshot (contract §7.5): the replayed state at Lamport `lamport`, covering every
 * event with `lamport <= covers_events_up_to` (the same value), signed by an anchor.
 */
export interface SignedSnapshot {
  readonly schema_version: typeof SNAPSHOT_SCHEMA_VERSION;
  readonly community_id: string;
  readonly lamport: number;
  /** When the snapshot was made (RFC 3339 UTC); informative. */
  readonly wall_clock: string;
  readonly state: SnapshotState;
  readonly covers_events_up_to: number;
  readonly signature: string;
}

/** Options of {@link buildSnapshot}. */
export interface BuildSnapshotOptions {
  /** The community: the full node id of its root key. */
  readonly communityId: string;
  /** Cover the events with `lamport <= atLamport`. Default: the highest Lamport value replay applies. */
  readonly atLamport?: number;
  /** The snapshot's `wall_clock`, in ms since the epoch. Default: now. */
  readonly now?: number;
}

/**
 * Makes a snapshot (contract §7.5): replays `events` up to `atLamport` and signs the state with
 * `key`, which must be an anchor of the community at that head.
 *
 * @throws {HearthNetLocalError} `community_not_created` when no valid `community.created` replays up to the
 *   head.
 * @throws {HearthNetLocalError} `unauthorized_signer` when `key` is not an anchor at the head.
 * @throws {HearthNetLocalError} `invalid_replay_options` for a bad `communityId`, `atLamport` or `now`.
 * @example
 * const snapshot = buildSnapshot(await store.list(communityId), anchorKey, { communityId });
 * const tail = await store.list(communityId, { fromLamport: snapshot.covers_events_up_to + 1 });
 * restoreSnapshot(snapshot, tail, { membership }).views; // the views of a full replay
 */
export function buildSnapshot(
  events: Iterable<unknown>,
  key: KeyPair,
  options: BuildSnapshotOptions,
): SignedSnapshot {
  const { communityId, atLamport, now = Date.now() } = options;
  if (typeof now !== 'number' || !Number.isFinite(now)) {
    throw new HearthNetLocalError(
      'invalid_replay_options',
      `now must be a finite number of milliseconds, got ${String(now)}`,
    );
  }
  const { state } = replay(events, {
    communityId,
    ...(atLamport === undefined ? {} : { upToLamport: atLamport }),
  });
  const membership = viewsOf(state).membership;
  if (membership === null) {
    throw new HearthNetLocalError(
      'community_not_created',
      `no valid community.created for ${communityId} up to the head`,
    );
  }
  if (!anchorsOf(membership).includes(key.nodeId))
    throw new HearthNetLocalError(
      'unauthorized_signer',
      `${key.nodeId} is not an anchor of the community at the snapshot's head`,
      { details: { nodeId: key.nodeId } },
    );
  const lamport = atLamport ?? membership.head_lamport;
  const unsigned = {
    schema_version: SNAPSHOT_SCHEMA_VERSION,
    community_id: communityId,
    lamport,
    wall_clock: formatTimestamp(now),
    state: snapshotStateOf(state),
    covers_events_up_to: lamport,
  };
  return signPayload(unsigned, key) as SignedSnapshot;
}

/**
 * What a verifier trusts to judge a snapshot's signer: the community's events (the signer must be an
 * anchor after replaying them up to the snapshot's head, and the snapshot's state must be exactly
 * that replay's), or a membership view it already trusts, such as a verified community manifest
 * (the signer must be an anchor there and in the snapshot's own membership).
 */
export type SnapshotTrust = { readonly events: Iterable<unknown> } | { readonly membership: MembershipView };

/** The verdict of {@link verifySnapshot}: `signer` is the anchor whose signature verified. */
export type SnapshotVerdict =
  | { readonly valid: true; readonly snapshot: SignedSnapshot; readonly signer: string }
  | {
      readonly valid: false;
      readonly reason: SnapshotRejectionReason;
      readonly code: HearthNetErrorCode;
      readonly message: string;
    };

/**
 * Verifies a snapshot (contract §7.5): its shape, that its views derive from its records, then its
 * signer against `trust` (`SnapshotTrust`): an anchor at the snapshot's head. Never throws.
 *
 * @example
 * const verdict = verifySnapshot(JSON.parse(body), { membership: verifiedManifest });
 * if (!verdict.valid) console.log(verdict.reason);
 */
export function verifySnapshot(snapshot: unknown, trust: SnapshotTrust): SnapshotVerdict {
  const parsed = snapshotSchema.safeParse(snapshot);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refused(
      'malformed',
      'bad_request',
      `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const claimed = snapshot as SignedSnapshot;
  if (claimed.covers_events_up_to !== claimed.lamport) {
    return refused('malformed', 'bad_request', 'covers_events_up_to differs from lamport');
  }
  const restored = replayStateFromRecords(claimed.community_id, claimed.state.records);
  const own = viewsOf(restored);
  if (own.membership === null || canonicalJsonString(own) !== canonicalJsonString(claimed.state.views)) {
    return refused('inconsistent_state', 'bad_request', 'the views are not those of the records');
  }
  let trusted: MembershipView;
  if ('events' in trust) {
    let replayed: ReplayResult;
    try {
      replayed = replay(trust.events, { communityId: claimed.community_id, upToLamport: claimed.lamport });
    } catch (error) {
      return refused('malformed', 'bad_request', error instanceof Error ? error.message : String(error));
    }
    const expected = snapshotStateOf(replayed.state).records;
    if (canonicalJsonString(expected) !== canonicalJsonString(claimed.state.records)) {
      return refused(
        'mismatch',
        'bad_request',
        `the state differs from the replay up to lamport ${claimed.lamport}`,
      );
    }
    trusted = own.membership;
  } else {
    if (trust.membership.community_id !== claimed.community_id) {
      return refused(
        'wrong_community',
        'bad_request',
        `the trusted membership is of ${trust.membership.community_id}`,
      );
    }
    trusted = trust.membership;
  }
  const ownAnchors = anchorsOf(own.membership);
  const signer = anchorsOf(trusted)
    .filter((nodeId) => ownAnchors.includes(nodeId))
    .find((nodeId) => verifyPayload(claimed, nodeId).valid);
  if (signer !== undefined) return { valid: true, snapshot: claimed, signer };
  const members = [...trusted.members, ...own.membership.members].map((member) => member.node_id);
  return members.some((nodeId) => verifyPayload(claimed, nodeId).valid)
    ? refused('signer_not_anchor', 'unauthorized', 'signed by a member that is not an anchor at the head')
    : refused('invalid_signature', 'invalid_signature', 'signed by no member of the community');
}

/** Options of {@link restoreSnapshot}: what to trust (`SnapshotTrust`) and the time for post TTLs. */
export type RestoreSnapshotOptions = SnapshotTrust & {
  /** Judge post TTLs at this time (ms since the epoch), as `replay`'s `now`. */
  readonly now?: number;
};

/**
 * Restores a verified snapshot and replays the events after it (contract §7.5): the result is what
 * `replay` gives for the whole log. Events at or below `covers_events_up_to` are ignored.
 *
 * @throws {HearthNetLocalError} `invalid_snapshot` when {@link verifySnapshot} refuses the snapshot.
 * @throws {HearthNetLocalError} `invalid_replay_options` when `now` is not a finite number.
 * @example
 * const { views } = restoreSnapshot(snapshot, tail, { membership: verifiedManifest, now: Date.now() });
 */
export function restoreSnapshot(
  snapshot: unknown,
  tail: Iterable<unknown>,
  options: RestoreSnapshotOptions,
): ReplayResult {
  const { now } = options;
  if (now !== undefined && (typeof now !== 'number' || !Number.isFinite(now))) {
    throw new HearthNetLocalError(
      'invalid_replay_options',
      `now must be a finite number of milliseconds, got ${String(now)}`,
    );
  }
  const verdict = verifySnapshot(snapshot, options);
  if (!verdict.valid)
    throw new HearthNetLocalError('invalid_snapshot', verdict.message, {
      details: { reason: verdict.reason },
    });
  const { community_id, state, covers_events_up_to } = verdict.snapshot;
  return replayOnto(replayStateFromRecords(community_id, state.records), tail, {
    afterLamport: covers_events_up_to,
    ...(now === undefined ? {} : { now }),
  });
}

function anchorsOf(membership: MembershipView): string[] {
  return membership.members.filter((member) => member.level === 'anchor').map((member) => member.node_id);
}

function refused(
  reason: SnapshotRejectionReason,
  code: HearthNetErrorCode,
  message: string,
): SnapshotVerdict {
  return { valid: false, reason, code, message };
}

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
