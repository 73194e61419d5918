/**
 * Connection ids sort by when the connection was accepted: `<ms, base 36, 9 digits>-<sequence, base 36,
 * 7 digits>-<instance id>`. A `takeover` from a connection whose id sorts before this one's is stale
 * (it lost a race with this newer one) and is ignored; ordering across instances relies on their clocks.
 */
const ORDER_PREFIX = /^[0-9a-z]{9}-[0-9a-z]{7}-/;

/** A new connection id for `instanceId`, accepted at `nowMs`, the `sequence`-th of this instance. */
export function newConnectionId(instanceId: string, nowMs: number, sequence: number): string {
  const time = Math.max(0, Math.floor(nowMs)).toString(36).padStart(9, '0');
  return `${time}-${sequence.toString(36).padStart(7, '0')}-${instanceId}`;
}

/**
 * Whether the connection `other` was accepted before `mine`: `false` when `other` is newer or is not
 * an id in this form (a takeover that cannot be ordered wins).
 */
export function acceptedBefore(other: string, mine: string): boolean {
  if (!ORDER_PREFIX.test(other) || !ORDER_PREFIX.test(mine)) return false;
  return other.slice(0, 17) < mine.slice(0, 17);
}
