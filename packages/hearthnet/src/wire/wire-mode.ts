import { HearthNetLocalError } from '../errors.js';

/**
 * Which wire a client or handler speaks:
 * - `contract` — contract §5: routing in `X-HearthNet-*` headers, body `{params, input}`, the
 *   request signature over the synthetic envelope (§5.1), signed responses (§5.2), §5.4 error bodies
 *   with §5.5 statuses;
 * - `reference` — what the Python reference nodes really do (hearthnet-reference.md §6): routing in
 *   the body `{capability, version, params, input, stream}`, `X-HearthNet-Signature` over the body
 *   only, no timestamp or replay protection, in-band `{error}` bodies with HTTP 200 (service errors)
 *   or 500 (bus errors).
 */
export type WireMode = 'contract' | 'reference';

/** The wire mode of an options object, `contract` by default. */
export function wireModeOf(value: unknown): WireMode {
  if (value === undefined || value === 'contract') return 'contract';
  if (value === 'reference') return 'reference';
  throw new HearthNetLocalError(
    'invalid_wire_options',
    `wire must be 'contract' or 'reference', got ${JSON.stringify(value)}`,
  );
}
