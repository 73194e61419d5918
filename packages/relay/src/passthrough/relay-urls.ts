import { RelayError } from '../errors.js';
import { pythonStrip, rstripChar } from '../python/index.js';
import { describe } from './describe.js';

const RELAY_PATH = '/relay';

/**
 * Every URL a gateway derives from the configured connector base URL. The gateway computes each one in
 * its own function, and they treat white space and slashes slightly differently: each field here is
 * what that function gives.
 */
export interface RelayUrls {
  /** The WebSocket the gateway dials: `ws(s)://…/relay`. */
  readonly webSocket: string;
  /** The HTTP origin and path prefix of the provision and policy calls, without `/relay`. */
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
 * or empty value only gets `/relay` appended, as the gateway does. The gateway applies it to the
 * setting as read (white space stripped, trailing `/` dropped), which differs only for a value with
 * white space before its trailing slashes: {@link deriveRelayUrls}`(base).webSocket` is the URL it
 * dials.
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
 * The HTTP base of the provision and policy calls, as the gateway's `_provision_url` and
 * `_policy_url` compute it: drop trailing `/`, map a leading `ws://` to `http://` and `wss://` to
 * `https://`, then remove one trailing `/relay`. The gateway applies it to the configured URL as read
 * (see {@link deriveRelayUrls}); a dial URL maps back to its base too.
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
 * All URLs a gateway derives from its configured connector base URL, each as the gateway's own code
 * computes it. The gateway first reads the setting (`relay_url()`: strip Python white space, drop
 * trailing `/`), then:
 *
 * - `webSocket`: {@link relayWebSocketUrl} of that (`_ws_dial_url`, which strips white space again);
 * - `httpBase`, `provision`, `policy`: {@link relayHttpBaseUrl} of that (`_provision_url`,
 *   `_policy_url`) plus `/relay/provision` or `/relay/policy`;
 * - `enroll` (the enroll CLI): the same base with trailing `/` dropped once more, plus `/relay/enroll`;
 * - `media` (the media client): the base computed after stripping white space again, trailing `/`
 *   dropped, plus `/relay/media`.
 *
 * They differ only for odd settings: `https://c.example//relay` gives `https://c.example//relay/provision`
 * but `https://c.example/relay/media`, and `https://c.example /` dials `wss://c.example/relay`.
 *
 * @example
 * deriveRelayUrls('https://connector.example');
 * // { webSocket: 'wss://connector.example/relay', httpBase: 'https://connector.example',
 * //   enroll: 'https://connector.example/relay/enroll', provision: '…/relay/provision',
 * //   policy: '…/relay/policy', media: '…/relay/media' }
 */
export function deriveRelayUrls(baseUrl: string): RelayUrls {
  const configured = rstripChar(pythonStrip(requireString(baseUrl, 'baseUrl')), '/');
  const httpBase = relayHttpBaseUrl(configured);
  const mediaBase = rstripChar(relayHttpBaseUrl(pythonStrip(configured)), '/');
  return {
    webSocket: relayWebSocketUrl(configured),
    httpBase,
    enroll: `${rstripChar(httpBase, '/')}/relay/enroll`,
    provision: `${httpBase}/relay/provision`,
    policy: `${httpBase}/relay/policy`,
    media: `${mediaBase}/relay/media`,
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
    throw new RelayError('passthrough_invalid_argument', `${path} must be a string, got ${describe(value)}`, {
      path,
    });
  return value;
}
