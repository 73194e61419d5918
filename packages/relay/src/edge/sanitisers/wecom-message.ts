import { RelayError } from '../../errors.js';
import { encodeUtf8 } from './utf8.js';
import { xmlRootChildren } from './xml-elements.js';

/**
 * Elements of a decrypted WeCom callback that act on the shared (suite / provider) identity: the
 * `SuiteTicket` of a `suite_ticket` callback (with the suite secret it mints suite access tokens for
 * every authorising corp) and the `AuthCode` of `create_auth` / `reset_permanent_code` callbacks
 * (exchanged for a corp's permanent code). Message and event callbacks carry none.
 */
export const WECOM_CREDENTIAL_ELEMENTS: readonly string[] = ['SuiteTicket', 'AuthCode'];

/** A decrypted WeCom message ready to leave the edge. */
export interface SanitisedWeComMessage {
  /** The UTF-8 bytes to forward: the decrypted XML without credential elements, nothing else changed. */
  readonly forwardedBody: Uint8Array;
  /** The text of each root child element that holds text (`ToUserName`, `AgentID`, `MsgType` …), first wins. */
  readonly fields: ReadonlyMap<string, string>;
  /** The names of the credential elements that were removed. */
  readonly removed: readonly string[];
}

/**
 * Sanitises the plaintext of a verified WeCom callback (`verifyWeComCallback(...).message`). What
 * reaches the gateway is this decrypted XML: never the ciphertext, the `msg_signature` or anything of
 * the Token and EncodingAESKey, which stay at the edge. The root's credential children
 * ({@link WECOM_CREDENTIAL_ELEMENTS}) are cut out of the text; every other character is kept.
 *
 * @throws {RelayError} `sanitiser_malformed_payload`: the message has no readable XML root.
 * @throws {RelayError} `sanitiser_invalid_argument`: `message` is not a string.
 *
 * @example
 * const callback = verifyWeComCallback(edgeRequest, { token, encodingAesKey, corpId });
 * if (callback.kind === 'message') {
 *   const { forwardedBody, fields } = sanitiseWeComMessage(callback.message);
 *   fields.get('ToUserName'); // the corp id, to route on
 * }
 */
export function sanitiseWeComMessage(message: string): SanitisedWeComMessage {
  if (typeof message !== 'string')
    throw new RelayError('sanitiser_invalid_argument', 'message must be a string', { path: 'message' });
  const children = xmlRootChildren(message);
  const fields = new Map<string, string>();
  for (const child of children) {
    if (child.text !== undefined && !fields.has(child.name)) fields.set(child.name, child.text);
  }
  const credentials = children.filter((child) => WECOM_CREDENTIAL_ELEMENTS.includes(child.name));
  let text = message;
  for (const child of [...credentials].reverse()) text = text.slice(0, child.start) + text.slice(child.end);
  for (const name of WECOM_CREDENTIAL_ELEMENTS) fields.delete(name);
  return { forwardedBody: encodeUtf8(text), fields, removed: credentials.map((child) => child.name) };
}
