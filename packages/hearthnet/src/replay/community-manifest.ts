import { z } from 'zod';
import { canonicalJsonString } from '../canonical-json/canonical-json.js';
import type { HearthNetErrorCode } from '../capabilities/hearthnet-errors.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { signPayload, verifyPayload } from '../crypto/payload-signature.js';
import { HearthNetLocalError } from '../errors.js';
import { communityPolicySchema, MEMBER_LEVELS } from '../events/event.js';
import type { EventStore } from '../events/event-store.js';
import { countSchema, nodeIdSchema, signatureSchema, timestampSchema } from '../manifests/node-manifest.js';
import type { TrustPolicy, TrustStatus } from '../wire/bus-handler.js';
import { replay } from './replay.js';
import type { MembershipView } from './views.js';

/** `version` of the community manifests this SDK writes and reads (contract §6.2). */
export const COMMUNITY_MANIFEST_VERSION = 1;

/** A community manifest (contract §6.2): the membership view at `head_lamport`, signed. */
export type SignedCommunityManifest = {
  readonly version: typeof COMMUNITY_MANIFEST_VERSION;
} & MembershipView & {
    readonly signature: string;
  };

/** The shape of a §6.2 community manifest; no other field is allowed. */
export const communityManifestSchema = z.strictObject({
  version: z.literal(COMMUNITY_MANIFEST_VERSION),
  community_id: nodeIdSchema,
  name: z.string(),
  root_key: nodeIdSchema,
  created_at: timestampSchema,
  lamport_at_creation: countSchema,
  policy: communityPolicySchema,
  members: z.array(
    z.strictObject({
      node_id: nodeIdSchema,
      level: z.enum(MEMBER_LEVELS),
      added_at: timestampSchema,
      added_by: nodeIdSchema,
    }),
  ),
  revoked: z.array(z.strictObject({ node_id: nodeIdSchema, revoked_at: timestampSchema })),
  head_lamport: countSchema,
  signature: signatureSchema,
});

/** Options of {@link buildCommunityManifest}. */
export interface BuildCommunityManifestOptions {
  /** The community: the full node id of its root key. */
  readonly communityId: string;
  /** Derive from the events with `lamport <= headLamport` (default: all). */
  readonly headLamport?: number;
}

/**
 * Derives the community manifest (contract §6.2) from the event log: replays the events up to
 * `headLamport` and signs the membership view with `version` 1. `head_lamport` is the highest Lamport
 * value applied. The signer must be the root key or an anchor at that head.
 *
 * @throws {HearthNetLocalError} `community_not_created` when no valid `community.created` replays up to the
 *   head.
 * @throws {HearthNetLocalError} `unauthorized_signer` when `key` is neither the root key nor an anchor.
 * @throws {HearthNetLocalError} `invalid_replay_options` for a bad `communityId` or `headLamport`.
 * @example
 * const manifest = buildCommunityManifest(await store.list(communityId), anchorKey, { communityId });
 * verifyCommunityManifest(manifest, await store.list(communityId)); // { valid: true, … }
 */
export function buildCommunityManifest(
  events: Iterable<unknown>,
  key: KeyPair,
  options: BuildCommunityManifestOptions,
): SignedCommunityManifest {
  const { communityId, headLamport } = options;
  const membership = replay(events, {
    communityId,
    ...(headLamport === undefined ? {} : { upToLamport: headLamport }),
  }).views.membership;
  if (membership === null) {
    throw new HearthNetLocalError(
      'community_not_created',
      `no valid community.created for ${communityId} up to the head`,
    );
  }
  if (!mayRegenerate(membership, key.nodeId))
    throw new HearthNetLocalError(
      'unauthorized_signer',
      `${key.nodeId} is neither the root key nor an anchor of the community`,
      { details: { nodeId: key.nodeId } },
    );
  return signPayload({ version: COMMUNITY_MANIFEST_VERSION, ...membership }, key) as SignedCommunityManifest;
}

/**
 * Why a community manifest was refused, and its contract §9 code:
 * - `malformed` (`bad_request`): not the §6.2 shape;
 * - `community_not_created` (`not_found`): the events hold no valid `community.created` up to its head;
 * - `mismatch` (`bad_request`): it differs from the view the events give at `head_lamport`;
 * - `invalid_signature` (`invalid_signature`): not signed by the root key nor by an anchor at the head.
 */
export type CommunityManifestRejectionReason =
  | 'malformed'
  | 'community_not_created'
  | 'mismatch'
  | 'invalid_signature';

/** The verdict of {@link verifyCommunityManifest}. */
export type CommunityManifestVerdict =
  | { readonly valid: true; readonly manifest: SignedCommunityManifest; readonly signer: string }
  | {
      readonly valid: false;
      readonly reason: CommunityManifestRejectionReason;
      readonly code: HearthNetErrorCode;
      readonly message: string;
    };

/**
 * Verifies a community manifest against the event log (contract §6.2): its shape, then that
 * replaying the events with `lamport <= head_lamport` gives exactly its contents, then that it is
 * signed by the root key or by an anchor at that head. `signer` is the node id whose signature
 * verified. Never throws.
 *
 * @example
 * const verdict = verifyCommunityManifest(JSON.parse(body), await store.list(communityId));
 * if (!verdict.valid) console.log(verdict.reason);
 */
export function verifyCommunityManifest(
  manifest: unknown,
  events: Iterable<unknown>,
): CommunityManifestVerdict {
  const parsed = communityManifestSchema.safeParse(manifest);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refused(
      'malformed',
      'bad_request',
      `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const claimed = manifest as SignedCommunityManifest;
  const membership = replay(events, {
    communityId: claimed.community_id,
    upToLamport: claimed.head_lamport,
  }).views.membership;
  if (membership === null) {
    return refused('community_not_created', 'not_found', 'the events hold no valid community.created');
  }
  const derived: Readonly<Record<string, unknown>> = { version: COMMUNITY_MANIFEST_VERSION, ...membership };
  for (const field of Object.keys(derived)) {
    const expected = canonicalJsonString(derived[field]);
    const actual = canonicalJsonString((claimed as unknown as Record<string, unknown>)[field]);
    if (expected !== actual) {
      return refused(
        'mismatch',
        'bad_request',
        `${field} differs from the view at lamport ${claimed.head_lamport}`,
      );
    }
  }
  const candidates = [membership.root_key, ...anchorsOf(membership)];
  const signer = candidates.find((nodeId) => verifyPayload(claimed, nodeId).valid);
  if (signer === undefined) {
    return refused('invalid_signature', 'invalid_signature', 'signed by neither the root key nor an anchor');
  }
  return { valid: true, manifest: claimed, signer };
}

function anchorsOf(membership: MembershipView): string[] {
  return membership.members.filter((member) => member.level === 'anchor').map((member) => member.node_id);
}

function mayRegenerate(membership: MembershipView, nodeId: string): boolean {
  return nodeId === membership.root_key || anchorsOf(membership).includes(nodeId);
}

function refused(
  reason: CommunityManifestRejectionReason,
  code: HearthNetErrorCode,
  message: string,
): CommunityManifestVerdict {
  return { valid: false, reason, code, message };
}

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
