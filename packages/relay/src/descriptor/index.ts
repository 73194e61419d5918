export { type JsonValue, jsonValueSchema } from '../json/json-value.js';
export { descriptorMessageLength, descriptorSupportsCodeBlocks } from './adapter-view.js';
export { type CreateDescriptorFields, createDescriptor } from './create.js';
export {
  CONTRACT_VERSION,
  DEFAULT_MAX_MESSAGE_LENGTH,
  DESCRIPTOR_FIELDS,
  LEGACY_OPS,
  OPTIONAL_DESCRIPTOR_DEFAULTS,
  REQUIRED_DESCRIPTOR_FIELDS,
} from './fields.js';
export { parseDescriptor, parseDescriptorValue } from './parse.js';
export {
  type CapabilityDescriptor,
  capabilityDescriptorWireSchema,
  descriptorWireObjectSchema,
  type LengthUnit,
  type StrictCapabilityDescriptor,
} from './schema.js';
export { descriptorSupportsOp } from './supports-op.js';
export { type DescriptorToJsonOptions, descriptorToJson } from './to-json.js';
export { descriptorToWire } from './to-wire.js';
