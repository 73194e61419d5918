import { type KeyPair, parseNodeId } from '../../crypto/index.js';

/** What every client of one node is told: who calls, in which community, which node, as whom it must answer. */
export interface PeerClientOptions {
  /** This node's key pair: it signs every request. */
  readonly identity: KeyPair;
  /** The full community id sent as `X-HearthNet-Community`. */
  readonly community: string;
  /** The base URL of the node called, e.g. `http://192.168.1.20:7080`. */
  readonly node: string | URL;
  /** The node id the node must answer as (`X-HearthNet-From`). Default: any node id whose signature verifies. */
  readonly peer?: string;
  /** The `fetch` to use. Default `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
}

/** {@link PeerClientOptions} checked. */
export interface PeerClientSettings {
  readonly identity: KeyPair;
  readonly community: string;
  /** The node's base URL. */
  readonly node: URL;
  readonly peer: string | undefined;
  readonly fetch: typeof fetch;
}

/**
 * Checks the options every client of a node shares (the bus client, the pub-sub clients), throwing the
 * client's own options error through `fail`.
 */
export function readPeerClientOptions(
  options: Partial<PeerClientOptions> | null | undefined,
  fail: (message: string, cause?: unknown) => Error,
): PeerClientSettings {
  if (options === null || typeof options !== 'object') throw fail('options are required');
  const { identity, community } = options;
  if (identity === null || typeof identity !== 'object' || typeof identity.nodeId !== 'string') {
    throw fail('identity must be a KeyPair');
  }
  if (typeof community !== 'string' || community === '') throw fail('community must be a full community id');
  let node: URL;
  try {
    node = new URL(options.node as string | URL);
  } catch (error) {
    throw fail(`node must be a base URL, got ${String(options.node)}`, error);
  }
  if (options.peer !== undefined) {
    try {
      parseNodeId(options.peer);
    } catch (error) {
      throw fail('peer must be a full node id', error);
    }
  }
  const fetchFunction = options.fetch ?? globalThis.fetch;
  if (typeof fetchFunction !== 'function') throw fail('no fetch available: pass options.fetch');
  return { identity, community, node, peer: options.peer, fetch: fetchFunction };
}
