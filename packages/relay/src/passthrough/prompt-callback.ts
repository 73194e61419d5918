import { RelayError } from '../errors.js';
import { describe } from './describe.js';

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
      `callback must be an object, got ${describe(callback)}`,
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
      `a callback token must be a string, got ${describe(token)}`,
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
    throw new RelayError(code, `${path} must be a string, got ${describe(id)}`, { path });
  if (!PROMPT_CALLBACK_ID_PATTERN.test(id)) {
    throw new RelayError(code, `${path} ${JSON.stringify(id)} is not 1–32 of A–Z a–z 0–9 _ . -`, { path });
  }
  return id;
}
