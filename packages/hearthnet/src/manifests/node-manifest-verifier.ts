import type { SignedNodeManifest } from './node-manifest-schema.js';
import type { PinStore } from './pin-store.js';
import {
  type NodeManifestVerdict,
  nodeManifestError,
  rejectManifest,
  verifyNodeManifest,
} from './verify-node-manifest.js';

/** Options of a {@link NodeManifestVerifier}. */
export interface NodeManifestVerifierOptions {
  /** Where first-seen keys are pinned. */
  readonly pinStore: PinStore;
  /** The current time in milliseconds since the epoch (default `Date.now`). */
  readonly clock?: () => number;
  /** Extra milliseconds a manifest stays acceptable after `expires_at` (default 0). */
  readonly clockSkewMs?: number;
}

/**
 * Verifies the manifests of peers with every rule of contract §6.1, key pinning included: the first
 * valid manifest of a `node_id` pins its key in the {@link PinStore}; a later one signed by another
 * key is refused with `invalid_signature` (reason `pinned_key_mismatch`). Refused manifests pin
 * nothing.
 *
 * @example
 * const verifier = new NodeManifestVerifier({ pinStore: new InMemoryPinStore() });
 * const manifest = await verifier.accept(JSON.parse(body)); // throws ExpiredError, InvalidSignatureError, …
 */
export class NodeManifestVerifier {
  readonly #pinStore: PinStore;
  readonly #clock: () => number;
  readonly #clockSkewMs: number;

  constructor(options: NodeManifestVerifierOptions) {
    this.#pinStore = options.pinStore;
    this.#clock = options.clock ?? Date.now;
    this.#clockSkewMs = options.clockSkewMs ?? 0;
  }

  /** The verdict on `value`; pins its key when it is valid and nothing is pinned yet. */
  async verify(value: unknown): Promise<NodeManifestVerdict> {
    const verdict = verifyNodeManifest(value, { now: this.#clock(), clockSkewMs: this.#clockSkewMs });
    if (!verdict.valid) return verdict;
    const pinned = await this.#pinStore.pin(verdict.manifest.node_id, verdict.publicKey);
    if (!equalBytes(pinned, verdict.publicKey)) {
      return rejectManifest(
        'pinned_key_mismatch',
        `another public key is pinned for node ${verdict.manifest.node_id}`,
      );
    }
    return verdict;
  }

  /**
   * The manifest, verified and pinned.
   *
   * @throws `BadRequestError`, `SchemaMismatchError`, `InvalidSignatureError` or
   *   `ExpiredError` (see {@link nodeManifestError}).
   */
  async accept(value: unknown): Promise<SignedNodeManifest> {
    const verdict = await this.verify(value);
    if (!verdict.valid) throw nodeManifestError(verdict);
    return verdict.manifest;
  }
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}
