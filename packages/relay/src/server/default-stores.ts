import { type InboundBuffer, InMemoryInboundBuffer } from '../buffer/index.js';
import { InMemoryRelayBus, type RelayBus } from '../bus/index.js';
import { type CapabilityVault, InMemoryCapabilityVault } from '../vault/index.js';

/** The bus, buffer and vault a server uses, and which of them it created (and closes with itself). */
export interface ServerStores {
  readonly bus: RelayBus;
  readonly buffer: InboundBuffer;
  readonly vault: CapabilityVault;
  /** The stores the server created; `close()` closes these and leaves the given ones open. */
  readonly owned: readonly { close(): Promise<void> }[];
}

/** The given stores, with in-memory ones (single process) for those not given. */
export function serverStores(
  given: { readonly bus?: RelayBus; readonly buffer?: InboundBuffer; readonly vault?: CapabilityVault },
  now: () => number,
): ServerStores {
  const owned: { close(): Promise<void> }[] = [];
  const own = <T extends { close(): Promise<void> }>(store: T): T => {
    owned.push(store);
    return store;
  };
  return {
    bus: given.bus ?? own(new InMemoryRelayBus()),
    buffer: given.buffer ?? own(new InMemoryInboundBuffer()),
    vault: given.vault ?? own(new InMemoryCapabilityVault({ now })),
    owned,
  };
}
