import { createDescriptor, DescriptorError, type StrictCapabilityDescriptor } from '../descriptor/index.js';
import { OUTBOUND_OPS, type OutboundOp } from '../frames/index.js';
import { RelayServerOptionsError } from './errors.js';
import type { PlatformAdapter } from './platform-adapter.js';

/** The ops `adapter` implements, in the contract's op order. */
export function implementedOps(adapter: PlatformAdapter): readonly OutboundOp[] {
  return OUTBOUND_OPS.filter((op) => typeof adapter[op] === 'function');
}

/**
 * The descriptor the server answers a hello for `name` with: the adapter's fields, checked with
 * `createDescriptor`, and `supported_ops` set to exactly the ops it implements. (An adapter that
 * implements none sends `[]`, which the gateway reads as the legacy four; each is then refused.)
 *
 * @throws {RelayServerOptionsError} the adapter is not an object, or its fields would break the gateway.
 */
export function platformDescriptor(name: string, adapter: PlatformAdapter): StrictCapabilityDescriptor {
  const path = `platforms.${name}`;
  if (adapter === null || typeof adapter !== 'object') {
    throw new RelayServerOptionsError(`${path} must be a PlatformAdapter object`, path);
  }
  const fields: unknown = adapter.descriptor;
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) {
    throw new RelayServerOptionsError(`${path}.descriptor must be an object`, `${path}.descriptor`);
  }
  if (Object.hasOwn(fields, 'supported_ops')) {
    throw new RelayServerOptionsError(
      `${path}.descriptor must not set supported_ops: the server lists the ops the adapter implements`,
      `${path}.descriptor.supported_ops`,
    );
  }
  try {
    return createDescriptor({ ...adapter.descriptor, supported_ops: implementedOps(adapter) });
  } catch (error) {
    if (!(error instanceof DescriptorError)) throw error;
    throw new RelayServerOptionsError(
      `${path}.descriptor: ${error.message}`,
      `${path}.descriptor.${error.path}`,
      {
        cause: error,
      },
    );
  }
}
