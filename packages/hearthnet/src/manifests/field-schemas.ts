import { z } from 'zod';
import { parseNodeId } from '../crypto/node-id.js';
import { parseContentId } from '../hashing/index.js';
import { tryParseTimestamp } from './timestamps.js';

/** A full node id, `ed25519:` + unpadded base64url of a 32-byte public key (strict decoding). */
export const nodeIdSchema = z.string().refine(isFullNodeId, {
  message: 'expected a full node id, ed25519:<base64url of 32 bytes>',
});

/** An RFC 3339 UTC timestamp with `Z` and at most millisecond precision (contract §1.1). */
export const timestampSchema = z.string().refine((text) => tryParseTimestamp(text) !== undefined, {
  message: 'expected an RFC 3339 UTC timestamp such as 2026-05-26T08:14:22Z',
});

/** A signature as the contract writes it: `ed25519:` + unpadded base64url of 64 bytes. */
export const signatureSchema = z.string().regex(/^ed25519:[A-Za-z0-9_-]{85}[AQgw]$/, {
  message: 'expected ed25519:<base64url of 64 bytes>',
});

/** A prefixed content id, `blake3:<64 hex>` (or the reference's `sha256:<64 hex>` fallback). */
export const contentIdSchema = z.string().refine(isPrefixedCid, {
  message: 'expected a content id such as blake3:<64 lowercase hex>',
});

/** A plain JSON object; its values are checked when it is canonicalised (signed or verified). */
export const jsonObjectSchema = z.custom<{ readonly [key: string]: unknown }>(isPlainObject, {
  message: 'expected a JSON object',
});

/** A non-negative safe integer. */
export const countSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

function isFullNodeId(text: string): boolean {
  try {
    parseNodeId(text);
    return true;
  } catch {
    return false;
  }
}

function isPrefixedCid(text: string): boolean {
  try {
    return parseContentId(text).form === 'prefixed';
  } catch {
    return false;
  }
}

function isPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
