import { isPythonTruthy, pythonFloatRepr, pythonStr, pythonStringRepr } from '@agentwire/internal';
import { RelayError } from './errors.js';
import { passthroughForwardSchema } from './frames/frames.js';
import { safeParseInEnglish } from './internal.js';
import type { MessageEvent, MessageType } from './message-event.js';
import { decodePassthroughBody, decodePromptCallback, type PromptCallback } from './passthrough.js';
import {
  type PythonJsonDict,
  type PythonJsonValue,
  parsePythonJsonExact,
  pythonStrip,
  rstripChar,
} from './python.js';
import { SESSION_KEY_DIALECTS, type SessionKeyDialect } from './session-key.js';
import type { SessionSource } from './session-source.js';

// Python's operations on the values `json.loads` gave the gateway, as its interaction converter
// uses them: `isinstance(v, dict)`, `d.get(k)`, `bool(v)`, `v == n` and `str(v)`.

/** `isinstance(value, dict)`. */
export function isPythonDict(value: PythonJsonValue | undefined): value is PythonJsonDict {
  return value instanceof Map;
}

/** `dict.get(key)`: `None` (here `null`) for an absent key. */
export function pythonGet(dict: PythonJsonDict, key: string): PythonJsonValue {
  return dict.get(key) ?? null;
}

/** `value == n` for a small integer `n`: an `int`, a `float` of that value, or a `bool` (`True == 1`). */
export function equalsInteger(value: PythonJsonValue, n: number): boolean {
  if (typeof value === 'bigint') return value === BigInt(n);
  if (typeof value === 'number') return value === n;
  if (typeof value === 'boolean') return Number(value) === n;
  return false;
}

/** `str(value)`: a string as it is; everything else in `repr` form (`1.0`, `True`, `{'a': [1, None]}`). */
export function strOf(value: PythonJsonValue): string {
  return typeof value === 'string' ? value : reprOf(value);
}

function reprOf(value: PythonJsonValue): string {
  if (value === null || typeof value === 'boolean') return pythonStr(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return pythonFloatRepr(value);
  // A one-element list's repr is the element's repr in brackets: `['it\'s']` → `"it's"`.
  if (typeof value === 'string') return pythonStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(reprOf).join(', ')}]`;
  const items = [...(value as PythonJsonDict)].map(([key, item]) => `${reprOf(key)}: ${reprOf(item)}`);
  return `{${items.join(', ')}}`;
}

/**
 * The words the gateway appends to a slash command for its `data.options`, in order: a
 * `SUB_COMMAND` or `SUB_COMMAND_GROUP` (option `type` equal to 1 or 2, `true` included) gives its
 * stripped `name` when not blank, then its own `options`, recursively; any other option gives
 * `str(value).strip()` unless the value is `null` or blank (`false`, `0` and `[]` do give words).
 * Anything that is not a list, and entries that are not objects, give nothing.
 */
export function interactionOptionWords(options: PythonJsonValue): string[] {
  const words: string[] = [];
  if (!Array.isArray(options)) return words;
  for (const option of options as readonly PythonJsonValue[]) {
    if (!isPythonDict(option)) continue;
    const type = pythonGet(option, 'type');
    if (equalsInteger(type, 1) || equalsInteger(type, 2)) {
      const name = pythonGet(option, 'name');
      const subcommand = pythonStrip(isPythonTruthy(name) ? strOf(name) : '');
      if (subcommand !== '') words.push(subcommand);
      words.push(...interactionOptionWords(pythonGet(option, 'options')));
    } else {
      const value = pythonGet(option, 'value');
      const word = value === null ? '' : pythonStrip(strOf(value));
      if (word !== '') words.push(word);
    }
  }
  return words;
}

/**
 * A component's `custom_id` read as the gateway reads a prompt callback token: the rules of
 * {@link decodePromptCallback}, except that each id may end in one `\n` that is kept (the gateway
 * checks ids with Python's `re.match` and a `$` anchor, which also matches before a final line
 * break). `undefined` for text that is not a token.
 */
export function gatewayPromptCallback(customId: string): PromptCallback | undefined {
  const parts = customId.split(':');
  if (parts.length !== 3) return undefined;
  const [prefix, promptId, optionId] = parts as [string, string, string];
  try {
    decodePromptCallback(`${prefix}:${withoutFinalNewline(promptId)}:${withoutFinalNewline(optionId)}`);
  } catch (error) {
    if (error instanceof RelayError && error.code === 'prompt_callback_malformed') return undefined;
    throw error;
  }
  return { promptId, optionId };
}

function withoutFinalNewline(id: string): string {
  return id.endsWith('\n') ? id.slice(0, -1) : id;
}

/** Options of {@link discordInteractionEvent}. */
export interface DiscordInteractionEventOptions {
  /**
   * The gateway revision to reproduce (default `baseline-2026-07-26`):
   *
   * - `baseline-2026-07-26`: source `platform: 'relay'`, `chat_type: 'channel'` in a guild, no profile;
   * - `upstream-2026-09-21`: `platform: 'discord'`, `chat_type: 'group'` in a guild, and the forward's
   *   profile stamped on the source.
   */
  readonly dialect?: SessionKeyDialect;
  /**
   * The profile the forward carries, stamped by the `upstream-2026-09-21` dialect (a baseline gateway
   * ignores it). Default: the forward's own `profile`, or none when the input is a body.
   */
  readonly profile?: string | null;
}

/** The forward or body {@link discordInteractionEvent} reads. */
export type DiscordInteractionInput =
  | { readonly platform?: string; readonly bodyB64?: string; readonly profile?: string | null }
  | Uint8Array
  | string;

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The `MessageEvent` the gateway builds from a Discord interaction forwarded on the passthrough plane
 * (`passthrough_forward`), byte for byte, or `undefined` where the gateway drops the forward: a
 * forward whose `platform` is not exactly `discord`, a body that is not UTF-8 JSON (Python's
 * `json.loads`: `NaN` and `Infinity` accepted, a BOM refused) or not an object.
 *
 * The input is a `passthrough_forward` frame's `forward` (its `bodyB64` decoded as the gateway does,
 * `decodePassthroughBody`), or the interaction body itself as bytes or text.
 *
 * - Application command (`type` 2): `"/" + str(data.name)` with trailing `/` removed, then the option
 *   words (see the relay guide), joined by spaces and stripped; `message_type: 'command'`. No name
 *   gives an empty `text` event.
 * - Component press (`type` 3): `text` is `str(data.custom_id)`. A prompt callback token
 *   `hp1:<prompt_id>:<option_id>` becomes `text: '/<option_id>'`, `message_type: 'command'` and
 *   `prompt_response: { prompt_id, option_id, prompt_message_id }` (`message.id`, or `null`).
 * - Any other type (modal submit, autocomplete, none): empty `text`, `message_type: 'text'`.
 *
 * The source: `chat_id` is `str(channel_id)` (`""` when falsy), the user is `member.user`, else
 * `user`, `scope_id` (and its alias `guild_id`) is `str(guild_id)`, `message_id` the interaction
 * `id`, each `str()`-ed when truthy, `null` otherwise; `platform` and `chat_type` (and `profile`) as
 * the dialect says. Every value keeps Python's `str()` form: `1.0` stays `"1.0"`, `true` is `"True"`.
 *
 * @throws {RelayError} `discord_interaction_invalid_argument`: an input or option it cannot take.
 * @throws {RelayError} `discord_interaction_unreadable`: a type 2 or 3 interaction whose `data` is truthy but
 * not an object (the gateway's converter crashes and the forward is dropped).
 * @example
 * const event = discordInteractionEvent(
 *   '{"type":2,"id":"I1","channel_id":"C1","guild_id":"G1","member":{"user":{"id":"U1"}},' +
 *     '"data":{"name":"model","options":[{"type":3,"name":"name","value":"gpt-5"}]}}',
 * );
 * // event.text === '/model gpt-5', event.message_type === 'command'
 * // buildSessionKey(event.source) === 'agent:main:relay:channel:C1:U1'
 */
export function discordInteractionEvent(
  input: DiscordInteractionInput,
  options: DiscordInteractionEventOptions = {},
): MessageEvent | undefined {
  const { dialect, profile: profileOption } = readOptions(options);
  const body = readInput(input);
  if (body === undefined) return undefined;
  const profile = profileOption !== undefined ? profileOption : body.profile;
  let text: string;
  try {
    text = typeof body.content === 'string' ? body.content : UTF8.decode(body.content);
  } catch {
    return undefined;
  }
  const payload = gatewayJsonLoads(text);
  if (!isPythonDict(payload)) return undefined;
  return interactionEvent(payload, dialect, profile);
}

/** `json.loads(text)`, or `undefined` where it raises: the gateway then drops the forward. */
function gatewayJsonLoads(text: string): PythonJsonValue | undefined {
  try {
    return parsePythonJsonExact(text);
  } catch (error) {
    if (error instanceof RelayError && error.code === 'malformed_json') return undefined;
    throw error;
  }
}

function interactionEvent(
  payload: PythonJsonDict,
  dialect: SessionKeyDialect,
  profile: string | null,
): MessageEvent {
  const type = pythonGet(payload, 'type');
  const dataValue = pythonGet(payload, 'data');
  const data = () => {
    if (!isPythonTruthy(dataValue)) return new Map() as PythonJsonDict;
    if (isPythonDict(dataValue)) return dataValue;
    throw new RelayError(
      'discord_interaction_unreadable',
      `interaction data must be an object, got ${pythonTypeName(dataValue)}`,
      { path: 'data' },
    );
  };
  let text = '';
  let messageType: MessageType = 'text';
  let promptResponse: MessageEvent['prompt_response'] = null;
  if (equalsInteger(type, 2)) {
    const command = rstripChar(`/${optionalStr(pythonGet(data(), 'name')) ?? ''}`, '/');
    if (command !== '') {
      text = pythonStrip([command, ...interactionOptionWords(pythonGet(data(), 'options'))].join(' '));
      messageType = 'command';
    }
  } else if (equalsInteger(type, 3)) {
    text = optionalStr(pythonGet(data(), 'custom_id')) ?? '';
    const callback = gatewayPromptCallback(text);
    if (callback !== undefined) {
      const message = pythonGet(payload, 'message');
      promptResponse = {
        prompt_id: callback.promptId,
        option_id: callback.optionId,
        prompt_message_id: isPythonDict(message) ? optionalStr(pythonGet(message, 'id')) : null,
      };
      text = `/${callback.optionId}`;
      messageType = 'command';
    }
  }
  return {
    text,
    message_type: messageType,
    source: interactionSource(payload, dialect, profile),
    message_id: null,
    reply_to_message_id: null,
    reply_to_text: null,
    reply_to_author_name: null,
    reply_to_is_own_message: false,
    media_urls: [],
    media_types: [],
    channel_context: null,
    prompt_response: promptResponse,
  };
}

function interactionSource(
  payload: PythonJsonDict,
  dialect: SessionKeyDialect,
  profile: string | null,
): SessionSource {
  const member = pythonGet(payload, 'member');
  const memberUser = isPythonDict(member) ? pythonGet(member, 'user') : null;
  const user = isPythonTruthy(memberUser) ? memberUser : pythonGet(payload, 'user');
  const userOf = (key: string) => (isPythonDict(user) ? optionalStr(pythonGet(user, key)) : null);
  const scope = optionalStr(pythonGet(payload, 'guild_id'));
  const upstream = dialect === 'upstream-2026-09-21';
  return {
    platform: upstream ? 'discord' : 'relay',
    chat_id: optionalStr(pythonGet(payload, 'channel_id')) ?? '',
    chat_name: null,
    chat_type: scope === null ? 'dm' : upstream ? 'group' : 'channel',
    user_id: userOf('id'),
    user_name: userOf('username'),
    thread_id: null,
    chat_topic: null,
    user_id_alt: null,
    chat_id_alt: null,
    scope_id: scope,
    guild_id: scope,
    parent_chat_id: null,
    message_id: optionalStr(pythonGet(payload, 'id')),
    profile: upstream ? profile : null,
    auto_thread_created: false,
    auto_thread_initial_name: null,
  };
}

function pythonTypeName(value: PythonJsonValue): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'bigint') return 'an int';
  if (typeof value === 'number') return 'a float';
  return typeof value === 'boolean' ? 'a bool' : 'a str';
}

/** Python's `str(value) if value else None`. */
function optionalStr(value: PythonJsonValue): string | null {
  return isPythonTruthy(value) ? strOf(value) : null;
}

interface Body {
  readonly content: Uint8Array | string;
  readonly profile: string | null;
}

function readInput(input: unknown): Body | undefined {
  if (input instanceof Uint8Array) return { content: input, profile: null };
  if (typeof input === 'string') {
    if (LONE_SURROGATE.test(input)) {
      throw new RelayError('discord_interaction_invalid_argument', 'body text must be well-formed Unicode', {
        path: 'body',
      });
    }
    return { content: input, profile: null };
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new RelayError(
      'discord_interaction_invalid_argument',
      `input must be a passthrough forward, body bytes or body text, got ${input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input}`,
    );
  }
  const parsed = safeParseInEnglish(passthroughForwardSchema, input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = ['forward', ...(issue?.path.map(String) ?? [])].join('.');
    throw new RelayError('discord_interaction_invalid_argument', `invalid ${path}: ${issue?.message ?? ''}`, {
      path,
      cause: parsed.error,
    });
  }
  const forward = parsed.data;
  if (forward.platform !== 'discord') return undefined;
  return { content: decodePassthroughBody(forward.bodyB64), profile: forward.profile ?? null };
}

function readOptions(options: DiscordInteractionEventOptions): {
  dialect: SessionKeyDialect;
  profile: string | null | undefined;
} {
  if (typeof options !== 'object' || options === null) {
    throw new RelayError('discord_interaction_invalid_argument', 'options must be an object', {
      path: 'options',
    });
  }
  const { dialect = 'baseline-2026-07-26', profile } = options;
  if (!SESSION_KEY_DIALECTS.includes(dialect)) {
    throw new RelayError('discord_interaction_invalid_argument', `unknown dialect ${String(dialect)}`, {
      path: 'dialect',
    });
  }
  if (profile !== undefined && profile !== null && typeof profile !== 'string') {
    throw new RelayError(
      'discord_interaction_invalid_argument',
      `profile must be a string or null, got ${typeof profile}`,
      { path: 'profile' },
    );
  }
  return { dialect, profile };
}
