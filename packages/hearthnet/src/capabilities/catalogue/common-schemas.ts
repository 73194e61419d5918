// Schema fragments the catalogue shares. Each is plain JSON; the catalogue copies them in place (no
// `$ref`), so a descriptor's schemas are self-contained for hashing.
import type { JsonSchema } from '../json-schema.js';

/** A full node id: `ed25519:` + unpadded base64url of a 32-byte public key. */
export const NODE_ID = { type: 'string', pattern: '^ed25519:[A-Za-z0-9_-]{43}$' } as const;

/** A BLAKE3 content id: `blake3:` + 64 lowercase hex characters (contract §1.4). */
export const BLAKE3_CID = { type: 'string', pattern: '^blake3:[0-9a-f]{64}$' } as const;

/** An Ed25519 signature as the contract writes it: `ed25519:` + unpadded base64url of 64 bytes. */
export const SIGNATURE = { type: 'string', pattern: '^ed25519:[A-Za-z0-9_-]{86}$' } as const;

/** An RFC 3339 UTC timestamp with `Z`, at most millisecond precision (contract §1.1). */
export const TIMESTAMP = {
  type: 'string',
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,3})?Z$',
} as const;

/** A caller-generated id that deduplicates retries. */
export const CLIENT_ID = { type: 'string', minLength: 1 } as const;

export const NON_EMPTY_STRING = { type: 'string', minLength: 1 } as const;
export const STRING = { type: 'string' } as const;
export const NUMBER = { type: 'number' } as const;
export const NON_NEGATIVE_INTEGER = { type: 'integer', minimum: 0 } as const;
export const STRING_LIST = { type: 'array', items: STRING } as const;

/** A JSON object with any members (metadata, filters). */
export const ANY_OBJECT = { type: 'object' } as const;

/** `params: {}` of a capability that takes no parameters. */
export const NO_PARAMS = { type: 'object', additionalProperties: false } as const;

/** `meta` of a response that reports only the server time `ms`. */
export const MS_META = { type: 'object', properties: { ms: NON_NEGATIVE_INTEGER } } as const;

/** `output` of a capability that appends an event to the community log. */
export const EVENT_OUTPUT = {
  type: 'object',
  properties: { event_id: STRING, lamport: NON_NEGATIVE_INTEGER },
  required: ['event_id', 'lamport'],
} as const;

/**
 * A request body `{params, input}`: both required, nothing else (contract §4 "Request"). Requests
 * are closed: a field the version does not define is a `bad_request`.
 */
export function requestBody<const P extends JsonSchema, const I extends JsonSchema>(params: P, input: I) {
  return {
    type: 'object',
    properties: { params, input },
    required: ['params', 'input'],
    additionalProperties: false,
  } as const;
}

/**
 * A response body `{output, meta}`: `output` required, `meta` optional. Responses are open, so a
 * caller of version X.Y reads the answers of X.Y+1, which only add fields (contract §2.1).
 */
export function responseBody<const O extends JsonSchema, const M extends JsonSchema>(output: O, meta: M) {
  return { type: 'object', properties: { output, meta }, required: ['output'] } as const;
}

/** One stream frame `{event, data}` (contract §5.3): the event name and the schema of its data. */
export function streamFrame<const E extends string, const D extends JsonSchema>(event: E, data: D) {
  return {
    type: 'object',
    properties: { event: { const: event }, data },
    required: ['event', 'data'],
    additionalProperties: false,
  } as const;
}
