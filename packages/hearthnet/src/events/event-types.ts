/** The event types of contract §7.2, in its order (`federation.*` are reserved for Phase 2). */
export const CONTRACT_EVENT_TYPES = [
  'community.created',
  'community.member.invited',
  'community.member.joined',
  'community.member.revoked',
  'community.member.promoted',
  'community.member.demoted',
  'community.policy.updated',
  'node.manifest.updated',
  'market.post.created',
  'market.post.updated',
  'market.post.expired',
  'chat.message.sent',
  'chat.message.delivered',
  'chat.message.read',
  'file.cid.advertised',
  'file.cid.unpinned',
  'rag.document.ingested',
  'federation.peer.added',
  'federation.peer.removed',
] as const;

/**
 * The three types the reference accepts beyond the contract (`hearthnet/events/types.py`). It defines
 * no payload and produces none of them; they are accepted so reference logs can be read.
 */
export const REFERENCE_EXTRA_EVENT_TYPES = [
  'community.member.left',
  'community.member.removed',
  'file.advertised',
] as const;

/** Types reserved by the contract for Phase 2: their `data` is any JSON object. */
export const RESERVED_EVENT_TYPES = ['federation.peer.added', 'federation.peer.removed'] as const;

/** Every event type this SDK reads and writes (22, the reference's closed set). */
export const EVENT_TYPES = [...CONTRACT_EVENT_TYPES, ...REFERENCE_EXTRA_EVENT_TYPES] as const;

/** An event type of {@link EVENT_TYPES}. */
export type EventType = (typeof EVENT_TYPES)[number];

const known: ReadonlySet<string> = new Set(EVENT_TYPES);

/** Whether `value` is one of the {@link EVENT_TYPES}. */
export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && known.has(value);
}
