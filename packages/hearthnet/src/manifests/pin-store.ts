/**
 * Where a verifier remembers the first public key it saw for each `node_id` (contract §6.1: "pin the
 * first-seen public key per node_id"). Implementations must make {@link PinStore.pin} atomic per
 * node id: of two concurrent first pins, one wins and both callers get the winner.
 */
export interface PinStore {
  /** Pins `publicKey` for `nodeId` unless a key is pinned already; resolves to the key pinned now. */
  pin(nodeId: string, publicKey: Uint8Array): Promise<Uint8Array>;
  /** The key pinned for `nodeId`, if any. */
  get(nodeId: string): Promise<Uint8Array | undefined>;
}

/**
 * A {@link PinStore} in memory, for one process. Keys are copied in and out.
 *
 * @example
 * const pins = new InMemoryPinStore();
 * await pins.pin(nodeId, publicKey); // publicKey (first seen)
 * await pins.pin(nodeId, otherKey); // still publicKey
 */
export class InMemoryPinStore implements PinStore {
  readonly #pins = new Map<string, Uint8Array>();

  /** Starts with `initial` pins, e.g. keys learnt out of band. */
  constructor(initial: Iterable<readonly [string, Uint8Array]> = []) {
    for (const [nodeId, publicKey] of initial) {
      if (!this.#pins.has(nodeId)) this.#pins.set(nodeId, new Uint8Array(publicKey));
    }
  }

  async pin(nodeId: string, publicKey: Uint8Array): Promise<Uint8Array> {
    let pinned = this.#pins.get(nodeId);
    if (pinned === undefined) {
      pinned = new Uint8Array(publicKey);
      this.#pins.set(nodeId, pinned);
    }
    return new Uint8Array(pinned);
  }

  async get(nodeId: string): Promise<Uint8Array | undefined> {
    const pinned = this.#pins.get(nodeId);
    return pinned === undefined ? undefined : new Uint8Array(pinned);
  }
}
