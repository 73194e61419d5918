import { isPrefixedContentId } from '../../hashing/content-id.js';

/**
 * Who holds which blob, as peers announced with `file.advertise` (contract §4.9, gossip): the
 * `file.advertise` handler records into it, and a node that wants a CID asks it where to `file.read`.
 */
export interface BlobDirectory {
  /** Records that `holder` holds `cids`; returns how many pairs were new. */
  record(holder: string, cids: readonly string[]): Promise<number>;
  /** The node ids that announced `cid`, in the order they did. */
  holdersOf(cid: string): Promise<string[]>;
}

/** A {@link BlobDirectory} in memory (one process). */
export class InMemoryBlobDirectory implements BlobDirectory {
  readonly #holders = new Map<string, Set<string>>();

  async record(holder: string, cids: readonly string[]): Promise<number> {
    let added = 0;
    for (const cid of cids) {
      if (!isPrefixedContentId(cid)) continue;
      let holders = this.#holders.get(cid);
      if (holders === undefined) {
        holders = new Set();
        this.#holders.set(cid, holders);
      }
      if (!holders.has(holder)) {
        holders.add(holder);
        added += 1;
      }
    }
    return added;
  }

  async holdersOf(cid: string): Promise<string[]> {
    return [...(this.#holders.get(cid) ?? [])];
  }
}
