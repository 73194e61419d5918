import { pythonStrip, rstripChar } from '../python/index.js';
import { describe } from './describe.js';
import { PassthroughArgumentError } from './errors.js';

const RELAY_PATH = '/relay';

/** Every URL a gateway derives from the configured connector base URL. */
export interface RelayUrls {
  /** The WebSocket the gateway dials: `ws(s)://…/relay`. */
  readonly webSocket: string;
  /** The HTTP origin and path prefix of the side calls, without `/relay`. */
  readonly httpBase: string;
  /** `POST` target of `hermes gateway enroll`: `…/relay/enroll`. */
  readonly enroll: string;
  /** `POST` target of self-provisioning: `…/relay/provision`. */
  readonly provision: string;
  /** `POST` target of the relevance policy: `…/relay/policy`. */
  readonly policy: string;
  /** `POST` target of media uploads: `…/relay/media`; one item is {@link relayMediaUrl}. */
  readonly media: string;
}

/**
 * The WebSocket URL the gateway dials for a configured base URL (`GATEWAY_RELAY_URL` /
 * `gateway.relay_url`), exactly as its `_ws_dial_url`: strip surrounding whitespace (Python's
 * definition), map a leading `https://` to `wss://` and `http://` to `ws://` (case-sensitive), drop
 * trailing `/`, then append `/relay` unless the URL already ends with it. Idempotent. A scheme-less
 * or empty value only gets `/relay` appended, as the gateway does.
 *
 * @example
 * relayWebSocketUrl(' https://connector.example/ '); // 'wss://connector.example/relay'
 */
export function relayWebSocketUrl(baseUrl: string): string {
  let url = pythonStrip(requireString(baseUrl, 'baseUrl'));
  if (url.startsWith('https://')) url = `wss://${url.slice('https://'.length)}`;
  else if (url.startsWith('http://')) url = `ws://${url.slice('http://'.length)}`;
  url = rstripChar(url, '/');
  return url.endsWith(RELAY_PATH) ? url : `${url}${RELAY_PATH}`;
}

/**
 * The HTTP base of the side calls for a dial URL, as the gateway's `_provision_url` and
 * `_policy_url`: drop trailing `/`, map a leading `ws://` to `http://` and `wss://` to `https://`,
 * then remove one trailing `/relay`. Given a configured base URL, derive the dial URL first
 * ({@link deriveRelayUrls} does).
 *
 * @example
 * relayHttpBaseUrl('wss://connector.example/relay'); // 'https://connector.example'
 */
export function relayHttpBaseUrl(dialUrl: string): string {
  let url = rstripChar(requireString(dialUrl, 'dialUrl'), '/');
  if (url.startsWith('ws://')) url = `http://${url.slice('ws://'.length)}`;
  else if (url.startsWith('wss://')) url = `https://${url.slice('wss://'.length)}`;
  return url.endsWith(RELAY_PATH) ? url.slice(0, -RELAY_PATH.length) : url;
}

/**
 * All URLs a gateway derives from its configured connector base URL.
 *
 * @example
 * deriveRelayUrls('https://connector.example');
 * // { webSocket: 'wss://connector.example/relay', httpBase: 'https://connector.example',
 * //   enroll: 'https://connector.example/relay/enroll', provision: '…/relay/provision',
 * //   policy: '…/relay/policy', media: '…/relay/media' }
 */
export function deriveRelayUrls(baseUrl: string): RelayUrls {
  const webSocket = relayWebSocketUrl(baseUrl);
  const httpBase = relayHttpBaseUrl(webSocket);
  return {
    webSocket,
    httpBase,
    enroll: `${httpBase}/relay/enroll`,
    provision: `${httpBase}/relay/provision`,
    policy: `${httpBase}/relay/policy`,
    media: `${httpBase}/relay/media`,
  };
}

/**
 * The URL of one uploaded media item, `…/relay/media/<id>`, with `id` from the upload's `{id, size}`
 * answer. The gateway inserts the id as it is, without percent-encoding, so a connector should issue
 * URL-safe ids.
 *
 * @example
 * relayMediaUrl('https://connector.example', 'm_123'); // 'https://connector.example/relay/media/m_123'
 */
export function relayMediaUrl(baseUrl: string, mediaId: string): string {
  return `${deriveRelayUrls(baseUrl).media}/${requireString(mediaId, 'mediaId')}`;
}

function requireString(value: unknown, path: string): string {
  if (typeof value !== 'string')
    throw new PassthroughArgumentError(`${path} must be a string, got ${describe(value)}`, path);
  return value;
}
