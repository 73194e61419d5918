import type { TrustLevel } from '../../capabilities/index.js';

/**
 * Where a caller stands in the community: `unknown` (not a member), `member`, `trusted`, `anchor`
 * (the levels of the reference's `types.py`), or `revoked`.
 */
export type TrustStatus = 'unknown' | 'member' | 'trusted' | 'anchor' | 'revoked';

/**
 * Tells the bus handler how far it trusts a caller. `nodeId` is the verified caller, or `undefined`
 * for an unsigned request that the handler was told to accept (reference compat).
 */
export interface TrustPolicy {
  trustOf(nodeId: string | undefined): TrustStatus | Promise<TrustStatus>;
}

const rank: { readonly [S in TrustStatus]: number } = {
  revoked: -1,
  unknown: 0,
  member: 1,
  trusted: 2,
  anchor: 3,
};

/** Whether a caller's status meets a capability's required level (anchors are trusted too). */
export function meetsTrustLevel(status: TrustStatus, required: TrustLevel): boolean {
  return rank[status] >= rank[required];
}

/** Whether a value is one of the {@link TrustStatus} names. */
export function isTrustStatus(value: unknown): value is TrustStatus {
  return typeof value === 'string' && Object.hasOwn(rank, value);
}

/**
 * A fixed {@link TrustPolicy}: the status of each listed node id, `fallback` for the rest (and for
 * unsigned callers).
 *
 * @example
 * const trust = staticTrust({ [alice.nodeId]: 'trusted', [bob.nodeId]: 'member' });
 */
export function staticTrust(
  statuses: { readonly [nodeId: string]: TrustStatus },
  fallback: TrustStatus = 'unknown',
): TrustPolicy {
  const table = new Map(Object.entries(statuses));
  return { trustOf: (nodeId) => (nodeId === undefined ? fallback : (table.get(nodeId) ?? fallback)) };
}
