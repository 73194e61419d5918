import type { PassthroughForward } from '../../frames/index.js';
import type { CapabilityBinding } from '../../vault/index.js';

/**
 * Where an edge handler hands a verified webhook: a `RelayServer` (any instance of a multi-instance
 * connector — the forward is buffered and the bus wakes whichever instance holds the gateway), or
 * any object with the same two methods.
 */
export interface PassthroughRelay {
  /** Stores a `passthrough_forward` for the tenant's gateway; resolves once it is buffered. */
  forwardPassthrough(tenant: string, forward: Partial<PassthroughForward>): Promise<unknown>;
  /** Binds a `follow_up` credential in the capability vault. */
  bindCapability(binding: CapabilityBinding): Promise<void>;
}
