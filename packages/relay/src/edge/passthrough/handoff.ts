import type { PassthroughForward } from '../../frames/index.js';
import type { CapabilityBinding } from '../../vault/index.js';
import type { PassthroughRelay } from './passthrough-relay.js';

/** What to hand over: the tenant, its credential bindings, then the forward. */
export interface Handoff {
  readonly tenant: string;
  readonly bindings: readonly CapabilityBinding[];
  readonly forward: PassthroughForward;
}

/**
 * Binds every credential, then buffers the forward (binding first, so the gateway's `follow_up`
 * finds the credential however fast it answers). Resolves once both are stored, or after
 * `timeoutMs` when storing takes longer — the provider's ACK must not wait past its window; a late
 * failure then goes to `onLateError`. A failure within `timeoutMs` rejects, so the provider is told.
 * Nothing here waits for the gateway: the forward is buffered until it connects.
 */
export async function handOff(
  relay: PassthroughRelay,
  handoff: Handoff,
  timeoutMs: number,
  onLateError: (error: unknown) => void,
): Promise<void> {
  const stored = (async () => {
    for (const binding of handoff.bindings) await relay.bindCapability(binding);
    await relay.forwardPassthrough(handoff.tenant, handoff.forward);
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
  });
  try {
    const outcome = await Promise.race([stored.then(() => 'stored' as const), late]);
    if (outcome === 'late') stored.catch(onLateError);
  } finally {
    clearTimeout(timer);
  }
}
