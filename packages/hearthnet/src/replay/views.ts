import { canonicalJson } from '../canonical-json/canonical-json.js';
import type { CommunityPolicy, EventData, MemberLevel } from '../events/event.js';
import { compareEvents } from '../events/event-store.js';
import { blake3Hex } from '../hashing.js';
import { formatTimestamp, parseTimestamp } from '../manifests/node-manifest.js';
import type { ReplayState } from './replay-state.js';

/** A member in the membership view (contract §6.2 `members[]`). */
export interface MemberEntry {
  readonly node_id: string;
  readonly level: MemberLevel;
  readonly added_at: string;
  readonly added_by: string;
}

/** A revoked node in the membership view (contract §6.2 `revoked[]`). */
export interface RevokedEntry {
  readonly node_id: string;
  readonly revoked_at: string;
}

/**
 * The community membership view: the community manifest (contract §6.2) without `version` and
 * `signature`. Members and revoked nodes are sorted by `node_id`; `head_lamport` is the highest
 * Lamport value replay applied.
 */
export interface MembershipView {
  readonly community_id: string;
  readonly name: string;
  readonly root_key: string;
  readonly created_at: string;
  readonly lamport_at_creation: number;
  readonly policy: CommunityPolicy;
  readonly members: readonly MemberEntry[];
  readonly revoked: readonly RevokedEntry[];
  readonly head_lamport: number;
}

/** A current market post (contract §4.11 `posts[]`, plus `client_id`, `ttl_seconds` and `updated_lamport`). */
export interface MarketPostEntry {
  readonly event_id: string;
  readonly lamport: number;
  readonly author: string;
  readonly client_id: string;
  readonly category: EventData<'market.post.created'>['category'];
  readonly title: string;
  readonly body?: string;
  readonly location?: { readonly lat: number; readonly lng: number; readonly label?: string };
  readonly tags?: readonly string[];
  readonly ttl_seconds: number;
  readonly created_at: string;
  readonly expires_at: string;
  /** Lamport of the last `market.post.updated`, when there was one. */
  readonly updated_lamport?: number;
}

/** The marketplace-current view: posts neither expired by an event nor (at `now`) by their TTL, in replay order. */
export interface MarketplaceView {
  readonly posts: readonly MarketPostEntry[];
}

/** A chat message with its receipts (contract §4.16 `messages[]`, plus `client_id`). */
export interface ChatMessageEntry {
  readonly event_id: string;
  readonly lamport: number;
  readonly from: string;
  readonly to: string;
  readonly client_id: string;
  readonly body: string;
  readonly attachments: readonly { readonly cid: string; readonly name: string }[];
  readonly created_at: string;
  readonly delivered_at?: string;
  readonly read_at?: string;
}

/** The chat view: every message (sent / delivered / read), in replay order. */
export interface ChatView {
  readonly messages: readonly ChatMessageEntry[];
}

/** The three views replay materialises. `membership` is null until `community.created` is applied. */
export interface ReplayViews {
  readonly membership: MembershipView | null;
  readonly marketplace: MarketplaceView;
  readonly chat: ChatView;
}

const byNodeId = (a: { node_id: string }, b: { node_id: string }) =>
  a.node_id < b.node_id ? -1 : a.node_id > b.node_id ? 1 : 0;

/** The membership view of `state`, or null before the community exists. */
export function membershipView(state: ReplayState): MembershipView | null {
  const community = state.community;
  if (community === undefined) return null;
  return {
    community_id: state.communityId,
    name: community.name,
    root_key: community.root_key,
    created_at: community.created_at,
    lamport_at_creation: community.lamport_at_creation,
    policy: community.policy,
    members: [...state.members.values()]
      .map(({ node_id, level, added_at, added_by }) => ({ node_id, level, added_at, added_by }))
      .sort(byNodeId),
    revoked: [...state.revoked.values()]
      .map(({ node_id, revoked_at }) => ({ node_id, revoked_at }))
      .sort(byNodeId),
    head_lamport: state.headLamport ?? community.lamport_at_creation,
  };
}

/**
 * The marketplace view of `state`: posts not ended by `market.post.expired`, and when `now` (ms since
 * the epoch) is given, only those with `now < expires_at`.
 */
export function marketplaceView(state: ReplayState, now?: number): MarketplaceView {
  const posts: MarketPostEntry[] = [];
  for (const post of [...state.posts.values()].sort(compareEvents)) {
    const expiresAt = postExpiryMs(post.created_at, post.data.ttl_seconds)!;
    if (post.ended || (now !== undefined && now >= expiresAt)) continue;
    const { client_id, category, title, body, location, tags, ttl_seconds } = post.data;
    posts.push({
      event_id: post.event_id,
      lamport: post.lamport,
      author: post.author,
      client_id,
      category,
      title,
      ...(body === undefined ? {} : { body }),
      ...(location === undefined
        ? {}
        : {
            location: {
              lat: location.lat,
              lng: location.lng,
              ...(location.label === undefined ? {} : { label: location.label }),
            },
          }),
      ...(tags === undefined ? {} : { tags }),
      ttl_seconds,
      created_at: post.created_at,
      expires_at: formatInstant(expiresAt),
      ...(post.updated_lamport === undefined ? {} : { updated_lamport: post.updated_lamport }),
    });
  }
  return { posts };
}

/** The chat view of `state`. */
export function chatView(state: ReplayState): ChatView {
  const messages = [...state.messages.values()].sort(compareEvents).map(
    (message): ChatMessageEntry => ({
      event_id: message.event_id,
      lamport: message.lamport,
      from: message.from,
      to: message.data.recipient,
      client_id: message.data.client_id,
      body: message.data.body,
      attachments: (message.data.attachments ?? []).map(({ cid, name }) => ({ cid, name })),
      created_at: message.created_at,
      ...(message.delivered_at === undefined ? {} : { delivered_at: message.delivered_at }),
      ...(message.read_at === undefined ? {} : { read_at: message.read_at }),
    }),
  );
  return { messages };
}

/**
 * The hash of a view: `blake3:` + the lowercase hex BLAKE3 of its canonical JSON (contract §1.2,
 * §1.4). Two nodes with the same events have the same view hashes.
 *
 * @throws {HearthNetLocalError} when `view` holds something canonical JSON cannot encode.
 * @example
 * viewHash(replay(events, { communityId }).views.membership); // 'blake3:…'
 */
export function viewHash(view: unknown): string {
  return `blake3:${blake3Hex(canonicalJson(view))}`;
}

/** The longest `ttl_seconds` a post may have: 30 days (contract §4.12). */
export const MAX_POST_TTL_SECONDS = 30 * 86_400;

/** The latest instant a contract timestamp can write: 9999-12-31T23:59:59.999Z. */
const MAX_TIMESTAMP_MS = 253_402_300_799_999;

/** When a post made at `createdAt` with `ttlSeconds` ends, in ms; undefined when the TTL is out of range. */
export function postExpiryMs(createdAt: string, ttlSeconds: number): number | undefined {
  if (ttlSeconds > MAX_POST_TTL_SECONDS) return undefined;
  const expiresAt = parseTimestamp(createdAt) + ttlSeconds * 1000;
  return expiresAt <= MAX_TIMESTAMP_MS ? expiresAt : undefined;
}

/** A time in ms as a contract timestamp: whole seconds when it has no milliseconds, else with three digits. */
export function formatInstant(timeMs: number): string {
  return timeMs % 1000 === 0 ? formatTimestamp(timeMs) : new Date(timeMs).toISOString();
}
