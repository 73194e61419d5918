/**
 * `@agentwire/hearthnet/capabilities` — the capability catalogue of contract §3–§4 as data, schema
 * hashes (§11), capability names and versions (§2–§3.1), a registry, and the error family of §9.
 *
 * @example
 * ```ts
 * import { catalogueValidators, schemaHash, LLM_CHAT, satisfies } from '@agentwire/hearthnet/capabilities';
 *
 * schemaHash(LLM_CHAT); // 'blake3:…'
 * satisfies('llm.chat@>=1.0', 'llm.chat@1.0'); // true
 * catalogueValidators('rag.query').request.parse({ params: { corpus: 'c' }, input: { query: 'q' } });
 * ```
 *
 * @packageDocumentation
 */

export {
  HearthNetLocalError,
  type HearthNetLocalErrorCode,
  type HearthNetLocalErrorDetails,
  type HearthNetLocalErrorOptions,
  type InvalidCapabilityNameReason,
} from '../errors.js';
export {
  assertRegistrableCapabilityName,
  CAPABILITY_PREFIXES,
  type CapabilityPrefixStatus,
  type CapabilityRef,
  type CapabilityRequirement,
  type CapabilityVersion,
  compareCapabilityVersions,
  isVersionCompatible,
  MAX_CAPABILITY_NAME_LENGTH,
  type ParsedCapabilityName,
  parseCapabilityName,
  parseCapabilityRef,
  parseCapabilityRequirement,
  parseCapabilityVersion,
  satisfies,
} from './capability-name.js';
export {
  type CapabilityRegistration,
  CapabilityRegistry,
  type CapabilityRegistryOptions,
  type ManifestCapability,
  type RegisterOptions,
  referenceSchemaHash,
  type SchemaHashDocument,
  type SchemaHashForm,
  type SchemaHashInput,
  schemaHash,
  schemaHashDocument,
} from './capability-registry.js';
export * from './catalogue/catalogue.js';
export { catalogueValidators } from './catalogue/catalogue.js';
export type {
  CapabilityDescriptor,
  CapabilityStability,
  Idempotency,
  StreamMode,
  TrustCondition,
  TrustLevel,
  TrustRequirement,
} from './descriptor.js';
export * from './descriptor.js';
export { asHearthNetError, errorFromBody, type HearthNetErrorBody, toErrorBody } from './error-body.js';
export {
  BadRequestError,
  CapacityExceededError,
  createHearthNetError,
  ExpiredError,
  HEARTHNET_ERROR_CODES,
  HearthNetError,
  type HearthNetErrorCode,
  type HearthNetErrorOptions,
  httpStatusForErrorCode,
  InternalError,
  InvalidSignatureError,
  isHearthNetErrorCode,
  NotFoundError,
  NotImplementedError,
  PartitionError,
  RateLimitedError,
  type RetryPolicy,
  RevokedError,
  retryPolicyForErrorCode,
  SchemaMismatchError,
  type SchemaMismatchErrorOptions,
  TimeoutError,
  UnauthorizedError,
} from './hearthnet-errors.js';
export {
  type FromSchema,
  JSON_SCHEMA_KEYWORDS,
  type JsonSchema,
  type JsonSchemaType,
  type JsonValue,
  type SchemaMode,
} from './json-schema.js';
export {
  type CapabilityPayloadPart,
  type CapabilityValidators,
  compileSchema,
  type SchemaIssue,
  type SchemaValidator,
  type ValidationResult,
  validatorsFor,
} from './validators.js';
