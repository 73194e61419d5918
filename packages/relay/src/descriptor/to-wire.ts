import type { JsonValue } from '../json/index.js';
import { DESCRIPTOR_FIELDS } from './fields.js';
import type { CapabilityDescriptor } from './schema.js';

/**
 * The descriptor as the `descriptor` object of a `descriptor` frame: every field, in the gateway's
 * declaration order, values unchanged. Parsing the result gives back an equal descriptor.
 */
export function descriptorToWire(descriptor: CapabilityDescriptor): { readonly [key: string]: JsonValue } {
  const wire: Record<string, JsonValue> = {};
  for (const name of DESCRIPTOR_FIELDS) wire[name] = descriptor[name];
  return wire;
}
