import { DESCRIPTOR_ERROR_CODES } from '../descriptor/errors.js';
import { createDescriptor, type StrictCapabilityDescriptor } from '../descriptor/index.js';
import { RelayError } from '../errors.js';
import { OUTBOUND_OPS, type OutboundOp } from '../frames/index.js';
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
 * @throws {RelayError} `relay_server_invalid_option`: the adapter is not an object, or its fields would break
 * the gateway.
 */
export function platformDescriptor(name: string, adapter: PlatformAdapter): StrictCapabilityDescriptor {
  const path = `platforms.${name}`;
  if (adapter === null || typeof adapter !== 'object') {
    throw new RelayError('relay_server_invalid_option', `${path} must be a PlatformAdapter object`, { path });
  }
  const fields: unknown = adapter.descriptor;
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) {
    throw new RelayError('relay_server_invalid_option', `${path}.descriptor must be an object`, {
      path: `${path}.descriptor`,
    });
  }
  if (Object.hasOwn(fields, 'supported_ops')) {
    throw new RelayError(
      'relay_server_invalid_option',
      `${path}.descriptor must not set supported_ops: the server lists the ops the adapter implements`,
      { path: `${path}.descriptor.supported_ops` },
    );
  }
  try {
    return createDescriptor({ ...adapter.descriptor, supported_ops: implementedOps(adapter) });
  } catch (error) {
    if (!(error instanceof RelayError && DESCRIPTOR_ERROR_CODES.has(error.code))) throw error;
    throw new RelayError('relay_server_invalid_option', `${path}.descriptor: ${error.message}`, {
      path: `${path}.descriptor.${error.path}`,
      cause: error,
    });
  }
}
