import { z } from 'zod';
import {
  contentIdSchema,
  countSchema,
  jsonObjectSchema,
  nodeIdSchema,
  signatureSchema,
  signedNodeManifestSchema,
  timestampSchema,
} from '../manifests/index.js';
import type { EventType } from './event-types.js';
import { isUlid } from './ulid.js';

// Every data schema keeps unknown keys: the signature covers them, and a later minor contract
// version may add fields. Only the fields the contract names are checked.

const ulidSchema = z.string().refine(isUlid, { message: 'expected a ULID (26 Crockford base32 characters)' });
const nonEmpty = z.string().min(1);

/** Member trust levels of a community (contract §6.2, reference `types.py`). */
export const MEMBER_LEVELS = ['member', 'trusted', 'anchor'] as const;
/** A member trust level. */
export type MemberLevel = (typeof MEMBER_LEVELS)[number];
const levelSchema = z.enum(MEMBER_LEVELS);

/** A community policy (contract §6.2 `policy`); every field is required. */
export const communityPolicySchema = z.looseObject({
  min_signatures_to_invite: countSchema,
  min_signatures_to_demote: countSchema,
  min_signatures_to_revoke: countSchema,
  capability_token_ttl_seconds: countSchema,
  federation_enabled: z.boolean(),
  default_member_can_invite: z.boolean(),
});

/** One co-signature of a revoke, promote or demote (`{node_id, signature}`). */
export const coSignerSchema = z.looseObject({ node_id: nodeIdSchema, signature: signatureSchema });

/** Market post categories (contract §4.11–§4.12). */
export const MARKET_CATEGORIES = ['offer', 'request', 'info', 'emergency'] as const;

/** Why a market post ended (contract §7.2 `market.post.expired`). */
export const MARKET_EXPIRY_REASONS = ['fulfilled', 'withdrawn', 'user_request', 'stale'] as const;

/** A post location; the contract names the longitude `lng` (the reference writes `lon`). */
export const locationSchema = z.looseObject({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  label: z.string().optional(),
});

const targetMember = {
  target_node_id: nodeIdSchema,
  new_level: levelSchema,
  co_signers: z.array(coSignerSchema),
};

/** The `data` schema of every event type (contract §7.2 and the reference's extra types). */
export const eventDataSchemas = {
  'community.created': z.looseObject({
    name: nonEmpty,
    founder_node_id: nodeIdSchema,
    policy: communityPolicySchema,
  }),
  'community.member.invited': z.looseObject({
    invitee_node_id: nodeIdSchema,
    display_name: z.string(),
    initial_level: levelSchema,
    expires_at: timestampSchema,
  }),
  'community.member.joined': z.looseObject({
    invite_event_id: ulidSchema,
    node_manifest: signedNodeManifestSchema,
  }),
  'community.member.revoked': z.looseObject({
    target_node_id: nodeIdSchema,
    reason: z.string(),
    co_signers: z.array(coSignerSchema),
  }),
  'community.member.promoted': z.looseObject(targetMember),
  'community.member.demoted': z.looseObject(targetMember),
  'community.policy.updated': z.looseObject({ policy: communityPolicySchema }),
  'node.manifest.updated': z.looseObject({ manifest: signedNodeManifestSchema }),
  'market.post.created': z.looseObject({
    client_id: nonEmpty,
    category: z.enum(MARKET_CATEGORIES),
    title: nonEmpty,
    body: z.string().optional(),
    location: locationSchema.optional(),
    tags: z.array(z.string()).optional(),
    ttl_seconds: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  }),
  'market.post.updated': z.looseObject({
    client_id: nonEmpty,
    target_event_id: ulidSchema,
    fields: jsonObjectSchema,
  }),
  'market.post.expired': z.looseObject({
    client_id: nonEmpty,
    target_event_id: ulidSchema,
    reason: z.enum(MARKET_EXPIRY_REASONS),
  }),
  'chat.message.sent': z.looseObject({
    client_id: nonEmpty,
    recipient: nodeIdSchema,
    body: z.string(),
    attachments: z.array(z.looseObject({ cid: contentIdSchema, name: z.string() })).optional(),
  }),
  'chat.message.delivered': z.looseObject({ target_event_id: ulidSchema, delivered_at: timestampSchema }),
  'chat.message.read': z.looseObject({ target_event_id: ulidSchema, read_at: timestampSchema }),
  // `sizes_bytes` is the contract's spelling.
  'file.cid.advertised': z.looseObject({ cid: contentIdSchema, sizes_bytes: countSchema }),
  'file.cid.unpinned': z.looseObject({ cid: contentIdSchema }),
  'rag.document.ingested': z.looseObject({
    corpus: nonEmpty,
    doc_cid: contentIdSchema,
    title: z.string(),
    language: z.string(),
    chunks: countSchema,
  }),
  'federation.peer.added': jsonObjectSchema,
  'federation.peer.removed': jsonObjectSchema,
  // The reference names these types but defines no payload: the fields below are optional.
  'community.member.left': z.looseObject({ reason: z.string().optional() }),
  'community.member.removed': z.looseObject({
    target_node_id: nodeIdSchema.optional(),
    reason: z.string().optional(),
  }),
  'file.advertised': z.looseObject({ cid: contentIdSchema.optional(), size_bytes: countSchema.optional() }),
} as const satisfies { readonly [T in EventType]: z.ZodType };

/** The `data` of an event of type `T`. */
export type EventData<T extends EventType = EventType> = z.infer<(typeof eventDataSchemas)[T]>;
/** A community policy. */
export type CommunityPolicy = z.infer<typeof communityPolicySchema>;
/** A co-signature. */
export type CoSigner = z.infer<typeof coSignerSchema>;
