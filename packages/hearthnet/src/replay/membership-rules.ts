import { z } from 'zod';
import { canonicalJson } from '../canonical-json/canonical-json.js';
import type { HearthNetErrorCode } from '../capabilities/hearthnet-errors.js';
import { ed25519Sign, ed25519Verify } from '../crypto/ed25519.js';
import { ED25519_PREFIX, type KeyPair, parseNodeId } from '../crypto/key-pair.js';
import { verifyPayload } from '../crypto/payload-signature.js';
import { base64UrlDecode, base64UrlEncode } from '../encoding.js';
import { type CoSigner, coSignerSchema, type MemberLevel, type SignedEvent } from '../events/event.js';
import { parseTimestamp } from '../manifests/node-manifest.js';
import type { EventRule } from './replay-state.js';
import {
  AUTHORISED,
  type Authorisation,
  isTrusted,
  levelRank,
  type MutableReplayState,
  type ReplayRejectionReason,
  type ReplayState,
  refuse,
} from './replay-state.js';

/** Signatures a promotion needs (contract §7.2: "1 promote"); the policy has no field for it. */
export const PROMOTE_SIGNATURES = 1;

type MembershipType =
  | 'community.created'
  | 'community.member.invited'
  | 'community.member.joined'
  | 'community.member.revoked'
  | 'community.member.promoted'
  | 'community.member.demoted'
  | 'community.policy.updated'
  | 'node.manifest.updated'
  | 'community.member.left'
  | 'community.member.removed';

/** The policy in force (replay checks that the community exists before any rule runs). */
function policyOf(state: ReplayState) {
  return state.community!.policy;
}

/** Whether `nodeId` may invite: any member when `default_member_can_invite`, else trusted and above (§4.17). */
function canInvite(state: ReplayState, nodeId: string): boolean {
  return state.members.has(nodeId) && (policyOf(state).default_member_can_invite || isTrusted(state, nodeId));
}

function levelOf(state: ReplayState, nodeId: string): MemberLevel | undefined {
  return state.members.get(nodeId)?.level;
}

/** The checks a revoke, promote or demote makes of its target: not the root, not revoked, a member. */
function checkTarget(event: SignedEvent, target: string, state: ReplayState): Authorisation {
  if (target === state.communityId) {
    return refuse(event.event_id, 'target_is_root', 'bad_request', "the root key's membership cannot change");
  }
  if (state.revoked.has(target)) {
    return refuse(event.event_id, 'target_revoked', 'revoked', `${target} is revoked`);
  }
  if (!state.members.has(target)) {
    return refuse(event.event_id, 'target_not_found', 'not_found', `${target} is not a member`);
  }
  return AUTHORISED;
}

function requireTrustedAuthor(event: SignedEvent, state: ReplayState): Authorisation {
  return isTrusted(state, event.author)
    ? AUTHORISED
    : refuse(
        event.event_id,
        'insufficient_level',
        'unauthorized',
        `${event.event_type} needs a trusted author`,
      );
}

/** The first refusal of `checks`, run in order, or authorised. */
function firstRefusal(...checks: readonly (() => Authorisation)[]): Authorisation {
  for (const check of checks) {
    const verdict = check();
    if (!verdict.authorised) return verdict;
  }
  return AUTHORISED;
}

/** Membership, policy and node-manifest events (contract §7.2). */
export const membershipRules: { readonly [T in MembershipType]: EventRule<T> } = {
  'community.created': {
    // Founder once: the first event, by the root key, naming itself as founder.
    authorise(event, state) {
      if (state.community !== undefined) {
        return refuse(event.event_id, 'community_exists', 'unauthorized', 'the community is already created');
      }
      if (event.author !== state.communityId || event.data.founder_node_id !== event.author) {
        return refuse(event.event_id, 'not_root', 'unauthorized', 'only the root key founds its community');
      }
      return AUTHORISED;
    },
    apply(event, state) {
      state.community = {
        name: event.data.name,
        root_key: event.author,
        created_at: event.wall_clock,
        lamport_at_creation: event.lamport,
        policy: event.data.policy,
      };
      state.members.set(event.author, {
        node_id: event.author,
        level: 'anchor',
        added_at: event.wall_clock,
        added_by: event.author,
      });
    },
  },
  'community.member.invited': {
    authorise(event, state) {
      const { invitee_node_id: invitee, initial_level: level } = event.data;
      const policy = policyOf(state);
      return firstRefusal(
        () =>
          canInvite(state, event.author)
            ? AUTHORISED
            : refuse(
                event.event_id,
                'cannot_invite',
                'unauthorized',
                'the policy lets only trusted members invite',
              ),
        () =>
          levelRank(level) <= levelRank(levelOf(state, event.author)!)
            ? AUTHORISED
            : refuse(
                event.event_id,
                'insufficient_level',
                'unauthorized',
                `cannot invite above one's own level`,
              ),
        () =>
          state.revoked.has(invitee)
            ? refuse(event.event_id, 'target_revoked', 'revoked', `${invitee} is revoked`)
            : AUTHORISED,
        () =>
          state.members.has(invitee)
            ? refuse(event.event_id, 'already_member', 'bad_request', `${invitee} is already a member`)
            : AUTHORISED,
        () => checkSigners(event, policy.min_signatures_to_invite, (id) => canInvite(state, id)),
      );
    },
    apply(event, state) {
      state.invites.set(event.event_id, {
        event_id: event.event_id,
        inviter: event.author,
        invitee: event.data.invitee_node_id,
        initial_level: event.data.initial_level,
        expires_at: event.data.expires_at,
      });
    },
  },
  'community.member.joined': {
    // By the invitee, with its own signed node manifest, before the invite expires (judged by the
    // event's wall_clock: replay has no other clock).
    authorise(event, state) {
      const invite = state.invites.get(event.data.invite_event_id);
      const manifest = event.data.node_manifest;
      if (state.members.has(event.author)) {
        return refuse(event.event_id, 'already_member', 'bad_request', `${event.author} is already a member`);
      }
      if (invite === undefined) {
        return refuse(event.event_id, 'invite_not_found', 'not_found', 'no pending invite with this id');
      }
      if (invite.invitee !== event.author) {
        return refuse(event.event_id, 'not_invitee', 'unauthorized', 'the invite is for another node');
      }
      if (parseTimestamp(event.wall_clock) >= parseTimestamp(invite.expires_at)) {
        return refuse(
          event.event_id,
          'invite_expired',
          'expired',
          `the invite expired at ${invite.expires_at}`,
        );
      }
      return ownManifestCheck(event, manifest, state, {
        reason: 'manifest_mismatch',
        code: 'bad_request',
        message: 'node_manifest is not the author’s',
      });
    },
    apply(event, state) {
      const invite = state.invites.get(event.data.invite_event_id)!;
      state.invites.delete(invite.event_id);
      state.members.set(event.author, {
        node_id: event.author,
        level: invite.initial_level,
        added_at: event.wall_clock,
        added_by: invite.inviter,
      });
    },
  },
  'community.member.revoked': {
    authorise(event, state) {
      const target = event.data.target_node_id;
      return firstRefusal(
        () => requireTrustedAuthor(event, state),
        () =>
          state.revoked.has(target)
            ? refuse(event.event_id, 'already_revoked', 'bad_request', `${target} is already revoked`)
            : AUTHORISED,
        () =>
          target === state.communityId
            ? refuse(event.event_id, 'target_is_root', 'bad_request', 'the root key cannot be revoked')
            : AUTHORISED,
        () =>
          state.members.has(target) || [...state.invites.values()].some((invite) => invite.invitee === target)
            ? AUTHORISED
            : refuse(
                event.event_id,
                'target_not_found',
                'not_found',
                `${target} is neither member nor invitee`,
              ),
        () => checkSigners(event, policyOf(state).min_signatures_to_revoke, (id) => isTrusted(state, id)),
      );
    },
    // The target leaves the members for good; invites to it or by it that are still pending lapse.
    apply(event, state) {
      const target = event.data.target_node_id;
      state.members.delete(target);
      state.revoked.set(target, { node_id: target, revoked_at: event.wall_clock });
      for (const [id, invite] of state.invites) {
        if (invite.invitee === target || invite.inviter === target) state.invites.delete(id);
      }
    },
  },
  'community.member.promoted': {
    authorise(event, state) {
      const { target_node_id: target, new_level: level } = event.data;
      return firstRefusal(
        () => requireTrustedAuthor(event, state),
        () => checkTarget(event, target, state),
        () =>
          levelRank(level) > levelRank(levelOf(state, target)!)
            ? AUTHORISED
            : refuse(
                event.event_id,
                'invalid_level_change',
                'bad_request',
                `a promotion must raise the level`,
              ),
        () =>
          levelRank(level) <= levelRank(levelOf(state, event.author)!)
            ? AUTHORISED
            : refuse(
                event.event_id,
                'insufficient_level',
                'unauthorized',
                `cannot promote above one's own level`,
              ),
        () => checkSigners(event, PROMOTE_SIGNATURES, (id) => isTrusted(state, id)),
      );
    },
    apply(event, state) {
      setLevel(state, event.data.target_node_id, event.data.new_level);
    },
  },
  'community.member.demoted': {
    authorise(event, state) {
      const { target_node_id: target, new_level: level } = event.data;
      return firstRefusal(
        () => requireTrustedAuthor(event, state),
        () => checkTarget(event, target, state),
        () =>
          levelRank(level) < levelRank(levelOf(state, target)!)
            ? AUTHORISED
            : refuse(
                event.event_id,
                'invalid_level_change',
                'bad_request',
                `a demotion must lower the level`,
              ),
        () => checkSigners(event, policyOf(state).min_signatures_to_demote, (id) => isTrusted(state, id)),
      );
    },
    apply(event, state) {
      setLevel(state, event.data.target_node_id, event.data.new_level);
    },
  },
  'community.policy.updated': {
    authorise(event, state) {
      return event.author === state.communityId
        ? AUTHORISED
        : refuse(event.event_id, 'not_root', 'unauthorized', 'only the root key updates the policy');
    },
    apply(event, state) {
      state.community!.policy = event.data.policy;
    },
  },
  'node.manifest.updated': {
    // Advisory (no view changes), but only about the author's own node, signed by it.
    authorise(event, state) {
      return ownManifestCheck(event, event.data.manifest, state, {
        reason: 'not_manifest_owner',
        code: 'unauthorized',
        message: 'a node publishes only its own manifest',
      });
    },
    apply() {},
  },
  'community.member.left': {
    // Reference-only type: the author leaves (it is not revoked and may be invited again).
    authorise(event, state) {
      return event.author === state.communityId
        ? refuse(event.event_id, 'target_is_root', 'bad_request', 'the root key cannot leave its community')
        : AUTHORISED;
    },
    apply(event, state) {
      state.members.delete(event.author);
    },
  },
  'community.member.removed': {
    // Reference-only type with no producer rule: removal goes through a co-signed revocation.
    authorise(event) {
      return refuse(
        event.event_id,
        'unsupported_event',
        'unauthorized',
        'community.member.removed is not accepted; revoke with community.member.revoked',
      );
    },
    apply() {},
  },
};

function setLevel(state: MutableReplayState, nodeId: string, level: MemberLevel): void {
  const member = state.members.get(nodeId);
  if (member !== undefined) member.level = level;
}

/** How a rule refuses a manifest about another node than the event's author. */
interface NotOwnManifest {
  readonly reason: ReplayRejectionReason;
  readonly code: HearthNetErrorCode;
  readonly message: string;
}

/**
 * A node manifest carried by an event must be the author's own (`notOwn` says how to refuse one that
 * is not), name this community, and be signed by the author.
 */
function ownManifestCheck(
  event: SignedEvent,
  manifest: { readonly node_id: string; readonly community_id: string },
  state: ReplayState,
  notOwn: NotOwnManifest,
): Authorisation {
  if (manifest.node_id !== event.author) {
    return refuse(event.event_id, notOwn.reason, notOwn.code, notOwn.message);
  }
  if (manifest.community_id !== state.communityId) {
    return refuse(
      event.event_id,
      'wrong_community',
      'bad_request',
      'the node manifest names another community',
    );
  }
  if (!verifyPayload(manifest, event.author).valid) {
    return refuse(
      event.event_id,
      'invalid_signature',
      'invalid_signature',
      'the node manifest is not signed by its author',
    );
  }
  return AUTHORISED;
}

const coSignersSchema = z.array(coSignerSchema);

/**
 * Checks that an event carries at least `required` distinct eligible signers over its intent (`data`
 * without `co_signers`, contract §4.18). The author counts as one signer when eligible: the event
 * signature covers the intent. Every entry of `data.co_signers` must verify (`invalid_co_signature`,
 * even from a node that would not count); an entry by a node that is not `eligible` is not counted,
 * and a node counts once however often it signs.
 */
export function checkSigners(
  event: SignedEvent,
  required: number,
  eligible: (nodeId: string) => boolean,
): Authorisation {
  const data = event.data as Readonly<Record<string, unknown>>;
  const parsed = coSignersSchema.safeParse(data['co_signers'] ?? []);
  if (!parsed.success) {
    return refuse(
      event.event_id,
      'invalid_data',
      'bad_request',
      'co_signers must be a list of {node_id, signature}',
    );
  }
  const signers = new Set<string>();
  if (eligible(event.author)) signers.add(event.author);
  for (const coSigner of parsed.data) {
    if (!verifyCoSignature(data, coSigner)) {
      return refuse(
        event.event_id,
        'invalid_co_signature',
        'invalid_signature',
        `the co-signature of ${coSigner.node_id} does not verify over the intent`,
      );
    }
    if (eligible(coSigner.node_id)) signers.add(coSigner.node_id);
  }
  if (signers.size < required) {
    return refuse(
      event.event_id,
      'insufficient_signatures',
      'unauthorized',
      `${event.event_type} needs ${required} distinct trusted signers, got ${signers.size}`,
    );
  }
  return AUTHORISED;
}

/** The field of `data` that carries co-signatures; it is left out of what co-signers sign. */
const CO_SIGNERS_FIELD = 'co_signers';

/**
 * The bytes a co-signer signs (contract §4.18): the canonical JSON of the event's `data` without
 * `co_signers`, so every co-signer signs the same intent independently of the others.
 *
 * @throws {HearthNetLocalError} when `data` holds something canonical JSON cannot encode.
 */
export function coSignatureIntent(data: Readonly<Record<string, unknown>>): Uint8Array {
  const intent: Record<string, unknown> = {};
  for (const key of Object.keys(data)) {
    if (key !== CO_SIGNERS_FIELD) intent[key] = data[key];
  }
  return canonicalJson(intent);
}

/**
 * Co-signs the intent of a revoke, promote or demote (`data` without `co_signers`) with `key`.
 *
 * @throws {HearthNetLocalError} when `data` holds something canonical JSON cannot encode.
 * @example
 * const intent = { target_node_id: mallory.nodeId, reason: 'compromised' };
 * const co_signers = [alice, bob, carol].map((key) => coSign(intent, key));
 * createEvent({ ..., event_type: 'community.member.revoked', data: { ...intent, co_signers } }, alice);
 */
export function coSign(data: Readonly<Record<string, unknown>>, key: KeyPair): CoSigner {
  const signature = ed25519Sign(coSignatureIntent(data), key.secretKey);
  return { node_id: key.nodeId, signature: ED25519_PREFIX + base64UrlEncode(signature) };
}

/**
 * Whether `coSigner.signature` is `coSigner.node_id`'s signature over the intent of `data`. Never
 * throws: a malformed node id or signature is `false`.
 */
export function verifyCoSignature(data: Readonly<Record<string, unknown>>, coSigner: CoSigner): boolean {
  try {
    const publicKey = parseNodeId(coSigner.node_id);
    if (!coSigner.signature.startsWith(ED25519_PREFIX)) return false;
    const signature = base64UrlDecode(coSigner.signature.slice(ED25519_PREFIX.length));
    return ed25519Verify(signature, coSignatureIntent(data), publicKey);
  } catch {
    return false;
  }
}
