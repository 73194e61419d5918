import { LEGACY_OPS } from './fields.js';
import type { CapabilityDescriptor } from './schema.js';

/**
 * Whether the gateway will send `op` to a connector with this descriptor (`supports_op`): an empty
 * `supported_ops` means the legacy set `send`, `edit`, `typing`, `follow_up`; otherwise exact,
 * case-sensitive membership.
 *
 * @example
 * descriptorSupportsOp(parseDescriptor(text), 'react'); // false unless 'react' is listed
 */
export function descriptorSupportsOp(descriptor: CapabilityDescriptor, op: string): boolean {
  const ops = descriptor.supported_ops;
  return ops.length === 0 ? LEGACY_OPS.has(op) : ops.includes(op);
}
