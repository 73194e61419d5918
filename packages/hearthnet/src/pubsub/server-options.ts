import type { KeyPair } from '../crypto/index.js';
import type { TrustPolicy } from '../wire/handler/trust.js';
import type { RequestVerifierOptions } from '../wire/request-verifier.js';
import { InvalidPubSubOptionsError } from './errors.js';
import type { TopicHub } from './topic-hub.js';

/** What every pub-sub transport's server side is given (long-poll handler, WebSocket endpoint). */
export interface PubSubServerOptions extends Pick<RequestVerifierOptions, 'clockSkewMs' | 'seenRequestIds'> {
  /** This node's key pair: it answers as `X-HearthNet-From` and signs what it answers. */
  readonly identity: KeyPair;
  /** The hub served. */
  readonly hub: TopicHub;
  /** The callers' trust status (the same policy as the bus handler's). */
  readonly trust: TrustPolicy;
  /** The community served; a request for another community is `unauthorized`. Default: not checked. */
  readonly community?: string;
  /** The clock, epoch ms. Default `Date.now`. */
  readonly now?: () => number;
}

/** {@link PubSubServerOptions} checked, with the clock defaulted. */
export interface PubSubServerSettings {
  readonly identity: KeyPair;
  readonly hub: TopicHub;
  readonly trust: TrustPolicy;
  readonly community: string | undefined;
  readonly now: () => number;
}

/**
 * Checks the options both pub-sub server transports share.
 *
 * @throws {InvalidPubSubOptionsError} naming the unusable option.
 */
export function readPubSubServerOptions(options: PubSubServerOptions): PubSubServerSettings {
  if (options === null || typeof options !== 'object') {
    throw new InvalidPubSubOptionsError('options are required');
  }
  const { identity, hub, trust } = options;
  if (identity === null || typeof identity !== 'object' || typeof identity.nodeId !== 'string') {
    throw new InvalidPubSubOptionsError('identity must be a KeyPair');
  }
  if (hub === null || typeof hub !== 'object' || typeof hub.read !== 'function') {
    throw new InvalidPubSubOptionsError('hub must be a TopicHub');
  }
  if (trust === null || typeof trust !== 'object' || typeof trust.trustOf !== 'function') {
    throw new InvalidPubSubOptionsError('trust must be a TrustPolicy with trustOf(nodeId)');
  }
  return { identity, hub, trust, community: options.community, now: options.now ?? Date.now };
}
