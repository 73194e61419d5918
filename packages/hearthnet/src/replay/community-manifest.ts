import { z } from 'zod';
import { canonicalJsonString } from '../canonical-json/index.js';
import type { HearthNetErrorCode } from '../capabilities/hearthnet-errors.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { signPayload, verifyPayload } from '../crypto/payload-signature.js';
import { HearthNetLocalError } from '../errors.js';
import { communityPolicySchema, MEMBER_LEVELS } from '../events/event-data.js';
import { countSchema, nodeIdSchema, signatureSchema, timestampSchema } from '../manifests/field-schemas.js';
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
