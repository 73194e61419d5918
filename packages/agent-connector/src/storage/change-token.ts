import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { z } from 'zod';
import { storageValidationError } from './errors.js';
import { parseStorageValue } from './parse-storage-value.js';
import { skillStatusSchema } from './skill-store.js';

/** Number of hex digits in a change token. */
export const CHANGE_TOKEN_LENGTH = 16;

/** The change token of an empty namespace: the first 16 hex digits of the SHA-256 of no bytes. */
export const EMPTY_CATALOG_CHANGE_TOKEN = 'e3b0c44298fc1c14';

const utf8 = new TextEncoder();

/**
 * The change token of an ordered list of lines: the first {@link CHANGE_TOKEN_LENGTH} lowercase hex
 * digits of the SHA-256 of the lines joined with `\n`, UTF-8 encoded. This is the digest both reference
 * stores use; a store that fingerprints something other than skills (file names and modification times,
 * a list ETag) builds its own lines and sorts them first, so the token does not depend on listing order.
 *
 * @throws {AgentConnectorError} `storage_validation`: when `lines` is not an array of strings, or a line
 *   holds a `\n` (two different lists would then join to the same text).
 * @example
 * changeTokenFromLines([]); // 'e3b0c44298fc1c14'
 */
export function changeTokenFromLines(lines: readonly string[]): string {
  if (!Array.isArray(lines)) throw storageValidationError('must be an array of strings', 'lines');
  lines.forEach((line: unknown, index) => {
    if (typeof line !== 'string') throw storageValidationError('must be a string', `lines[${index}]`);
    if (line.includes('\n')) throw storageValidationError('must not contain a newline', `lines[${index}]`);
  });
  return bytesToHex(sha256(utf8.encode(lines.join('\n')))).slice(0, CHANGE_TOKEN_LENGTH);
}

/**
 * What one skill contributes to {@link catalogChangeToken}: its name, its status and its content
 * `version`. Extra fields are ignored, so `SkillMeta` records can be passed as they are. The name must
 * be a well-formed string without `\n` and the version must hold neither `:` nor `\n`: with those rules
 * every set of revisions yields a distinct text to hash.
 */
export const catalogRevisionSchema = z.object({
  name: z
    .string()
    .min(1)
    .refine((name) => !name.includes('\n'), 'must not contain a newline')
    .refine((name) => !/\p{Cs}/u.test(name), 'must not contain a lone UTF-16 surrogate'),
  status: skillStatusSchema,
  version: z
    .string()
    .min(1)
    .refine((version) => !/[:\n]/.test(version), 'must not contain ":" or a newline'),
});
/** See {@link catalogRevisionSchema}. */
export type CatalogRevision = z.output<typeof catalogRevisionSchema>;

/** Orders well-formed strings by Unicode code point, the order SQLite's `ORDER BY` gives UTF-8 text. */
function compareByCodePoint(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) {
    if (left.charCodeAt(index) !== right.charCodeAt(index)) {
      return (left.codePointAt(index) ?? 0) - (right.codePointAt(index) ?? 0);
    }
  }
  return left.length - right.length;
}

/**
 * A SkillStore's `version()` change token over its whole namespace, computed from metadata only (no
 * body is loaded). Each skill gives the line `<name>:<status>:<version>`; lines are ordered by name in
 * code-point order and digested by {@link changeTokenFromLines}. The result equals the reference SQLite
 * store's token for the same catalog.
 *
 * The token moves whenever the catalog's observable content does: a skill added or removed changes the
 * set of lines, `update_status` changes a status, and a body edit — even one that keeps the status, as in
 * unsecured mode — changes `version`, because the version is derived from the content hash. A token over
 * names and statuses alone, or over `updated_at` (whole seconds: two edits within one second collide),
 * would serve a stale catalog.
 *
 * @param skills - one revision per skill, in any order; names must be unique.
 * @throws {AgentConnectorError} `storage_validation`: when a revision breaks {@link catalogRevisionSchema} or
 *   a name repeats.
 * @example
 * catalogChangeToken(await store.query()); // 16 hex digits
 * catalogChangeToken([]); // 'e3b0c44298fc1c14'
 */
export function catalogChangeToken(skills: Iterable<CatalogRevision>): string {
  if (typeof skills !== 'object' || skills === null || !(Symbol.iterator in skills)) {
    throw storageValidationError('must be an iterable of skill revisions', 'skills');
  }
  const revisions: CatalogRevision[] = [];
  const names = new Set<string>();
  for (const skill of skills) {
    const path = `skills[${revisions.length}]`;
    const revision = parseStorageValue(catalogRevisionSchema, skill, path);
    if (names.has(revision.name)) throw storageValidationError('repeats a name', `${path}.name`);
    names.add(revision.name);
    revisions.push(revision);
  }
  revisions.sort((left, right) => compareByCodePoint(left.name, right.name));
  return changeTokenFromLines(revisions.map(({ name, status, version }) => `${name}:${status}:${version}`));
}
