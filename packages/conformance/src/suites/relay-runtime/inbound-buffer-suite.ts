import type { InboundBuffer } from '@agentwire/relay';
import type { ConformanceSuite } from '../../suite.js';
import { bufferCases } from './buffer-cases.js';
import { RELAY_RUNTIME_SUITE_VERSION } from './suite-version.js';

/** Options of {@link inboundBufferSuite}. */
export interface InboundBufferSuiteOptions {
  /** Creates a fresh, open buffer. Cases call it once or more and close every buffer they create. */
  readonly create: () => InboundBuffer | Promise<InboundBuffer>;
  /**
   * `true` when buffers from `create` share one backend (e.g. Redis): what one appends, another
   * reads and acknowledges, also one created afterwards. Capability `shared-backend`.
   */
  readonly sharedBackend?: boolean;
  /** Releases what the caller set up for the run; called after the last case. */
  readonly dispose?: () => void | Promise<void>;
}

/** The context every case of {@link inboundBufferSuite} receives. */
export interface InboundBufferContext {
  readonly create: () => Promise<InboundBuffer>;
}

const SUITE_NAME = 'relay-runtime.buffer';

/**
 * The `InboundBuffer` rules (relay-reference §2.6): unique ids never reused, reads in append order
 * strictly after a position (also one acknowledged meanwhile) and at most `limit` long, idempotent
 * `ack` that never crosses tenants, `size`, frames replayed verbatim, and — with capability
 * `shared-backend` — entries surviving into another instance. Tenants are fresh per case, so a
 * shared backend needs no cleaning between cases.
 *
 * @example
 * ```ts
 * import { InMemoryInboundBuffer } from '@agentwire/relay';
 * const report = await runSuite(inboundBufferSuite({ create: () => new InMemoryInboundBuffer() }));
 * ```
 */
export function inboundBufferSuite(
  options: InboundBufferSuiteOptions,
): ConformanceSuite<InboundBufferContext> {
  const capabilities = new Set<string>();
  if (options.sharedBackend === true) capabilities.add('shared-backend');
  return {
    name: SUITE_NAME,
    version: RELAY_RUNTIME_SUITE_VERSION,
    description:
      'The InboundBuffer rules: unique, never reused ids; ordered, exclusive, limited reads; idempotent, ' +
      'tenant-bound acks; size; verbatim frames; entries shared between instances of one backend.',
    cases: bufferCases(SUITE_NAME),
    setup: () => ({
      ctx: { create: async () => options.create() },
      capabilities,
      ...(options.dispose === undefined ? {} : { dispose: options.dispose }),
    }),
  };
}
