import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { storageValidationError } from './errors.js';

/** Number of hex digits of a content hash that make up a skill's `version` label. */
export const VERSION_LENGTH = 12;

const SHA256_HEX = /^[0-9a-f]{64}$/;
const utf8 = new TextEncoder();

/**
 * A skill's `content_hash`: the SHA-256 of the body **as persisted**, in lowercase hex (64 digits).
 *
 * "As persisted" means after the store's own status-line normalisation, so the hash covers the
 * `# Status:` line the store writes (`# Status: Approved`, or `# Status: Approved v3:<signature>` in
 * secured mode). The bytes hashed are the UTF-8 encoding of the string, exactly as the reference
 * stores produce them: no newline or BOM normalisation, and a lone UTF-16 surrogate encoded as U+FFFD
 * (the bytes a UTF-8 file or database would hold). Equal bodies therefore hash equal across substrates.
 *
 * @throws {AgentConnectorError} `storage_validation`: when `body` is not a string.
 * @example
 * contentHash('abc'); // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export function contentHash(body: string): string {
  if (typeof body !== 'string') throw storageValidationError('must be a string', 'body');
  return bytesToHex(sha256(utf8.encode(body)));
}

/**
 * A skill's `version` label: the first {@link VERSION_LENGTH} hex digits of its content hash. Treat it
 * as opaque (compare for equality only); it is short for display, not a second hash.
 *
 * @param hash - a content hash as {@link contentHash} returns it: 64 lowercase hex digits.
 * @throws {AgentConnectorError} `storage_validation`: when `hash` is not 64 lowercase hex digits.
 * @example
 * versionFromHash(contentHash('abc')); // 'ba7816bf8f01'
 */
export function versionFromHash(hash: string): string {
  if (typeof hash !== 'string' || !SHA256_HEX.test(hash)) {
    throw storageValidationError('must be a SHA-256 content hash: 64 lowercase hex digits', 'hash');
  }
  return hash.slice(0, VERSION_LENGTH);
}

/** The `content_hash` and `version` a store records for a body. */
export interface ContentIdentity {
  content_hash: string;
  version: string;
}

/**
 * Both identity fields of a persisted body at once: {@link contentHash} and {@link versionFromHash}.
 *
 * @throws {AgentConnectorError} `storage_validation`: when `body` is not a string.
 * @example
 * const { content_hash, version } = contentIdentity('# Skill: triage\n# Status: Draft\n');
 */
export function contentIdentity(body: string): ContentIdentity {
  const content_hash = contentHash(body);
  return { content_hash, version: versionFromHash(content_hash) };
}
