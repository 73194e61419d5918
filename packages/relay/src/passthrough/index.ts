export { decodePassthroughBody, decodePassthroughBodyStrict, encodePassthroughBody } from './body.js';
export {
  type PassthroughHeader,
  passthroughHeadersFromEntries,
  passthroughHeadersFromRawHeaders,
  passthroughHeadersFromWire,
} from './headers.js';
export {
  RELAY_MEDIA_FILENAME_HEADER,
  RELAY_MEDIA_FILENAME_MAX_LENGTH,
  RELAY_MEDIA_MAX_BYTES,
} from './media-plane.js';
export {
  decodePromptCallback,
  encodePromptCallback,
  isPromptCallbackToken,
  PROMPT_CALLBACK_ID_PATTERN,
  PROMPT_CALLBACK_PREFIX,
  type PromptCallback,
} from './prompt-callback.js';
export {
  deriveRelayUrls,
  type RelayUrls,
  relayHttpBaseUrl,
  relayMediaUrl,
  relayWebSocketUrl,
} from './relay-urls.js';
