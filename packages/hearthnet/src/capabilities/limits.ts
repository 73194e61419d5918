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
