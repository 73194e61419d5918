import { HearthNetLocalError } from '../errors.js';
import type { EventStore } from '../events/event-store.js';
import { nodeIdSchema } from '../manifests/field-schemas.js';
import type { TrustPolicy, TrustStatus } from '../wire/handler/trust.js';
import { replay } from './replay.js';

/** Options of {@link trustFromLog}. */
export interface TrustFromLogOptions {
  /** The node's event store. */
  readonly store: EventStore;
  /** The community whose membership decides: the full node id of its root key. */
  readonly communityId: string;
}

/**
 * A {@link TrustPolicy} read from the community's own log: a caller's status is its level in the
 * membership view that {@link replay} derives (`member`, `trusted`, `anchor`), `revoked` once a
 * revocation is applied, `unknown` otherwise (and for unsigned callers, and before
 * `community.created`). The view is rebuilt when the community's event count or head changes — every
 * accepted event, local or synced, takes effect on the next call — by replaying the whole log, so a
 * call after a change costs one replay; calls in between share the cached view.
 *
 * @throws {HearthNetLocalError} `invalid_replay_options` for a missing store or a `communityId` that is not a
 *   full node id.
 * @example
 * const handler = createBusHandler({ identity, registry, community, trust: trustFromLog({ store, communityId: community }) });
 */
export function trustFromLog(options: TrustFromLogOptions): TrustPolicy {
  const { store, communityId } = options ?? ({} as Partial<TrustFromLogOptions>);
  if (typeof store !== 'object' || store === null)
    throw new HearthNetLocalError('invalid_replay_options', 'a store is required');
  if (!nodeIdSchema.safeParse(communityId).success) {
    throw new HearthNetLocalError(
      'invalid_replay_options',
      `communityId must be a full node id, got ${String(communityId)}`,
    );
  }
  let cached: { readonly version: string; readonly statuses: ReadonlyMap<string, TrustStatus> } | undefined;
  let building:
    | { readonly version: string; readonly statuses: Promise<ReadonlyMap<string, TrustStatus>> }
    | undefined;

  const statusesAt = async (version: string): Promise<ReadonlyMap<string, TrustStatus>> => {
    const events = await store.list(communityId);
    const membership = replay(events, { communityId }).views.membership;
    const statuses = new Map<string, TrustStatus>();
    for (const member of membership?.members ?? []) statuses.set(member.node_id, member.level);
    for (const revoked of membership?.revoked ?? []) statuses.set(revoked.node_id, 'revoked');
    cached = { version, statuses };
    return statuses;
  };

  return {
    async trustOf(nodeId) {
      if (nodeId === undefined) return 'unknown';
      const version = `${await store.count(communityId)}:${(await store.head(communityId)) ?? -1}`;
      let statuses: ReadonlyMap<string, TrustStatus>;
      if (cached?.version === version) statuses = cached.statuses;
      else {
        if (building?.version !== version) {
          const pending = statusesAt(version);
          building = { version, statuses: pending };
          pending.then(
            () => {
              if (building?.statuses === pending) building = undefined;
            },
            () => {
              if (building?.statuses === pending) building = undefined;
            },
          );
        }
        statuses = await building!.statuses;
      }
      return statuses.get(nodeId) ?? 'unknown';
    },
  };
}
