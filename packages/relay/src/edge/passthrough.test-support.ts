import type { PassthroughForward } from '../frames/frames.js';
import type { CapabilityBinding } from '../vault.js';
import type { PassthroughRelay } from './passthrough.js';

/** A {@link PassthroughRelay} that records what it is handed, in order, and can be made to fail or stall. */
export class RecordingRelay implements PassthroughRelay {
  readonly calls: (
    | { readonly bind: CapabilityBinding }
    | { readonly forward: Partial<PassthroughForward>; readonly tenant: string }
  )[] = [];
  /** Makes `forwardPassthrough` wait for this promise (and fail when it rejects). */
  gate: Promise<void> | undefined;

  async forwardPassthrough(
    tenant: string,
    forward: Partial<PassthroughForward>,
  ): Promise<{ bufferId: string }> {
    await this.gate;
    this.calls.push({ tenant, forward });
    return { bufferId: String(this.calls.length) };
  }

  async bindCapability(binding: CapabilityBinding): Promise<void> {
    this.calls.push({ bind: binding });
  }

  get forwards(): { readonly forward: Partial<PassthroughForward>; readonly tenant: string }[] {
    return this.calls.filter((call) => 'forward' in call);
  }

  get bindings(): CapabilityBinding[] {
    return this.calls.flatMap((call) => ('bind' in call ? [call.bind] : []));
  }
}

/** A tenant resolver over a fixed table of `platform:routeKey` → tenant, recording its lookups. */
export function tableResolver(table: Readonly<Record<string, string>>) {
  const lookups: string[] = [];
  const resolver = (platform: string, routeKey: string): string | null => {
    lookups.push(`${platform}:${routeKey}`);
    return table[`${platform}:${routeKey}`] ?? null;
  };
  return { resolver, lookups };
}

/** The decoded text of a forward's `bodyB64`. */
export function forwardedText(forward: Partial<PassthroughForward>): string {
  return new TextDecoder().decode(Uint8Array.from(atob(forward.bodyB64 ?? ''), (c) => c.charCodeAt(0)));
}
