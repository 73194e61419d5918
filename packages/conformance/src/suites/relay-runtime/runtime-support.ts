import { fail } from '../../assert.js';
import type { CapabilityNeed } from '../../suite.js';

/** Something a relay runtime suite creates per case and must release. */
export interface Closable {
  close(): Promise<void>;
}

let tenantCounter = 0;
const RUN_ID = Math.random().toString(36).slice(2, 10);

/**
 * A tenant id no other case (or run, against a shared backend) uses. It carries `:` and non-ASCII
 * text on purpose: tenant ids are opaque strings that backends must keep apart.
 */
export function uniqueTenant(label: string): string {
  tenantCounter += 1;
  return `conformance:${label}:é-${RUN_ID}-${tenantCounter}`;
}

/**
 * Creates `count` instances, runs `body` with them and closes every one, also when `body` throws. A
 * `close()` that rejects fails the case (unless `body` already failed it).
 */
export async function withInstances<T extends Closable, R>(
  create: () => T | Promise<T>,
  count: number,
  body: (instances: readonly T[]) => Promise<R>,
): Promise<R> {
  const instances: T[] = [];
  let result: R;
  try {
    for (let i = 0; i < count; i += 1) instances.push(await create());
    result = await body(instances);
  } catch (error) {
    await Promise.allSettled(instances.map((instance) => instance.close()));
    throw error;
  }
  const closing = await Promise.allSettled(instances.map((instance) => instance.close()));
  const failed = closing.find((outcome) => outcome.status === 'rejected');
  if (failed !== undefined) fail('close() rejected', failed.reason);
  return result;
}

/** Resolves after `ms` milliseconds of real time. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Checks `condition` until it holds, letting time pass with `step` between checks, at most
 * `attempts` times; fails with `message` (built after the last check) when it never holds.
 */
export async function pollUntil(
  condition: () => Promise<boolean>,
  options: { readonly attempts: number; readonly step: () => Promise<void> },
  message: () => string,
): Promise<void> {
  for (let attempt = 0; attempt < options.attempts; attempt += 1) {
    if (await condition()) return;
    await options.step();
  }
  if (await condition()) return;
  fail(message());
}

/** Version of the relay runtime suites (bus, inbound buffer, capability vault); 2.0.0: `read` returns `frameJson`. */
export const RELAY_RUNTIME_SUITE_VERSION = '2.0.0';

/**
 * Version of the relay bus suite: 2.1.0 checks the code and `path` of every refusal (`invalid_bus_argument`,
 * `bus_closed`), malformed messages, and `unsubscribe` / `close` after close; cases keep `since`
 * {@link RELAY_RUNTIME_SUITE_VERSION}.
 */
export const RELAY_BUS_SUITE_VERSION = '2.1.0';

/**
 * Version of the inbound buffer suite: 2.1.0 checks the code and `path` of every refusal
 * (`invalid_buffer_argument`, `buffer_closed`) over more malformed tenants, frames, limits and ids, and
 * added the required `ack.many-in-any-order`; the other cases keep `since` {@link RELAY_RUNTIME_SUITE_VERSION}.
 */
export const INBOUND_BUFFER_SUITE_VERSION = '2.1.0';

/**
 * Version of the capability vault suite: 2.1.0 added the recommended `bind.tenants-kept-apart` case
 * (bindings are keyed by `(tenant, session_key, kind)`); 2.2.0 checks the code and `path` of every
 * refusal (`invalid_vault_argument`, `vault_closed`, `revoke` too) over more malformed input. The other
 * cases keep `since` {@link RELAY_RUNTIME_SUITE_VERSION}.
 */
export const CAPABILITY_VAULT_SUITE_VERSION = '2.2.0';
/** The version of the capability vault suite that added `bind.tenants-kept-apart`. */
export const CAPABILITY_VAULT_SINCE_2_1 = '2.1.0';

/**
 * What gives the `shared-backend` capability of the relay runtime and edge store suites: stores that
 * share one backend, as the instances of one connector do on Redis.
 */
export const SHARED_BACKEND_NEEDS: Readonly<Record<string, CapabilityNeed>> = {
  'shared-backend': {
    provide:
      'sharedBackend: true, when the stores create returns share one backend (as the instances of one connector do on Redis)',
  },
};
