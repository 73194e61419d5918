/**
 * `@agentwire/hearthnet/capabilities` — the capability catalogue of contract §3–§4 as data, schema
 * hashes (§11), capability versions (§2.1), a registry, and the error family of §9.
 *
 * @example
 * ```ts
 * import { catalogueDescriptor, catalogueValidators, schemaHash, satisfies } from '@agentwire/hearthnet/capabilities';
 *
 * schemaHash(catalogueDescriptor('llm.chat')); // 'blake3:…'
 * satisfies('llm.chat@>=1.0', 'llm.chat@1.0'); // true
 * catalogueValidators('rag.query').request.parse({ params: { corpus: 'c' }, input: { query: 'q' } });
 * ```
 *
 * @packageDocumentation
 */
export { satisfies } from './capability-name.js';
export {
  CapabilityRegistry,
  type CapabilityRegistryOptions,
  type RegisterOptions,
  referenceSchemaHash,
  schemaHash,
  schemaHashDocument,
} from './capability-registry.js';
export { CAPABILITY_CATALOGUE, catalogueDescriptor, catalogueValidators } from './catalogue/catalogue.js';
export type { CapabilityDescriptor } from './descriptor.js';
export { asHearthNetError } from './error-body.js';
export {
  BadRequestError,
  CapacityExceededError,
  ExpiredError,
  HearthNetError,
  type HearthNetErrorCode,
  httpStatusForErrorCode,
  InternalError,
  InvalidSignatureError,
  isHearthNetErrorCode,
  NotFoundError,
  NotImplementedError,
  PartitionError,
  RateLimitedError,
  RevokedError,
  SchemaMismatchError,
  TimeoutError,
  UnauthorizedError,
} from './hearthnet-errors.js';
export { validatorsFor } from './validators.js';
