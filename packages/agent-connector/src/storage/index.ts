export {
  type BridgeArguments,
  DEFAULT_QUERY_LIMIT,
  DEFAULT_QUERY_MODE,
  dataWriteFromArgs,
  queryFiltersFromArgs,
} from './bridge-arguments.js';
export {
  type CatalogRevision,
  CHANGE_TOKEN_LENGTH,
  catalogChangeToken,
  catalogRevisionSchema,
  changeTokenFromLines,
  EMPTY_CATALOG_CHANGE_TOKEN,
} from './change-token.js';
export {
  type ContentIdentity,
  contentHash,
  contentIdentity,
  VERSION_LENGTH,
  versionFromHash,
} from './content-hash.js';
export {
  CURATED_DATA_FIELDS,
  type CuratedDataField,
  DATA_STORE_FEATURES,
  type DataStore,
  type DataStoreCapabilities,
  type DataStoreClass,
  type DataStoreFeature,
  type DataStoreManifest,
  type DataWrite,
  type DataWriteRecord,
  dataStoreCapabilitiesSchema,
  dataStoreManifestInfoSchema,
  dataStoreManifestSchema,
  dataWriteRecordSchema,
  dataWriteSchema,
  type PortableData,
  portableDataSchema,
  type QueryFilters,
  queryFiltersSchema,
} from './data-store.js';
export {
  DATA_WRITE_TOOL,
  type DataQueryResult,
  DataStoreQueryBridge,
  type DataStoreQueryBridgeOptions,
} from './data-store-bridge.js';
export { SUMMARY_MAX_LENGTH, summarizeContent } from './data-summary.js';
export { SkillNotFoundError, type SkillNotFoundOptions, UnsupportedFilterError } from './errors.js';
export { BASE_QUERY_FILTER_KEYS, enforceSupportedFilters } from './filter-enforcement.js';
export { parseStorageValue } from './parse-storage-value.js';
export {
  contentHashSchema,
  SKILL_STATUSES,
  SKILL_STORE_FEATURES,
  type SkillFilter,
  type SkillMeta,
  type SkillMetaInput,
  type SkillSource,
  type SkillStatus,
  type SkillStore,
  type SkillStoreCapabilities,
  type SkillStoreClass,
  type SkillStoreFeature,
  type SkillStoreManifest,
  skillFilterSchema,
  skillMetaInputSchema,
  skillMetaSchema,
  skillSourceSchema,
  skillStatusSchema,
  skillStoreCapabilitiesSchema,
  skillStoreManifestInfoSchema,
  skillStoreManifestSchema,
  skillTriggerSchema,
  skillTypeSchema,
  type VersionInfo,
  versionInfoSchema,
} from './skill-store.js';
export { readStatusHeader, type StatusHeader, statusOfSkill, withStatusHeader } from './status-header.js';
export { contractVersionSchema, type ManifestInfo, manifestInfoSchema } from './store-manifest.js';
export { UNIX_SECONDS_LIMIT, unixSeconds, unixSecondsSchema } from './unix-seconds.js';
