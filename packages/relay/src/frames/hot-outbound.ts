import type { OutboundAction } from './actions.js';
import type { OutboundFrame } from './gateway-frames.js';
import { MEDIA_KINDS } from './ops.js';

/**
 * How an action schema reads one of its keys (the `zod` schemas of `actions.ts`, written out):
 * - `string`: required string;
 * - `optionalString`: a string when present, left out when absent;
 * - `replyTo`: a string or `null`, `null` when absent;
 * - `metadata`: an object (not an array), `{}` when absent;
 * - `stringOrEmpty`: a string, `""` when absent;
 * - `booleanOrFalse`: a boolean, `false` when absent;
 * - `mediaKind`: one of `MEDIA_KINDS`.
 */
type FieldRule =
  | 'string'
  | 'optionalString'
  | 'replyTo'
  | 'metadata'
  | 'stringOrEmpty'
  | 'booleanOrFalse'
  | 'mediaKind';

/**
 * The keys of each op's action schema in schema order (the order `zod` writes them, before the
 * unknown keys a loose object keeps). `prompt` is left to its schema: its options are objects.
 */
const ACTION_RULES: Readonly<Record<string, readonly (readonly [key: string, rule: FieldRule])[]>> = {
  send: [
    ['chat_id', 'string'],
    ['content', 'string'],
    ['reply_to', 'replyTo'],
    ['metadata', 'metadata'],
  ],
  edit: [
    ['chat_id', 'string'],
    ['message_id', 'string'],
    ['content', 'string'],
    ['metadata', 'metadata'],
  ],
  typing: [
    ['chat_id', 'string'],
    ['content', 'optionalString'],
    ['metadata', 'metadata'],
  ],
  follow_up: [
    ['session_key', 'string'],
    ['kind', 'string'],
    ['content', 'string'],
    ['metadata', 'metadata'],
  ],
  get_chat_info: [['chat_id', 'string']],
  send_media: [
    ['chat_id', 'string'],
    ['media_kind', 'mediaKind'],
    ['source_url', 'string'],
    ['content', 'stringOrEmpty'],
    ['reply_to', 'replyTo'],
    ['metadata', 'metadata'],
    ['filename', 'optionalString'],
  ],
  react: [
    ['chat_id', 'string'],
    ['message_id', 'string'],
    ['emoji', 'string'],
    ['remove', 'booleanOrFalse'],
    ['metadata', 'metadata'],
  ],
  thread_create: [
    ['chat_id', 'string'],
    ['thread_name', 'string'],
    ['metadata', 'metadata'],
    ['message_id', 'optionalString'],
  ],
  thread_rename: [
    ['chat_id', 'string'],
    ['message_id', 'string'],
    ['thread_name', 'string'],
    ['metadata', 'metadata'],
    ['only_if_current_name', 'optionalString'],
  ],
};

const MEDIA_KIND_SET: ReadonlySet<unknown> = new Set(MEDIA_KINDS);

/** Marks a key whose value the schema would refuse: the schema then decides. */
const REFUSED = Symbol('refused');

/**
 * A hand-written decoder of the `outbound` frame, the gateway's frame of every outbound call, for a
 * plain object whose own keys are plain data (a value just made by `JSON.parse`, or the wire object
 * `encodeFrame` is about to check). It answers exactly what `outboundFrameSchema` answers — the frame
 * with unknown top-level keys dropped, the action's defaults filled and its unknown keys kept, keys in
 * the schema's order, nested values kept as they are — or `undefined` when the frame has anything
 * unusual about it (a refused value, an unknown or `prompt` op, an own `__proto__` key), and the
 * schema decides. `hot-outbound.test.ts` checks that they agree.
 */
export function decodeOutboundFast(value: Record<string, unknown>): OutboundFrame | undefined {
  const requestId = value['requestId'];
  const raw = value['action'];
  const platform = value['platform'];
  const botId = value['botId'];
  if (typeof requestId !== 'string' || !isPlainRecord(raw) || Object.hasOwn(value, '__proto__')) {
    return undefined;
  }
  if (!isOptionalString(value, 'platform', platform) || !isOptionalString(value, 'botId', botId)) {
    return undefined;
  }
  const action = decodeActionFast(raw);
  if (action === undefined) return undefined;
  const frame: { -readonly [K in keyof OutboundFrame]: OutboundFrame[K] } = {
    type: 'outbound',
    requestId,
    action,
  };
  if (platform !== undefined) frame.platform = platform as string;
  if (botId !== undefined) frame.botId = botId as string;
  return frame;
}

function decodeActionFast(raw: Record<string, unknown>): OutboundAction | undefined {
  const op = raw['op'];
  const rules = typeof op === 'string' && Object.hasOwn(ACTION_RULES, op) ? ACTION_RULES[op] : undefined;
  if (rules === undefined || Object.hasOwn(raw, '__proto__')) return undefined;
  const action: Record<string, unknown> = { op };
  for (const [key, rule] of rules) {
    const read = readField(rule, Object.hasOwn(raw, key), raw[key]);
    if (read === REFUSED) return undefined;
    if (read !== undefined) action[key] = read;
  }
  for (const key in raw) {
    if (!Object.hasOwn(raw, key) || key === 'op' || hasRule(rules, key)) continue;
    const item = raw[key];
    if (item === undefined) return undefined;
    action[key] = item;
  }
  return action as unknown as OutboundAction;
}

/** The decoded value of a key (`undefined`: left out), or {@link REFUSED}. */
function readField(rule: FieldRule, present: boolean, value: unknown): unknown {
  if (present && value === undefined) return REFUSED;
  switch (rule) {
    case 'string':
      return typeof value === 'string' ? value : REFUSED;
    case 'optionalString':
      return !present || typeof value === 'string' ? value : REFUSED;
    case 'replyTo':
      if (!present) return null;
      return value === null || typeof value === 'string' ? value : REFUSED;
    case 'metadata':
      if (!present) return {};
      return isRecord(value) ? value : REFUSED;
    case 'stringOrEmpty':
      if (!present) return '';
      return typeof value === 'string' ? value : REFUSED;
    case 'booleanOrFalse':
      if (!present) return false;
      return typeof value === 'boolean' ? value : REFUSED;
    case 'mediaKind':
      return MEDIA_KIND_SET.has(value) ? value : REFUSED;
  }
}

function hasRule(rules: readonly (readonly [string, FieldRule])[], key: string): boolean {
  for (const [ruleKey] of rules) if (ruleKey === key) return true;
  return false;
}

function isOptionalString(frame: Record<string, unknown>, key: string, value: unknown): boolean {
  return typeof value === 'string' || (value === undefined && !Object.hasOwn(frame, key));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && Object.getPrototypeOf(value) === Object.prototype;
}
