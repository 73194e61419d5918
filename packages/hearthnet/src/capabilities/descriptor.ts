import type { JsonSchema } from './json-schema.js';

/** How settled a capability is (contract §3, §6.1 `stability`). */
export type CapabilityStability = 'stable' | 'beta' | 'unstable';

/** The community trust levels a capability may require. */
export type TrustLevel = 'member' | 'trusted';

/**
 * A rule on top of the trust level (contract §3.2 "Trust required"):
 * - `own_resource`: only the author of the target may act (`market.expire`, "own only");
 * - `self_only`: a node serves only its own data (`chat.history`, "self only");
 * - `can_invite`: the member needs the `can_invite` policy right (`community.invite`);
 * - `three_trusted_co_signers`: three distinct trusted members co-sign (`community.revoke`).
 */
export type TrustCondition = 'own_resource' | 'self_only' | 'can_invite' | 'three_trusted_co_signers';

/** Who may call a capability. */
export interface TrustRequirement {
  readonly level: TrustLevel;
  readonly condition?: TrustCondition;
}

/**
 * Whether repeating a call is safe: `none` (e.g. token sampling), `idempotent` (same request, same
 * effect), or `by_key`: repeats with the same value at `key` (a dotted path inside `input`) are
 * deduplicated.
 */
export type Idempotency =
  | { readonly kind: 'none' }
  | { readonly kind: 'idempotent' }
  | { readonly kind: 'by_key'; readonly key: string };

/**
 * How a capability streams: `none`; `server` (the server sends SSE frames, contract §5.3);
 * `bidirectional` (the client also streams frames, as `file.put` does).
 */
export type StreamMode = 'none' | 'server' | 'bidirectional';

/**
 * Everything the contract says about one capability, as data. The three schemas are plain JSON
 * (the subset described by `JsonSchema`) and are what {@link schemaHash} hashes:
 * - `requestSchema`: the request body `{params, input}`;
 * - `responseSchema`: the non-stream response body `{output, meta}`, or `null` when the capability
 *   always streams;
 * - `streamSchema`: one stream frame `{event, data}` (an `anyOf` over the capability's events), or
 *   `null` when it never streams. The frames every stream may carry (`progress`, `ack`, `error`) are
 *   contract-wide and not repeated here.
 */
export interface CapabilityDescriptor {
  readonly name: string;
  readonly version: string;
  readonly stability: CapabilityStability;
  readonly trust: TrustRequirement;
  readonly idempotency: Idempotency;
  readonly streaming: StreamMode;
  readonly requestSchema: JsonSchema;
  readonly responseSchema: JsonSchema | null;
  readonly streamSchema: JsonSchema | null;
}

// The numeric limits contract §4 states, named once and used by the catalogue schemas.

/** `embed.text`: at most this many texts per call (§4.3). */
export const MAX_EMBED_TEXTS = 256;
/** `embed.text`: at most this many characters (code points) per text (§4.3). */
export const MAX_EMBED_TEXT_CHARS = 8192;
/** `rag.query`: the default and the largest `k` (§4.4). */
export const DEFAULT_RAG_K = 5;
/** `rag.query`: the largest `k` (§4.4). */
export const MAX_RAG_K = 20;
/** `market.list`: the default and the largest `limit` (§4.11). */
export const DEFAULT_MARKET_LIST_LIMIT = 50;
/** `market.list`: the largest `limit` (§4.11). */
export const MAX_MARKET_LIST_LIMIT = 500;
/** `market.post`: the default and the largest `ttl_seconds`, 7 and 30 days (§4.12). */
export const DEFAULT_MARKET_TTL_SECONDS = 7 * 24 * 60 * 60;
/** `market.post`: the largest `ttl_seconds`, 30 days (§4.12). */
export const MAX_MARKET_TTL_SECONDS = 30 * 24 * 60 * 60;
