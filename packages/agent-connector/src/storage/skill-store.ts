import { z } from 'zod';
import { contractVersionSchema, type ManifestInfo, manifestInfoSchema } from './store-manifest.js';
import { unixSecondsSchema } from './unix-seconds.js';

/** The lifecycle states of a skill, in the contract's spelling (capitalised, closed set). */
export const SKILL_STATUSES = ['Draft', 'Approved', 'Disabled'] as const;

/** A skill's lifecycle state; `update_status` refuses anything else. */
export const skillStatusSchema = z.enum(SKILL_STATUSES);
/** See {@link skillStatusSchema}. */
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
/** See {@link skillMetaSchema}. */
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
/** See {@link skillMetaInputSchema}. */
export type SkillMetaInput = z.output<typeof skillMetaInputSchema>;

/** A skill's source text and identity, as `load()` returns it; `source` is the persisted body verbatim. */
export const skillSourceSchema = z.object({
  name: z.string(),
  version: skillIdentityFields.version,
  content_hash: contentHashSchema,
  source: z.string(),
  metadata: skillMetaSchema,
});
/** See {@link skillSourceSchema}. */
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
/** See {@link versionInfoSchema}. */
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
/** See {@link skillFilterSchema}. */
export type SkillFilter = z.output<typeof skillFilterSchema>;

/** `manifest().manifest` of a SkillStore: the flavour (`'filesystem'`, `'sqlite'`, …) plus extensions. */
export const skillStoreManifestSchema = z.looseObject({
  kind: z.string(),
  root_dir: z.string().exactOptional(),
  db_path: z.string().exactOptional(),
});
/** See {@link skillStoreManifestSchema}. */
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
/** One of {@link SKILL_STORE_FEATURES}. */
export type SkillStoreFeature = (typeof SKILL_STORE_FEATURES)[number];

/** A SkillStore class's static `staticCapabilities()`: pure, synchronous, no instance needed. */
export const skillStoreCapabilitiesSchema = z.object({
  connector_type: z.literal('skill_store'),
  implementation: z.string().min(1),
  contract_version: contractVersionSchema,
  features: z.partialRecord(z.enum(SKILL_STORE_FEATURES), z.boolean()),
});
/** See {@link skillStoreCapabilitiesSchema}. */
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

/** A SkillStore class: constructible, with static capabilities the linter reads offline. */
export interface SkillStoreClass {
  new (...args: never[]): SkillStore;
  staticCapabilities(): SkillStoreCapabilities;
}
