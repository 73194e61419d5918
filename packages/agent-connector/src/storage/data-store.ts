import { z } from 'zod';
import { contractVersionSchema, type ManifestInfo, manifestInfoSchema } from './store-manifest.js';
import { unixSecondsSchema } from './unix-seconds.js';

/**
 * The eleven portable fields a DataStore puts at the top level of a {@link PortableData} item. Anything
 * else the substrate knows goes in `metadata`, and a curated field never appears in both places.
 */
export const CURATED_DATA_FIELDS = [
  'thread_status',
  'pinned',
  'confidence',
  'domain_tags',
  'payload_type',
  'knowledge_type',
  'recipients',
  'expires_at',
  'created_at',
  'agent_id',
  'vault',
] as const;
/** One of {@link CURATED_DATA_FIELDS}. */
export type CuratedDataField = (typeof CURATED_DATA_FIELDS)[number];

/**
 * One stored entry as `query()` and `get()` return it: `id` and a one-line `summary` always, the full
 * text in `detail`, a relevance `score` from queries, the curated fields, and substrate extras in
 * `metadata` (which must not repeat a curated field). `created_at` and `expires_at` are unix seconds.
 */
export const portableDataSchema = z
  .object({
    id: z.string(),
    summary: z.string(),
    detail: z.string().exactOptional(),
    score: z.number().exactOptional(),
    thread_status: z.string().exactOptional(),
    pinned: z.boolean().exactOptional(),
    confidence: z.number().exactOptional(),
    domain_tags: z.array(z.string()).exactOptional(),
    payload_type: z.string().exactOptional(),
    knowledge_type: z.string().exactOptional(),
    recipients: z.array(z.string()).exactOptional(),
    expires_at: unixSecondsSchema.exactOptional(),
    created_at: unixSecondsSchema.exactOptional(),
    agent_id: z.string().exactOptional(),
    vault: z.string().exactOptional(),
    metadata: z.record(z.string(), z.unknown()).exactOptional(),
  })
  .superRefine((item, context) => {
    if (item.metadata === undefined) return;
    for (const field of CURATED_DATA_FIELDS) {
      if (Object.hasOwn(item.metadata, field)) {
        context.addIssue({
          code: 'custom',
          path: ['metadata', field],
          message: 'a curated field belongs at the top level, not in metadata',
        });
      }
    }
  });
/** See {@link portableDataSchema}. */
export type PortableData = z.output<typeof portableDataSchema>;

/**
 * `query()`'s argument: the search text, a positive `limit`, a `mode` (`'fts'`, `'semantic'`, `'rerank'`
 * or a substrate's own), and any filter keys. A filter key outside the substrate's declared
 * `supported_filters` is refused at the bridge (see `enforceSupportedFilters`) unless
 * `permissive_filters` is `true`.
 */
export const queryFiltersSchema = z.looseObject({
  query: z.string(),
  limit: z.number().positive(),
  mode: z.string(),
  permissive_filters: z.boolean().exactOptional(),
});
/** See {@link queryFiltersSchema}. */
export type QueryFilters = z.output<typeof queryFiltersSchema>;

/**
 * `write()`'s argument. `expires_at`: unix seconds for a finite life, `null` for an explicit "durable
 * forever" (a substrate with its own TTL or decay maps it to its pin), absent for the substrate's default.
 */
export const dataWriteSchema = z.object({
  content: z.string(),
  tags: z.array(z.string()).exactOptional(),
  recipients: z.array(z.string()).exactOptional(),
  expires_at: unixSecondsSchema.nullable().exactOptional(),
  metadata: z.record(z.string(), z.unknown()).exactOptional(),
});
/** See {@link dataWriteSchema}. */
export type DataWrite = z.output<typeof dataWriteSchema>;

/** What `write()` returns: the substrate-assigned `id` and `created_at` in unix seconds. */
export const dataWriteRecordSchema = z.object({
  id: z.string(),
  created_at: unixSecondsSchema,
});
/** See {@link dataWriteRecordSchema}. */
export type DataWriteRecord = z.output<typeof dataWriteRecordSchema>;

/**
 * `manifest().manifest` of a DataStore. `supported_filters` lists every filter key `query()` honours —
 * absent means none, so every non-base key is refused (fail-closed).
 */
export const dataStoreManifestSchema = z.looseObject({
  kind: z.string(),
  supported_modes: z.array(z.string()).exactOptional(),
  supported_filters: z.array(z.string()).exactOptional(),
  score_range: z.string().exactOptional(),
});
/** See {@link dataStoreManifestSchema}. */
export type DataStoreManifest = z.output<typeof dataStoreManifestSchema>;

/** What a DataStore's `manifest()` resolves to. */
export const dataStoreManifestInfoSchema = manifestInfoSchema(dataStoreManifestSchema);

/** The capability flags a DataStore class may declare (closed set). */
export const DATA_STORE_FEATURES = [
  'supports_writes',
  'supports_tag_filter',
  'supports_semantic',
  'supports_rerank',
  'supports_thread_status_filter',
  'supports_pinning',
  'supports_decay_model',
] as const;
/** One of {@link DATA_STORE_FEATURES}. */
export type DataStoreFeature = (typeof DATA_STORE_FEATURES)[number];

/** A DataStore class's static `staticCapabilities()`: pure, synchronous, no instance needed. */
export const dataStoreCapabilitiesSchema = z.object({
  connector_type: z.literal('data_store'),
  implementation: z.string().min(1),
  contract_version: contractVersionSchema,
  features: z.partialRecord(z.enum(DATA_STORE_FEATURES), z.boolean()),
});
/** See {@link dataStoreCapabilitiesSchema}. */
export type DataStoreCapabilities = z.output<typeof dataStoreCapabilitiesSchema>;

/**
 * Queryable knowledge. Misses never throw: `query()` returns `[]` and `get()` returns `null` — callers
 * branch on `result.length` and `result === null`, so keep it that way. By convention `summary` is the
 * first line of the written content and `detail` the whole of it.
 */
export interface DataStore {
  query(filters: QueryFilters): Promise<PortableData[]>;
  write(entry: DataWrite): Promise<DataWriteRecord>;
  get(id: string): Promise<PortableData | null>;
  manifest(): Promise<ManifestInfo<DataStoreManifest>>;
}

/** A DataStore class: constructible, with static capabilities the linter reads offline. */
export interface DataStoreClass {
  new (...args: never[]): DataStore;
  staticCapabilities(): DataStoreCapabilities;
}
