import { compareCodePoints } from '@agentwire/internal';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { z } from 'zod';
import {
  contractVersionSchema,
  type ManifestInfo,
  manifestInfoSchema,
  parseStorageValue,
  unixSecondsSchema,
} from './conventions.js';
import { storageValidationError } from './errors.js';

/** The lifecycle states of a skill, in the contract's spelling (capitalised, closed set). */
export const SKILL_STATUSES = ['Draft', 'Approved', 'Disabled'] as const;

/** A skill's lifecycle state; `update_status` refuses anything else. */
export const skillStatusSchema = z.enum(SKILL_STATUSES);
/** See `skillStatusSchema`. */
export type SkillStatus = z.output<typeof skillStatusSchema>;

/** The two kinds of skill a `SkillMeta.type` / `SkillFilter.type` names. */
export const skillTypeSchema = z.enum(['procedural', 'data']);

/**
 * A `content_hash`: lowercase hex. The bundled stores use SHA-256 (64 digits, see `contentHash`); the
 * contract lets a store pick another digest, so only the alphabet is checked here.
 */
export const contentHashSchema = z.string().regex(/^[0-9a-f]+$/, 'must be lowercase hex');

/** A skill trigger as `SkillMeta.triggers` lists it. */
export const skillTriggerSchema = z.object({
  source: z.string(),
  name: z.string(),
  agent_id: z.string().exactOptional(),
});

/** The fields a store fills itself; optional in `store()`'s `metadata` argument. */
const skillIdentityFields = {
  name: z.string(),
  version: z.string().min(1),
  content_hash: contentHashSchema,
  status: skillStatusSchema,
  created_at: unixSecondsSchema,
  updated_at: unixSecondsSchema,
};

/**
 * Fields that are optional everywhere. `description`, `tags`, `vars` and `returns` are projections of
 * the body that the runtime re-derives when a store leaves them out; `author` is the first writer, absent
 * on substrates without authorship.
 */
const skillOptionalFields = {
  description: z.string().exactOptional(),
  tags: z.array(z.string()).exactOptional(),
  vars: z.array(z.string()).exactOptional(),
  returns: z.array(z.string()).exactOptional(),
  requires: z.array(z.string()).exactOptional(),
  triggers: z.array(skillTriggerSchema).exactOptional(),
  outputs: z.array(z.string()).exactOptional(),
  type: skillTypeSchema.exactOptional(),
  status_changed_at: unixSecondsSchema.exactOptional(),
  author: z.string().exactOptional(),
  metadata_bag: z.record(z.string(), z.unknown()).exactOptional(),
};

/**
 * Everything known about a skill without loading its body (`query()` / `metadata()`). Timestamps are
 * unix seconds; `version` is opaque (compare for equality only), by convention the first 12 hex digits of
 * `content_hash`.
 */
export const skillMetaSchema = z.object({ ...skillIdentityFields, ...skillOptionalFields });
/** See `skillMetaSchema`. */
export type SkillMeta = z.output<typeof skillMetaSchema>;

/** `store()`'s optional `metadata` argument: any `SkillMeta` field, none required. */
export const skillMetaInputSchema = z.object({
  name: skillIdentityFields.name.exactOptional(),
  version: skillIdentityFields.version.exactOptional(),
  content_hash: skillIdentityFields.content_hash.exactOptional(),
  status: skillIdentityFields.status.exactOptional(),
  created_at: skillIdentityFields.created_at.exactOptional(),
  updated_at: skillIdentityFields.updated_at.exactOptional(),
  ...skillOptionalFields,
});
/** See `skillMetaInputSchema`. */
export type SkillMetaInput = z.output<typeof skillMetaInputSchema>;

/** A skill's source text and identity, as `load()` returns it; `source` is the persisted body verbatim. */
export const skillSourceSchema = z.object({
  name: z.string(),
  version: skillIdentityFields.version,
  content_hash: contentHashSchema,
  source: z.string(),
  metadata: skillMetaSchema,
});
/** See `skillSourceSchema`. */
export type SkillSource = z.output<typeof skillSourceSchema>;

/**
 * One write or status transition (`store()`, `update_status()`, `versions()`). `update_status` always
 * fills `previous_status`; `changed_at` is unix seconds; `changed_by` is the writer when known.
 */
export const versionInfoSchema = z.object({
  name: z.string(),
  version: skillIdentityFields.version,
  content_hash: contentHashSchema,
  status: skillStatusSchema,
  previous_status: skillStatusSchema.exactOptional(),
  changed_at: unixSecondsSchema,
  changed_by: z.string().exactOptional(),
});
/** See `versionInfoSchema`. */
export type VersionInfo = z.output<typeof versionInfoSchema>;

/**
 * `query()`'s filter. Open: a store honours the keys it supports and ignores the rest (no strict
 * validation on this side, unlike DataStore queries), so unknown keys pass. A store without authorship
 * may ignore `author`; the catalog layer then narrows in memory. `since` is unix seconds.
 */
export const skillFilterSchema = z.looseObject({
  status: z.union([skillStatusSchema, z.array(skillStatusSchema)]).exactOptional(),
  type: skillTypeSchema.exactOptional(),
  tag: z.union([z.string(), z.array(z.string())]).exactOptional(),
  author: z.string().exactOptional(),
  since: unixSecondsSchema.exactOptional(),
  name_pattern: z.string().exactOptional(),
  limit: z.number().int().nonnegative().exactOptional(),
  offset: z.number().int().nonnegative().exactOptional(),
});
/** See `skillFilterSchema`. */
export type SkillFilter = z.output<typeof skillFilterSchema>;

/** `manifest().manifest` of a SkillStore: the flavour (`'filesystem'`, `'sqlite'`, …) plus extensions. */
export const skillStoreManifestSchema = z.looseObject({
  kind: z.string(),
  root_dir: z.string().exactOptional(),
  db_path: z.string().exactOptional(),
});
/** See `skillStoreManifestSchema`. */
export type SkillStoreManifest = z.output<typeof skillStoreManifestSchema>;

/** What a SkillStore's `manifest()` resolves to. */
export const skillStoreManifestInfoSchema = manifestInfoSchema(skillStoreManifestSchema);

/** The capability flags a SkillStore class may declare (closed set). */
export const SKILL_STORE_FEATURES = [
  'supports_writes',
  'supports_versioning',
  'supports_tag_filter',
  'supports_audit_trail',
  'supports_atomic_status_transitions',
] as const;

/** A SkillStore class's static `staticCapabilities()`: pure, synchronous, no instance needed. */
export const skillStoreCapabilitiesSchema = z.object({
  connector_type: z.literal('skill_store'),
  implementation: z.string().min(1),
  contract_version: contractVersionSchema,
  features: z.partialRecord(z.enum(SKILL_STORE_FEATURES), z.boolean()),
});
/** See `skillStoreCapabilitiesSchema`. */
export type SkillStoreCapabilities = z.output<typeof skillStoreCapabilitiesSchema>;

/**
 * Where skills live. Misses: `load`, `metadata`, `versions`, `delete` and `update_status` throw
 * `SkillNotFoundError` (`load` with a version it cannot return: `SkillNotFoundError` with code
 * `version_not_found`); `query` returns `[]`. `store` persists the body exactly as given — it never mints,
 * stamps or verifies approval. `delete` removes the skill from every view (the bundled stores erase it and
 * free the name).
 */
export interface SkillStore {
  load(name: string, version?: string): Promise<SkillSource>;
  query(filter?: SkillFilter): Promise<SkillMeta[]>;
  metadata(name: string): Promise<SkillMeta>;
  versions(name: string): Promise<VersionInfo[]>;
  store(name: string, source: string, metadata?: SkillMetaInput): Promise<VersionInfo>;
  delete(name: string): Promise<void>;
  update_status(name: string, status: SkillStatus): Promise<VersionInfo>;
  manifest(): Promise<ManifestInfo<SkillStoreManifest>>;
  /**
   * Optional cheap change token over the whole namespace, computed without loading bodies. It must move
   * on every add, remove, status change and body edit — also an edit that keeps the status. See
   * `catalogChangeToken`.
   */
  version?(): Promise<string>;
}

/** Horizontal white space only: a header never spills onto the next line. */
const SPACE = '[^\\S\\n\\r\\u2028\\u2029]';
/** The first `# Status: <value>` line; `Status` is case-sensitive, as in the reference stores. */
const STATUS_LINE = new RegExp(`^#${SPACE}*Status${SPACE}*:${SPACE}*(.+?)${SPACE}*$`, 'm');
/**
 * The header as the reference stores' rewrite finds it, which {@link withStatusHeader} mirrors byte for
 * byte: `\s` may cross line breaks, and the trailing `\s*$` takes every white space after the value up
 * to the last line break before the next non-blank line — so the blank lines right under a rewritten
 * header go with it (`…Approved\n\nbody` → `…Approved\nbody`).
 */
const REWRITTEN_STATUS = /^#\s*Status\s*:\s*.+?\s*$/m;
/** The `# Skill: <name>` line a new status header goes under, found as the reference stores find it. */
const REWRITTEN_SKILL = /^(#\s*Skill\s*:\s*.+?)\s*$/m;

const STATUS_BY_TOKEN: Readonly<Record<string, SkillStatus>> = {
  draft: 'Draft',
  approved: 'Approved',
  disabled: 'Disabled',
};

/** A skill body's `# Status:` header as written. */
export interface StatusHeader {
  /** The status its first token names (case-insensitive), or `null` when the token is none of the three. */
  readonly status: SkillStatus | null;
  /** Whatever follows the first token, such as an approval token `v3:<signature>`; `''` when nothing. */
  readonly rest: string;
  /** The whole header line as it appears in the body. */
  readonly line: string;
}

/**
 * Finds the first `# Status:` header of a skill body: a line `#`, optional spaces, `Status`, optional
 * spaces, `:`, then a non-empty value. The value's first white-space-separated token names the status
 * case-insensitively (`draft`, `APPROVED`); the remainder is kept as `rest` (secured mode writes an
 * approval token there). `null` when the body has no such line.
 *
 * Unlike the reference stores' regular expression, the spaces around the key never cross a line
 * break, so an empty `# Status:` line is not read as a header with the next line as its value.
 *
 * @throws {AgentConnectorError} `storage_validation`: when `source` is not a string.
 * @example
 * readStatusHeader('# Skill: triage\n# Status: approved v3:abc\n');
 * // { status: 'Approved', rest: 'v3:abc', line: '# Status: approved v3:abc' }
 */
export function readStatusHeader(source: string): StatusHeader | null {
  if (typeof source !== 'string') throw storageValidationError('must be a string', 'source');
  const match = STATUS_LINE.exec(source);
  if (match === null) return null;
  const value = match[1] ?? '';
  const [first = '', ...rest] = value.trim().split(/\s+/);
  return {
    status: STATUS_BY_TOKEN[first.toLowerCase()] ?? null,
    rest: rest.join(' '),
    line: match[0],
  };
}

/**
 * The status a skill body declares: its `# Status:` header's first token, or `'Draft'` when there is
 * no header or the token names no status (the convention both reference stores follow).
 *
 * @throws {AgentConnectorError} `storage_validation`: when `source` is not a string.
 * @example
 * statusOfSkill('# Skill: triage\n'); // 'Draft'
 * statusOfSkill('# Status: disabled\n'); // 'Disabled'
 */
export function statusOfSkill(source: string): SkillStatus {
  return readStatusHeader(source)?.status ?? 'Draft';
}

/**
 * Writes `# Status: <status>` into a skill body exactly as the reference stores do, so that
 * `content_hash` comes out as theirs: replaces the first status header (dropping any token after the
 * status, and the blank lines right under it), or, without one, puts it on the line after the first
 * `# Skill:` header (whose trailing blank lines go the same way), or at the very top when there is
 * none. Every other byte is kept. The reference's pattern lets white space cross line breaks, so
 * `# Status:` with its value on the next line is rewritten as a header here, although
 * {@link readStatusHeader} does not read it as one. This is how a store normalises a body on
 * `update_status` and on an overwrite that keeps the previous status.
 *
 * @throws {AgentConnectorError} `storage_validation`: when `source` is not a string or `status` is not a
 *   skill status.
 * @example
 * withStatusHeader('# Skill: triage\nbody\n', 'Approved'); // '# Skill: triage\n# Status: Approved\nbody\n'
 */
export function withStatusHeader(source: string, status: SkillStatus): string {
  if (typeof source !== 'string') throw storageValidationError('must be a string', 'source');
  if (!Object.values(STATUS_BY_TOKEN).includes(status)) {
    throw storageValidationError('must be Draft, Approved or Disabled', 'status');
  }
  const line = `# Status: ${status}`;
  if (REWRITTEN_STATUS.test(source)) return source.replace(REWRITTEN_STATUS, () => line);
  if (REWRITTEN_SKILL.test(source))
    return source.replace(REWRITTEN_SKILL, (_whole, skill: string) => `${skill}\n${line}`);
  return `${line}\n${source}`;
}

/** Number of hex digits in a change token. */
export const CHANGE_TOKEN_LENGTH = 16;

/** The change token of an empty namespace: the first 16 hex digits of the SHA-256 of no bytes. */
export const EMPTY_CATALOG_CHANGE_TOKEN = 'e3b0c44298fc1c14';

const utf8 = new TextEncoder();

/**
 * The change token of an ordered list of lines: the first `CHANGE_TOKEN_LENGTH` lowercase hex
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
/** See `catalogRevisionSchema`. */
export type CatalogRevision = z.output<typeof catalogRevisionSchema>;

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
 * @throws {AgentConnectorError} `storage_validation`: when a revision breaks `catalogRevisionSchema` or
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
  revisions.sort((left, right) => compareCodePoints(left.name, right.name));
  return changeTokenFromLines(revisions.map(({ name, status, version }) => `${name}:${status}:${version}`));
}

/** Number of hex digits of a content hash that make up a skill's `version` label. */
export const VERSION_LENGTH = 12;

const SHA256_HEX = /^[0-9a-f]{64}$/;

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
 * A skill's `version` label: the first `VERSION_LENGTH` hex digits of its content hash. Treat it
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
