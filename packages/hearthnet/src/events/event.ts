import { isPlainObject } from '@agentwire/internal';
import { z } from 'zod';
import { formatJsonPath } from '../canonical-json/strict-json.js';
import type { HearthNetErrorCode } from '../capabilities/hearthnet-errors.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { signPayload, verifyPayload } from '../crypto/payload-signature.js';
import type { EventRejectionReason } from '../errors.js';
import { HearthNetLocalError } from '../errors.js';
import {
  contentIdSchema,
  countSchema,
  formatTimestamp,
  isFullNodeId,
  jsonObjectSchema,
  nodeIdSchema,
  signatureSchema,
  signedNodeManifestSchema,
  timestampSchema,
  tryParseTimestamp,
} from '../manifests/node-manifest.js';
import { createUlidFactory, isUlid, type UlidFactory } from './ulid.js';

/** `schema_version` of the events this SDK writes and reads (contract §2.3, §7.1). */
export const EVENT_SCHEMA_VERSION = 1;

/**
 * The envelope of contract §7.1, field by field, with `event_type` and `data` left open (they are
 * checked against the type's schema next). No other field is allowed: the signature covers exactly
 * these eight plus nothing else.
 */
export const eventEnvelopeSchema = z.strictObject({
  schema_version: z.literal(EVENT_SCHEMA_VERSION),
  event_id: z
    .string()
    .refine(isUlid, { message: 'expected a ULID (26 upper-case Crockford base32 characters)' }),
  lamport: countSchema,
  wall_clock: timestampSchema,
  community_id: nodeIdSchema,
  author: nodeIdSchema,
  event_type: z.string(),
  data: jsonObjectSchema,
  signature: z.string(),
});

/**
 * A signed community event (contract §7.1), narrowed by `event_type`:
 * `if (event.event_type === 'chat.message.sent') event.data.recipient`.
 */
export type SignedEvent<T extends EventType = EventType> = T extends EventType
  ? {
      readonly schema_version: typeof EVENT_SCHEMA_VERSION;
      /** A ULID, unique across all communities. */
      readonly event_id: string;
      readonly lamport: number;
      /** The author's clock when the event was made (RFC 3339 UTC); informative, never used for order. */
      readonly wall_clock: string;
      /** The community's id: the full node id of its root key. */
      readonly community_id: string;
      /** The full node id of the key that signed the event. */
      readonly author: string;
      readonly event_type: T;
      readonly data: EventData<T>;
      /** `ed25519:<base64url>` over the canonical JSON of the eight other fields. */
      readonly signature: string;
    }
  : never;

/** An event before signing: {@link SignedEvent} without `signature`. */
export type UnsignedEvent<T extends EventType = EventType> = T extends EventType
  ? Omit<SignedEvent<T>, 'signature'>
  : never;

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

/** Every event type this SDK reads and writes (22, the reference's closed set). */
export const EVENT_TYPES = [...CONTRACT_EVENT_TYPES, ...REFERENCE_EXTRA_EVENT_TYPES] as const;

/** An event type of `EVENT_TYPES`. */
export type EventType = (typeof EVENT_TYPES)[number];

const known: ReadonlySet<string> = new Set(EVENT_TYPES);

/** Whether `value` is one of the `EVENT_TYPES`. */
export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && known.has(value);
}

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

/** What {@link createEvent} takes: the fields an author chooses. */
export interface EventInput<T extends EventType> {
  readonly community_id: string;
  readonly event_type: T;
  readonly data: EventData<T>;
  /** The Lamport value, from the community's clock (`EventStore.appendLocal` passes it). */
  readonly lamport: number;
  /** A ULID to use instead of a fresh one (e.g. to re-create a known event). */
  readonly event_id?: string;
  /** A timestamp to use instead of the clock's time. */
  readonly wall_clock?: string;
}

/** Where {@link createEvent} gets time and ids. */
export interface CreateEventOptions {
  /** Milliseconds since the epoch (default `Date.now`): the ULID's time and `wall_clock` (whole seconds). */
  readonly clock?: () => number;
  /** The ULID factory (default: one monotonic factory shared by the process). */
  readonly ulid?: UlidFactory;
}

let sharedUlidFactory: UlidFactory | undefined;

/**
 * Builds and signs a community event (contract §7.1): `schema_version` 1, a fresh monotonic ULID,
 * `wall_clock` from the clock, `author` = the key's node id, the signature over the canonical JSON
 * of the eight other fields. `data` is checked against its type's schema first; its numbers are
 * normalised to their canonical value (what is signed is what is sent). The event is a new object,
 * frozen all the way down (`data` is a copy), so an event store can take it as it is.
 *
 * @throws {HearthNetLocalError} `invalid_event` when the input breaks the envelope or `data` schema
 *   (`details.reason`, `path`).
 * @throws {HearthNetLocalError} when `data` holds something JSON cannot carry.
 * @example
 * const event = createEvent(
 *   {
 *     community_id,
 *     event_type: 'chat.message.sent',
 *     data: { client_id: 'c-1', recipient: bob.nodeId, body: 'hi' },
 *     lamport: 7,
 *   },
 *   alice,
 * );
 */
export function createEvent<T extends EventType>(
  input: EventInput<T>,
  key: KeyPair,
  options: CreateEventOptions = {},
): SignedEvent<T> {
  const now = (options.clock ?? Date.now)();
  const ulid = options.ulid ?? sharedFactory();
  const unsigned = {
    schema_version: EVENT_SCHEMA_VERSION,
    event_id: input.event_id ?? ulid(now),
    lamport: input.lamport,
    wall_clock: input.wall_clock ?? formatTimestamp(now),
    community_id: input.community_id,
    author: key.nodeId,
    event_type: input.event_type,
    data: input.data,
  };
  // The envelope checked field by field with the schema's own predicates (no copy, no schema walk); a
  // field that fails goes to validateEvent, whose refusal names it.
  const verdict = builtEnvelopeIsValid(unsigned, input.wall_clock === undefined)
    ? validateEventData(unsigned.event_type, unsigned.data, unsigned)
    : validateEvent({ ...unsigned, signature: '' });
  if (!verdict.valid) throw refusalError(verdict);
  // signPayload signs a normalised deep copy: frozen, it is the event. Its data is checked again (a
  // getter or a hidden key can make the copy differ from what was checked), so a sealed event is valid.
  const event = deepFreeze(signPayload(unsigned, key));
  const copyVerdict = validateEventData(event.event_type as string, event.data, event);
  if (!copyVerdict.valid) throw refusalError(copyVerdict);
  sealedEvents.add(event);
  return event as unknown as SignedEvent<T>;
}

/** A refusal as the `invalid_event` error createEvent and the event stores throw. */
export function refusalError(verdict: EventRejection): HearthNetLocalError {
  return new HearthNetLocalError('invalid_event', verdict.message, {
    path: verdict.path,
    details: { reason: verdict.reason },
  });
}

/** The events {@link createEvent} made: checked, signed and frozen, so a store need not check or copy them. */
const sealedEvents = new WeakSet<object>();

/**
 * Whether `event` was made by {@link createEvent} in this process: valid (its envelope and `data` were
 * checked before it was signed) and unchangeable (frozen all the way down). An `EventStore` may
 * then store it as it is — no second `validateEvent`, no copy — as `InMemoryEventStore` and the SQLite
 * store do. Anything else (an event received, parsed or copied) answers `false`.
 *
 * @example
 * const event = createEvent({ community_id, event_type: 'chat.message.sent', data, lamport }, me);
 * isSealedEvent(event);            // true
 * isSealedEvent({ ...event });     // false: a copy is checked again
 */
export function isSealedEvent(event: object): boolean {
  return sealedEvents.has(event);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

function sharedFactory(): UlidFactory {
  sharedUlidFactory ??= createUlidFactory();
  return sharedUlidFactory;
}

/** A refused event: the reason, the contract §9 code to answer with, a message and the field's path. */
export interface EventRejection {
  readonly valid: false;
  readonly reason: EventRejectionReason;
  readonly code: HearthNetErrorCode;
  readonly message: string;
  /** The JSON path of the offending field, e.g. `$.data.recipient` (`$` for the whole event). */
  readonly path: string;
}

/** The verdict on an event: the typed event, or why it was refused. */
export type EventVerdict = { readonly valid: true; readonly event: SignedEvent } | EventRejection;

const codes: { readonly [R in EventRejectionReason]: HearthNetErrorCode } = {
  malformed_envelope: 'bad_request',
  unsupported_schema_version: 'schema_mismatch',
  unknown_event_type: 'bad_request',
  invalid_data: 'bad_request',
  invalid_signature: 'invalid_signature',
};

/**
 * Checks an event received from a peer: its shape ({@link validateEvent}), then its signature under
 * `author` over the canonical JSON of everything but `signature` (contract §7.1, §10). Never throws.
 * Authorisation (who may produce the type) is not judged here.
 *
 * @example
 * const verdict = verifyEvent(incoming);
 * if (!verdict.valid) rejected.push({ event_id: incoming.event_id, reason: verdict.reason });
 */
export function verifyEvent(value: unknown): EventVerdict {
  const verdict = validateEvent(value);
  if (!verdict.valid) return verdict;
  const signature = verifyPayload(value, verdict.event.author);
  if (!signature.valid) {
    return rejectEvent(
      'invalid_signature',
      '$.signature',
      `the signature does not verify under the author's key (${signature.reason})`,
    );
  }
  return verdict;
}

/**
 * Checks an event's shape without its signature, in this order: an object (`malformed_envelope`),
 * `schema_version` 1 (`unsupported_schema_version`), the eight envelope fields and no others
 * (`malformed_envelope`), a known `event_type` (`unknown_event_type`), `data` against the type's
 * schema (`invalid_data`). Never throws.
 */
export function validateEvent(value: unknown): EventVerdict {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return rejectEvent('malformed_envelope', '$', 'an event must be a JSON object');
  }
  const version = (value as { schema_version?: unknown }).schema_version;
  if (typeof version === 'number' && version !== EVENT_SCHEMA_VERSION) {
    return rejectEvent(
      'unsupported_schema_version',
      '$.schema_version',
      `schema_version ${version} is not ${EVENT_SCHEMA_VERSION}`,
    );
  }
  const envelope = eventEnvelopeSchema.safeParse(value);
  if (!envelope.success) return rejectionFromIssue('malformed_envelope', [], envelope.error);
  return validateEventData(envelope.data.event_type, envelope.data.data, value);
}

/** The rest of {@link validateEvent} once the envelope passed: the type is known and `data` fits its schema. */
function validateEventData(type: string, data: unknown, value: unknown): EventVerdict {
  if (!isEventType(type)) {
    return rejectEvent('unknown_event_type', '$.event_type', `unknown event type ${JSON.stringify(type)}`);
  }
  const parsed = eventDataSchemas[type].safeParse(data);
  if (!parsed.success) return rejectionFromIssue('invalid_data', ['data'], parsed.error);
  return { valid: true, event: value as SignedEvent };
}

/**
 * Whether the envelope createEvent built (with `signature: ''`) passes {@link eventEnvelopeSchema}: the
 * same predicates, field by field, without the schema's walk. Exactly its eight fields are there.
 */
function builtEnvelopeIsValid(
  envelope: {
    readonly schema_version: number;
    readonly event_id: unknown;
    readonly lamport: unknown;
    readonly wall_clock: unknown;
    readonly community_id: unknown;
    readonly author: unknown;
    readonly event_type: unknown;
    readonly data: unknown;
  },
  wallClockFormattedHere: boolean,
): boolean {
  const { event_id, lamport, wall_clock, community_id, author, event_type, data } = envelope;
  return (
    envelope.schema_version === EVENT_SCHEMA_VERSION &&
    typeof event_id === 'string' &&
    isUlid(event_id) &&
    typeof lamport === 'number' &&
    Number.isSafeInteger(lamport) &&
    lamport >= 0 &&
    // formatTimestamp writes a valid timestamp or throws.
    (wallClockFormattedHere || tryParseTimestamp(wall_clock) !== undefined) &&
    typeof community_id === 'string' &&
    isFullNodeId(community_id) &&
    typeof author === 'string' &&
    isFullNodeId(author) &&
    typeof event_type === 'string' &&
    isPlainObject(data)
  );
}

/** A refusal verdict. */
export function rejectEvent(reason: EventRejectionReason, path: string, message: string): EventRejection {
  return { valid: false, reason, code: codes[reason], message, path };
}

function rejectionFromIssue(
  reason: EventRejectionReason,
  prefix: readonly string[],
  error: { readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[] },
): EventRejection {
  const issue = error.issues[0];
  const segments = [...prefix, ...(issue?.path ?? [])].filter((segment) => typeof segment !== 'symbol');
  const path = formatJsonPath(segments as (string | number)[]);
  return rejectEvent(reason, path, `${path}: ${issue?.message ?? 'invalid'}`);
}
