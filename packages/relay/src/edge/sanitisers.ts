import { isJsonObject, isPythonTruthy, pythonStr } from '@agentwire/internal';
import { RelayError } from '../errors.js';
import { buildSessionKey, SESSION_KEY_DIALECTS, type SessionKeyDialect } from '../session-key.js';
import type { CapabilityBinding } from '../vault.js';

/**
 * The session source a gateway builds for a forwarded Discord interaction, under the wire names of
 * `SessionSource`. `profile` is present only for the `upstream-2026-09-21` dialect, when set.
 */
export interface DiscordInteractionSessionSource {
  readonly platform: 'relay' | 'discord';
  readonly chat_id: string;
  readonly chat_type: 'channel' | 'group' | 'dm';
  readonly user_id: string | null;
  readonly user_name: string | null;
  readonly scope_id: string | null;
  readonly message_id: string | null;
  readonly profile?: string;
}

/**
 * The `SessionSource` the gateway's passthrough handler derives from a Discord interaction object,
 * per gateway revision (`dialect`):
 *
 * - `baseline-2026-07-26`: `platform: 'relay'`, `chat_type` `'channel'` in a guild, else `'dm'`
 *   (session key `agent:main:relay:channel:<channel>:<user>`);
 * - `upstream-2026-09-21`: `platform: 'discord'`, `chat_type` `'group'` in a guild, else `'dm'`, and
 *   the forward's `profile` stamped on the source (key `agent:main:discord:group:<channel>:<user>`).
 *
 * In both, `chat_id` is `str(channel_id or "")`, the user is `member.user`, else `user`, and ids are
 * rendered with Python's `str()` when truthy, `null` otherwise.
 *
 * @throws {RelayError} `sanitiser_malformed_payload`: an id that is neither a string nor a safe integer (the
 * gateway would `str()` it into a form that cannot be reproduced here).
 *
 * @example
 * discordInteractionSessionSource(
 *   { type: 2, guild_id: 'G1', channel_id: 'C1', member: { user: { id: 'U1', username: 'ann' } } },
 *   'upstream-2026-09-21',
 * ); // { platform: 'discord', chat_id: 'C1', chat_type: 'group', user_id: 'U1', … }
 */
export function discordInteractionSessionSource(
  interaction: { readonly [field: string]: unknown },
  dialect: SessionKeyDialect,
  profile: string | null = null,
): DiscordInteractionSessionSource {
  const member = interaction['member'];
  const memberUser = isJsonObject(member) ? member['user'] : undefined;
  const user = truthy(memberUser) ? memberUser : truthy(interaction['user']) ? interaction['user'] : {};
  const userFields = isJsonObject(user) ? user : {};
  const inGuild = truthy(interaction['guild_id']);
  const upstream = dialect === 'upstream-2026-09-21';
  const source: DiscordInteractionSessionSource = {
    platform: upstream ? 'discord' : 'relay',
    chat_id: idText(interaction['channel_id'], 'channel_id') ?? '',
    chat_type: inGuild ? (upstream ? 'group' : 'channel') : 'dm',
    user_id: idText(userFields['id'], 'user.id'),
    user_name: idText(userFields['username'], 'user.username'),
    scope_id: idText(interaction['guild_id'], 'guild_id'),
    message_id: idText(interaction['id'], 'id'),
  };
  return upstream && profile !== null && profile !== '' ? { ...source, profile } : source;
}

function truthy(value: unknown): boolean {
  return isPythonTruthy(value as Parameters<typeof isPythonTruthy>[0]);
}

/** Python's `str(value) if value else None`, for the values whose `str()` is reproducible. */
function idText(value: unknown, path: string): string | null {
  if (!truthy(value)) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isSafeInteger(value))) {
    return pythonStr(value);
  }
  throw new RelayError(
    'sanitiser_malformed_payload',
    `interaction ${path} must be a string or an integer id, got ${Array.isArray(value) ? 'an array' : typeof value}`,
    { path },
  );
}

/** One member of the top-level object: the span from its key's opening quote to its value's end. */
interface MemberSpan {
  readonly key: string;
  readonly start: number;
  readonly end: number;
}

/** The outcome of {@link removeTopLevelMembers}. */
export interface MemberRemoval {
  /** The text without the removed members; the input itself when nothing was removed. */
  readonly text: string;
  /** How many members were removed (duplicate keys each count). */
  readonly removed: number;
}

/**
 * Removes every member of a JSON object text's top level whose key (after unescaping, so
 * `"tok\u0065n"` counts as `token`) is in `names`, and keeps every other character as it was: key
 * order, whitespace, number spellings and escapes of the rest are untouched. A removed member takes
 * the comma that separated it from its neighbour with it, so the result is still one JSON object.
 *
 * @throws {RelayError} `sanitiser_malformed_payload`: `text` is not one JSON object (`JSON.parse` is the
 *   judge).
 */
export function removeTopLevelMembers(text: string, names: ReadonlySet<string>): MemberRemoval {
  try {
    JSON.parse(text);
  } catch (error) {
    throw new RelayError('sanitiser_malformed_payload', 'the body is not JSON', {
      path: 'body',
      cause: error,
    });
  }
  const members = topLevelMembers(text);
  const kept = members.filter((member) => !names.has(member.key));
  if (kept.length === members.length) return { text, removed: 0 };

  const first = members[0]!;
  const last = members[members.length - 1]!;
  let out = text.slice(0, first.start);
  kept.forEach((member, index) => {
    if (index > 0) {
      const position = members.indexOf(member);
      out += text.slice(members[position - 1]!.end, member.start);
    }
    out += text.slice(member.start, member.end);
  });
  return { text: out + text.slice(last.end), removed: members.length - kept.length };
}

/** The members of the top-level object of `text`, which `JSON.parse` has accepted. */
function topLevelMembers(text: string): MemberSpan[] {
  let at = skipWhitespace(text, 0);
  if (text[at] !== '{')
    throw new RelayError('sanitiser_malformed_payload', 'the body is not a JSON object', { path: 'body' });
  at = skipWhitespace(text, at + 1);
  const members: MemberSpan[] = [];
  if (text[at] === '}') return members;
  for (;;) {
    const start = at;
    const keyEnd = skipString(text, at);
    const key = JSON.parse(text.slice(start, keyEnd)) as string;
    at = skipWhitespace(text, keyEnd) + 1; // the ':'
    const end = skipValue(text, skipWhitespace(text, at));
    members.push({ key, start, end });
    at = skipWhitespace(text, end);
    if (text[at] === '}') return members;
    at = skipWhitespace(text, at + 1); // past the ','
  }
}

function skipWhitespace(text: string, from: number): number {
  let at = from;
  while (at < text.length && ' \t\n\r'.includes(text[at]!)) at++;
  return at;
}

/** The index after the string literal opening at `from`. */
function skipString(text: string, from: number): number {
  let at = from + 1;
  while (at < text.length) {
    const ch = text[at]!;
    if (ch === '\\') at += 2;
    else if (ch === '"') return at + 1;
    else at++;
  }
  throw new RelayError('sanitiser_malformed_payload', 'unterminated string in the body', { path: 'body' });
}

/** The index after the value starting at `from`. */
function skipValue(text: string, from: number): number {
  const ch = text[from];
  if (ch === '"') return skipString(text, from);
  if (ch === '{' || ch === '[') {
    let depth = 0;
    let at = from;
    while (at < text.length) {
      const c = text[at]!;
      if (c === '"') {
        at = skipString(text, at);
        continue;
      }
      if (c === '{' || c === '[') depth++;
      else if ((c === '}' || c === ']') && --depth === 0) return at + 1;
      at++;
    }
    throw new RelayError('sanitiser_malformed_payload', 'unterminated value in the body', { path: 'body' });
  }
  let at = from;
  while (at < text.length && !',}] \t\n\r'.includes(text[at]!)) at++;
  return at;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** The text of well-formed UTF-8 `bytes`; throws `sanitiser_malformed_payload` otherwise. */
export function decodeUtf8Strict(bytes: Uint8Array, path: string): string {
  try {
    return strictUtf8.decode(bytes);
  } catch (error) {
    throw new RelayError('sanitiser_malformed_payload', `${path} is not well-formed UTF-8`, {
      path,
      cause: error,
    });
  }
}

/** UTF-8 bytes of `text` (well-formed UTF-16 round-trips byte for byte with {@link decodeUtf8Strict}). */
export function encodeUtf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** The `follow_up` capability kind a Discord interaction token is bound under. */
export const DISCORD_INTERACTION_TOKEN_KIND = 'discord.interaction_token';

/** How long Discord accepts follow-ups with an interaction token: 15 minutes. */
export const DISCORD_INTERACTION_TOKEN_TTL_MS = 15 * 60 * 1000;

/**
 * The members of an interaction object that act on the shared bot identity. Discord documents one:
 * `token`, which answers and edits the interaction and sends follow-ups for 15 minutes. Nothing else
 * in the interaction object (ids, `app_permissions`, `member`, `message`, `data`) is a credential.
 */
const CREDENTIAL_MEMBERS: ReadonlySet<string> = new Set(['token']);

/** Options of {@link sanitiseDiscordInteraction}. */
export interface DiscordSanitiseOptions {
  /** The tenant the interaction was routed to; the token is bound for it alone. */
  readonly tenant: string;
  /**
   * The gateway revisions whose session key the token is bound under, one binding each (duplicates
   * dropped). Default: every dialect of `SESSION_KEY_DIALECTS`, so that a baseline and a newer
   * gateway both find it.
   */
  readonly dialects?: readonly SessionKeyDialect[];
  /**
   * The profile the forward carries (`forward.profile`). Newer gateways stamp it on the event, and
   * when they multiplex profiles their session store keys the session under `agent:<profile>:…`; the
   * token is then also bound under that key. Default none.
   */
  readonly profile?: string | null;
  /** The gateway's `group_sessions_per_user` (default `true`, the gateway's default). */
  readonly groupSessionsPerUser?: boolean;
  /** The bindings' time to live in milliseconds; default 15 minutes, Discord's own lifetime for the token. */
  readonly tokenTtlMs?: number;
}

/** A Discord interaction ready to leave the edge. */
export interface SanitisedDiscordInteraction {
  /** The body to forward: the verified bytes with the `token` member cut out, nothing else changed. */
  readonly forwardedBody: Uint8Array;
  /** The token, bound under each session key the gateway may name in its `follow_up`; empty without one. */
  readonly bindings: readonly CapabilityBinding[];
}

/**
 * Strips the shared-identity credential out of a verified Discord interaction body and binds it for
 * `follow_up` (contract §4, §6): the `token` member is cut out of the raw text — key order,
 * whitespace and every other byte stay as Discord sent them (the gateway parses the JSON, so this is
 * a courtesy, not a requirement) — and, when it is a non-empty string, bound under kind
 * `discord.interaction_token` for `tenant` and each session key the gateway derives for the
 * interaction (the session source of its channel and user), for 15 minutes. A `token` spelled with
 * escapes (`"tok\u0065n"`) or given twice is removed all the same.
 *
 * @throws {RelayError} `sanitiser_malformed_payload`: `body` is not a UTF-8 JSON object, or an id in it
 *   cannot be keyed.
 * @throws {RelayError} `sanitiser_invalid_argument`: unusable options.
 * @throws {RelayError} `invalid_session_source`, `invalid_session_key_options` or
 *   `whatsapp_identifier_unresolvable`: never for a Discord source in practice (the key builder's own
 *   checks).
 *
 * @example
 * const { interaction, body } = verifyDiscordInteraction(edgeRequest, { publicKey });
 * const { forwardedBody, bindings } = sanitiseDiscordInteraction(body, { tenant: 'tenant-a' });
 * for (const binding of bindings) await server.bindCapability(binding);
 * await server.forwardPassthrough('tenant-a', { platform: 'discord', bodyB64: encodePassthroughBody(forwardedBody) });
 */
export function sanitiseDiscordInteraction(
  body: Uint8Array,
  options: DiscordSanitiseOptions,
): SanitisedDiscordInteraction {
  if (!(body instanceof Uint8Array))
    throw new RelayError('sanitiser_invalid_argument', 'body must be a Uint8Array', { path: 'body' });
  const settings = checkOptions(options);
  const text = decodeUtf8Strict(body, 'body');
  const removal = removeTopLevelMembers(text, CREDENTIAL_MEMBERS);
  const interaction = JSON.parse(text) as { readonly [field: string]: unknown };
  const token = interaction['token'];
  const forwardedBody = removal.removed === 0 ? body : encodeUtf8(removal.text);
  if (typeof token !== 'string' || token === '') return { forwardedBody, bindings: [] };

  const sessionKeys = new Set<string>();
  for (const dialect of settings.dialects) {
    const source = discordInteractionSessionSource(interaction, dialect, settings.profile);
    const keyOptions = { dialect, groupSessionsPerUser: settings.groupSessionsPerUser };
    sessionKeys.add(buildSessionKey(source, keyOptions));
    if (source.profile !== undefined) {
      sessionKeys.add(buildSessionKey(source, { ...keyOptions, profile: source.profile }));
    }
  }
  const bindings = [...sessionKeys].map(
    (session_key): CapabilityBinding => ({
      tenant: settings.tenant,
      session_key,
      kind: DISCORD_INTERACTION_TOKEN_KIND,
      credential: token,
      ttl_ms: settings.tokenTtlMs,
    }),
  );
  return { forwardedBody, bindings };
}

interface DiscordSanitiseSettings {
  readonly tenant: string;
  readonly dialects: readonly SessionKeyDialect[];
  readonly profile: string | null;
  readonly groupSessionsPerUser: boolean;
  readonly tokenTtlMs: number;
}

function checkOptions(options: DiscordSanitiseOptions): DiscordSanitiseSettings {
  if (typeof options !== 'object' || options === null) {
    throw new RelayError('sanitiser_invalid_argument', 'options must be an object', { path: 'options' });
  }
  const { tenant, dialects = SESSION_KEY_DIALECTS, profile = null } = options;
  if (typeof tenant !== 'string' || tenant === '') {
    throw new RelayError('sanitiser_invalid_argument', 'tenant must be a non-empty string', {
      path: 'options.tenant',
    });
  }
  if (
    !Array.isArray(dialects) ||
    dialects.length === 0 ||
    !dialects.every((dialect) => SESSION_KEY_DIALECTS.includes(dialect))
  ) {
    throw new RelayError(
      'sanitiser_invalid_argument',
      `dialects must be a non-empty array of ${SESSION_KEY_DIALECTS.join(', ')}`,
      { path: 'options.dialects' },
    );
  }
  if (profile !== null && typeof profile !== 'string') {
    throw new RelayError('sanitiser_invalid_argument', 'profile must be a string or null', {
      path: 'options.profile',
    });
  }
  const groupSessionsPerUser = options.groupSessionsPerUser ?? true;
  if (typeof groupSessionsPerUser !== 'boolean') {
    throw new RelayError('sanitiser_invalid_argument', 'groupSessionsPerUser must be a boolean', {
      path: 'options.groupSessionsPerUser',
    });
  }
  const tokenTtlMs = options.tokenTtlMs ?? DISCORD_INTERACTION_TOKEN_TTL_MS;
  if (typeof tokenTtlMs !== 'number' || !Number.isFinite(tokenTtlMs) || tokenTtlMs <= 0) {
    throw new RelayError('sanitiser_invalid_argument', 'tokenTtlMs must be a positive finite number', {
      path: 'options.tokenTtlMs',
    });
  }
  return { tenant, dialects, profile, groupSessionsPerUser, tokenTtlMs };
}

/** One child element of an XML document's root, as a span of the document text. */
export interface XmlChildElement {
  readonly name: string;
  /** Index of its `<`. */
  readonly start: number;
  /** Index after its end tag (or after `/>`). */
  readonly end: number;
  /** Its text: the CDATA section or the entity-decoded text it holds; `undefined` when it holds elements. */
  readonly text: string | undefined;
}

const CDATA_OPEN = '<![CDATA[';
const CDATA_CLOSE = ']]>';
const NAME = /[A-Za-z_][\w.:-]*/y;
const ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * The child elements of the root of a small XML document such as a WeCom callback message (`<xml>`
 * holding `<ToUserName>`, `<MsgType>`, …): an XML declaration, comments and whitespace around
 * elements are skipped; CDATA sections are read as text and never searched for tags. This is no
 * general XML parser: DTDs and processing instructions inside the root are not supported.
 *
 * @throws {RelayError} `sanitiser_malformed_payload`: no root element, or an element that is not closed.
 */
export function xmlRootChildren(xml: string): XmlChildElement[] {
  let at = skipProlog(xml, 0);
  const root = openTag(xml, at);
  if (root === undefined || root.selfClosing) {
    throw new RelayError('sanitiser_malformed_payload', 'the message has no XML root element', {
      path: 'message',
    });
  }
  at = root.end;
  const children: XmlChildElement[] = [];
  for (;;) {
    at = skipMisc(xml, at);
    if (xml.startsWith('</', at)) return children;
    const tag = openTag(xml, at);
    if (tag === undefined)
      throw new RelayError('sanitiser_malformed_payload', 'the XML root is not closed', { path: 'message' });
    if (tag.selfClosing) {
      children.push({ name: tag.name, start: at, end: tag.end, text: '' });
      at = tag.end;
      continue;
    }
    const [contentEnd, end] = elementEnd(xml, tag.end);
    children.push({ name: tag.name, start: at, end, text: elementText(xml.slice(tag.end, contentEnd)) });
    at = end;
  }
}

/** Entity-decoded text of plain character data (the five predefined entities and numeric references). */
export function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9A-Fa-f]+|#\d+|[a-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return safeCodePoint(Number.parseInt(ref.slice(2), 16)) ?? whole;
    if (ref.startsWith('#')) return safeCodePoint(Number.parseInt(ref.slice(1), 10)) ?? whole;
    return ENTITIES[ref] ?? whole;
  });
}

function safeCodePoint(code: number): string | undefined {
  return code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : undefined;
}

function elementText(content: string): string | undefined {
  const trimmed = content.trim();
  if (trimmed.startsWith(CDATA_OPEN) && trimmed.endsWith(CDATA_CLOSE)) {
    const inner = trimmed.slice(CDATA_OPEN.length, -CDATA_CLOSE.length);
    if (!inner.includes(CDATA_CLOSE)) return inner;
  }
  return content.includes('<') ? undefined : decodeXmlText(content);
}

interface OpenTag {
  readonly name: string;
  readonly end: number;
  readonly selfClosing: boolean;
}

/** The start tag at `at`, or undefined when there is none there. */
function openTag(xml: string, at: number): OpenTag | undefined {
  if (xml[at] !== '<') return undefined;
  NAME.lastIndex = at + 1;
  const match = NAME.exec(xml);
  if (match === null) return undefined;
  const close = tagClose(xml, NAME.lastIndex);
  return { name: match[0], end: close + 1, selfClosing: xml[close - 1] === '/' };
}

/** The index of the `>` closing a tag whose attributes start at `from`, quotes respected. */
function tagClose(xml: string, from: number): number {
  let quote: string | undefined;
  for (let at = from; at < xml.length; at++) {
    const ch = xml[at]!;
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '>') return at;
  }
  throw new RelayError('sanitiser_malformed_payload', 'an XML tag is not closed', { path: 'message' });
}

/** For content starting at `from`: the index of its end tag and the index after it. */
function elementEnd(xml: string, from: number): [number, number] {
  let depth = 1;
  let at = from;
  while (at < xml.length) {
    const lt = xml.indexOf('<', at);
    if (lt < 0) break;
    if (xml.startsWith(CDATA_OPEN, lt)) at = endOf(xml, CDATA_CLOSE, lt);
    else if (xml.startsWith('<!--', lt)) at = endOf(xml, '-->', lt);
    else if (xml.startsWith('</', lt)) {
      const end = tagClose(xml, lt + 2) + 1;
      if (--depth === 0) return [lt, end];
      at = end;
    } else {
      const tag = openTag(xml, lt);
      if (tag === undefined) at = lt + 1;
      else {
        if (!tag.selfClosing) depth++;
        at = tag.end;
      }
    }
  }
  throw new RelayError('sanitiser_malformed_payload', 'an XML element is not closed', { path: 'message' });
}

/** Skips the XML declaration, comments and whitespace before the root. */
function skipProlog(xml: string, from: number): number {
  let at = skipMisc(xml, from);
  if (xml.startsWith('<?', at)) at = skipMisc(xml, endOf(xml, '?>', at));
  return at;
}

/** Skips whitespace, character data and comments between elements. */
function skipMisc(xml: string, from: number): number {
  let at = from;
  for (;;) {
    while (at < xml.length && xml[at] !== '<') at++;
    if (!xml.startsWith('<!--', at)) return at;
    at = endOf(xml, '-->', at);
  }
}

function endOf(xml: string, terminator: string, from: number): number {
  const found = xml.indexOf(terminator, from);
  if (found < 0)
    throw new RelayError('sanitiser_malformed_payload', `no ${terminator} in the message`, {
      path: 'message',
    });
  return found + terminator.length;
}

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
 * (`SuiteTicket` and `AuthCode`) are cut out of the text; every other character is kept.
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
