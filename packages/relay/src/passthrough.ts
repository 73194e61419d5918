import {
  decodeBase64,
  decodeBase64PythonLenient,
  describeType,
  encodeBase64,
  pythonStr,
} from '@agentwire/internal';
import { RelayError } from './errors.js';
import { pythonStrip, rstripChar } from './python.js';

/**
 * Encodes a forwarded request body for `passthrough_forward.forward.bodyB64`: standard base64 with
 * `=` padding, the only form the gateway decodes back to the same bytes (anything unpadded arrives
 * as an empty body, silently).
 *
 * @example
 * encodePassthroughBody(new TextEncoder().encode('{"type":1}')); // 'eyJ0eXBlIjoxfQ=='
 */
export function encodePassthroughBody(body: Uint8Array): string {
  if (!(body instanceof Uint8Array)) {
    throw new RelayError(
      'passthrough_invalid_argument',
      `body must be a Uint8Array, got ${describeType(body)}`,
      {
        path: 'body',
      },
    );
  }
  return encodeBase64(body);
}

/**
 * Decodes `bodyB64` exactly as the gateway does (`base64.b64decode` in non-validating mode, any
 * failure giving an empty body), so a connector can see what the gateway will receive. Never
 * throws: a non-string, a text with non-ASCII characters, unpadded or truncated base64 all give
 * zero bytes; characters outside the standard alphabet (`-`, `_`, whitespace) are skipped; data
 * after completed padding is ignored.
 *
 * @example
 * decodePassthroughBody('eyJ0eXBlIjoxfQ=='); // bytes of '{"type":1}'
 * decodePassthroughBody('eyJ0eXBlIjoxfQ');   // Uint8Array [] — unpadded
 */
export function decodePassthroughBody(bodyB64: unknown): Uint8Array {
  if (typeof bodyB64 !== 'string') return new Uint8Array(0);
  const decoded = decodeBase64PythonLenient(bodyB64);
  return decoded instanceof Uint8Array ? decoded : new Uint8Array(0);
}

/**
 * Decodes `bodyB64` only when it is canonical padded standard base64 — what
 * {@link encodePassthroughBody} writes — and throws a `RelayError` `passthrough_body_invalid` otherwise.
 * Every text it accepts decodes to the same bytes under {@link decodePassthroughBody}.
 */
export function decodePassthroughBodyStrict(bodyB64: string): Uint8Array {
  if (typeof bodyB64 !== 'string') {
    throw new RelayError(
      'passthrough_body_invalid',
      `bodyB64 must be a string, got ${describeType(bodyB64)}`,
      {
        path: 'bodyB64',
      },
    );
  }
  const decoded = decodeBase64(bodyB64);
  if (decoded instanceof Uint8Array) return decoded;
  throw new RelayError(
    'passthrough_body_invalid',
    `bodyB64 is not padded standard base64: ${decoded.refused}`,
    { path: 'bodyB64' },
  );
}

/** One forwarded HTTP header, `[name, value]`, as it travels in `forward.headers`. */
export type PassthroughHeader = readonly [name: string, value: string];

/**
 * Headers as `[name, value]` pairs from `[name, value]` entries, such as a WHATWG `Headers` object
 * (which lower-cases names and joins repeated headers) or `Object.entries` of a plain record. Order
 * is kept. Throws a `RelayError` `passthrough_invalid_argument` for an entry that is not a pair of strings.
 *
 * @example
 * passthroughHeadersFromEntries(request.headers); // [['content-type', 'application/json'], …]
 */
export function passthroughHeadersFromEntries(
  entries: Iterable<readonly [string, string]>,
): PassthroughHeader[] {
  if (typeof entries !== 'object' || entries === null || !(Symbol.iterator in entries)) {
    throw new RelayError(
      'passthrough_invalid_argument',
      `entries must be iterable, got ${describeType(entries)}`,
      { path: 'entries' },
    );
  }
  const headers: PassthroughHeader[] = [];
  for (const entry of entries as Iterable<unknown>) {
    const path = `entries[${headers.length}]`;
    if (!Array.isArray(entry) || entry.length !== 2) {
      throw new RelayError('passthrough_invalid_argument', `${path} must be a [name, value] pair`, { path });
    }
    headers.push([requireString(entry[0], `${path}[0]`), requireString(entry[1], `${path}[1]`)]);
  }
  return headers;
}

/**
 * Headers as `[name, value]` pairs from Node's `IncomingMessage.rawHeaders` (a flat
 * `[name, value, name, value, …]` list), which keeps the received spelling, order and repeats —
 * the closest to the bytes the provider sent.
 *
 * @example
 * passthroughHeadersFromRawHeaders(req.rawHeaders);
 */
export function passthroughHeadersFromRawHeaders(rawHeaders: readonly string[]): PassthroughHeader[] {
  if (!Array.isArray(rawHeaders) || rawHeaders.length % 2 !== 0) {
    throw new RelayError('passthrough_invalid_argument', 'rawHeaders must be an array of even length', {
      path: 'rawHeaders',
    });
  }
  const headers: PassthroughHeader[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    headers.push([
      requireString(rawHeaders[i], `rawHeaders[${i}]`),
      requireString(rawHeaders[i + 1], `rawHeaders[${i + 1}]`),
    ]);
  }
  return headers;
}

/**
 * Reads a wire `forward.headers` value as the gateway does: a missing or falsy value, a string or an
 * object gives no headers; in an array, only 2-element arrays are kept (others are skipped), in
 * order, each part converted with Python's `str()` — `null` → `"None"`, `true` → `"True"`, `false` →
 * `"False"`, an integer → its decimal digits. Throws a `RelayError` `passthrough_headers_invalid` for a
 * truthy number or `true` (the gateway's reader crashes iterating it) and for a part whose `str()`
 * cannot be reproduced here (a non-integer number, an integer beyond 2^53, an array or object).
 * JavaScript has one number type, so an integral float on the wire (`1.0`) reaches this function as
 * `1` and is rendered `"1"`, where the gateway writes `"1.0"` (the frame decoders refuse any
 * non-string header part, so this only concerns values read by other means).
 */
export function passthroughHeadersFromWire(value: unknown): PassthroughHeader[] {
  if (!value || typeof value === 'string' || (typeof value === 'object' && !Array.isArray(value))) return [];
  if (!Array.isArray(value)) {
    throw new RelayError(
      'passthrough_headers_invalid',
      `headers is ${describeType(value)} ${String(value)}, which the gateway cannot iterate`,
      { path: 'headers' },
    );
  }
  const headers: PassthroughHeader[] = [];
  value.forEach((pair: unknown, i) => {
    if (!Array.isArray(pair) || pair.length !== 2) return;
    headers.push([headerPartStr(pair[0], `headers[${i}][0]`), headerPartStr(pair[1], `headers[${i}][1]`)]);
  });
  return headers;
}

function requireString(value: unknown, path: string): string {
  if (typeof value !== 'string')
    throw new RelayError(
      'passthrough_invalid_argument',
      `${path} must be a string, got ${describeType(value)}`,
      {
        path,
      },
    );
  return value;
}

/**
 * Python's `str()` of a header part. Only strings, `null`, booleans and safe integers other than `-0`
 * are rendered: an integral number may have been spelled as a float on the wire (`1e16`, `-0.0`),
 * and the other values are refused as {@link passthroughHeadersFromWire} documents.
 */
function headerPartStr(value: unknown, path: string): string {
  if (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    value === null ||
    (typeof value === 'number' && Number.isSafeInteger(value) && !Object.is(value, -0))
  ) {
    return pythonStr(value);
  }
  throw new RelayError(
    'passthrough_headers_invalid',
    `${path} is ${describeType(value)}; its Python str() form depends on how the JSON spelled it`,
    { path },
  );
}

/** The largest media upload or download the gateway accepts: 25 MiB. Uploads must also be non-empty. */
export const RELAY_MEDIA_MAX_BYTES = 26_214_400;

/** The upload header carrying the file name. */
export const RELAY_MEDIA_FILENAME_HEADER = 'X-Media-Filename';

/** The longest file name the gateway sends in {@link RELAY_MEDIA_FILENAME_HEADER}. */
export const RELAY_MEDIA_FILENAME_MAX_LENGTH = 255;

/** The prefix (and version) of a prompt callback token. */
export const PROMPT_CALLBACK_PREFIX = 'hp1';

/** What a prompt or option id may contain: 1–32 of `A–Z a–z 0–9 _ . -` (so never `:`). */
export const PROMPT_CALLBACK_ID_PATTERN = /^[A-Za-z0-9_.-]{1,32}$/;

/** The button pressed on an interactive prompt: the `prompt` action's `prompt_id` and one `options[].id`. */
export interface PromptCallback {
  readonly promptId: string;
  readonly optionId: string;
}

/**
 * The callback token for one prompt button, `hp1:<prompt_id>:<option_id>` (a Discord `custom_id`,
 * Telegram `callback_data`, …). Ids cannot be escaped: an id outside `[A-Za-z0-9_.-]{1,32}` — one
 * holding `:`, for instance — throws a `RelayError` `prompt_callback_invalid_id`. The longest token is 69
 * bytes; Telegram's `callback_data` holds 64, which the gateway's own ids (8-hex prompt ids, short
 * option ids) stay well within.
 *
 * @example
 * encodePromptCallback({ promptId: '1a2b3c4d', optionId: 'once' }); // 'hp1:1a2b3c4d:once'
 */
export function encodePromptCallback(callback: PromptCallback): string {
  if (typeof callback !== 'object' || callback === null) {
    throw new RelayError(
      'prompt_callback_invalid_id',
      `callback must be an object, got ${describeType(callback)}`,
      { path: 'callback' },
    );
  }
  const promptId = checkedId(callback.promptId, 'promptId', 'prompt_callback_invalid_id');
  const optionId = checkedId(callback.optionId, 'optionId', 'prompt_callback_invalid_id');
  return `${PROMPT_CALLBACK_PREFIX}:${promptId}:${optionId}`;
}

/**
 * Reads a prompt callback token the way the gateway does: exactly three `:`-separated parts, the
 * first `hp1` (case-sensitive), both ids matching `[A-Za-z0-9_.-]{1,32}`. Throws a
 * `RelayError` `prompt_callback_malformed` otherwise; the gateway then treats the text as an
 * ordinary message. An id followed by a line break is refused here, where a Python `re.match` with
 * `$` would accept it. A press is delivered as an inbound event with text `/<option_id>`,
 * `message_type: "command"` and a `prompt_response`.
 *
 * @example
 * decodePromptCallback('hp1:1a2b3c4d:once'); // { promptId: '1a2b3c4d', optionId: 'once' }
 */
export function decodePromptCallback(token: string): PromptCallback {
  if (typeof token !== 'string') {
    throw new RelayError(
      'prompt_callback_malformed',
      `a callback token must be a string, got ${describeType(token)}`,
      { path: 'token' },
    );
  }
  const parts = token.split(':');
  if (parts.length !== 3) {
    throw new RelayError(
      'prompt_callback_malformed',
      `a callback token has 3 \`:\`-separated parts, this one has ${parts.length}`,
      { path: 'token' },
    );
  }
  const [prefix, promptId, optionId] = parts as [string, string, string];
  if (prefix !== PROMPT_CALLBACK_PREFIX) {
    throw new RelayError(
      'prompt_callback_malformed',
      `the token does not start with ${PROMPT_CALLBACK_PREFIX}:`,
      { path: 'token' },
    );
  }
  return {
    promptId: checkedId(promptId, 'promptId', 'prompt_callback_malformed'),
    optionId: checkedId(optionId, 'optionId', 'prompt_callback_malformed'),
  };
}

/** Whether `value` is a prompt callback token {@link decodePromptCallback} accepts. */
export function isPromptCallbackToken(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const parts = value.split(':');
  return (
    parts.length === 3 &&
    parts[0] === PROMPT_CALLBACK_PREFIX &&
    PROMPT_CALLBACK_ID_PATTERN.test(parts[1]!) &&
    PROMPT_CALLBACK_ID_PATTERN.test(parts[2]!)
  );
}

function checkedId(
  id: unknown,
  path: 'promptId' | 'optionId',
  code: 'prompt_callback_invalid_id' | 'prompt_callback_malformed',
): string {
  if (typeof id !== 'string')
    throw new RelayError(code, `${path} must be a string, got ${describeType(id)}`, { path });
  if (!PROMPT_CALLBACK_ID_PATTERN.test(id)) {
    throw new RelayError(code, `${path} ${JSON.stringify(id)} is not 1–32 of A–Z a–z 0–9 _ . -`, { path });
  }
  return id;
}

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
 * - `httpBase`, `provision`, `policy`: `relayHttpBaseUrl` of that (`_provision_url`,
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
