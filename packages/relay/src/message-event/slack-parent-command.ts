import { PYTHON_WHITESPACE_CLASS, pythonStrip } from '../python/whitespace.js';
import type { MessageType } from './message-type.js';

/**
 * The gateway commands a Slack `/hermes <sub>` reaches, as the baseline gateway (2026-07-26) lists them
 * with its default configuration and no plugins (`slack_subcommand_map()`): every command that is not
 * CLI-only, and each alias, mapped to itself.
 */
const SLACK_GATEWAY_COMMANDS = [
  'start',
  'new',
  'reset',
  'topic',
  'retry',
  'undo',
  'title',
  'branch',
  'fork',
  'compress',
  'rollback',
  'stop',
  'approve',
  'deny',
  'background',
  'bg',
  'btw',
  'agents',
  'tasks',
  'queue',
  'q',
  'steer',
  'goal',
  'moa',
  'subgoal',
  'status',
  'egress',
  'whoami',
  'profile',
  'sethome',
  'set-home',
  'resume',
  'sessions',
  'model',
  'codex-runtime',
  'codex_runtime',
  'personality',
  'footer',
  'yolo',
  'reasoning',
  'fast',
  'voice',
  'memory',
  'bundles',
  'learn',
  'suggestions',
  'suggest',
  'blueprint',
  'bp',
  'curator',
  'kanban',
  'reload-mcp',
  'reload_mcp',
  'reload-skills',
  'reload_skills',
  'commands',
  'help',
  'restart',
  'usage',
  'topup',
  'insights',
  'platform',
  'update',
  'version',
  'v',
  'debug',
] as const;

/**
 * What `/hermes <sub>` becomes on Slack: `<sub>` → `/<sub>` for each gateway command and alias, except
 * `compact` → `/compress` (an override the gateway hard-codes).
 */
export const SLACK_SUBCOMMANDS: Readonly<Record<string, string>> = Object.freeze(
  Object.assign(
    Object.create(null) as Record<string, string>,
    Object.fromEntries(SLACK_GATEWAY_COMMANDS.map((name) => [name, `/${name}`])),
    { compact: '/compress' },
  ),
);

/** A run of Python white space. */
const FIRST_WORD_SPLIT = new RegExp(`${PYTHON_WHITESPACE_CLASS}+`);

/**
 * The gateway's Slack-only rewrite of a `/hermes` parent command (`_normalize_slack_parent_command`):
 * when the text's first word (after Python's `strip()`) is exactly `/hermes`, a known sub-command
 * becomes that command with its arguments (`/hermes new` → `/new`, `/hermes compact here 5` →
 * `/compress here 5`; the white space after the sub-command becomes one space, the rest is kept), a
 * bare `/hermes` becomes `/help`, and anything else is free text (`/hermes what is up` → `what is
 * up`); `message_type` is then `command` when the result starts with `/`, else `text`. Any other text
 * is returned as it came, with its message type. Sub-commands are case-sensitive, white space is
 * Python's.
 *
 * @example
 * rewriteSlackParentCommand('/hermes new', 'text'); // ['/new', 'command']
 */
export function rewriteSlackParentCommand(
  text: string,
  messageType: MessageType,
  subcommands: Readonly<Record<string, string>> = SLACK_SUBCOMMANDS,
): readonly [text: string, messageType: MessageType] {
  const [parent, remainder] = splitFirstWord(pythonStrip(text));
  if (parent !== '/hermes') return [text, messageType];
  const payload = pythonStrip(remainder);
  const [sub] = splitFirstWord(payload);
  let result: string;
  if (sub !== '' && Object.hasOwn(subcommands, sub)) {
    const rest = pythonStrip(payload.slice(sub.length));
    result = rest === '' ? (subcommands[sub] as string) : `${subcommands[sub]} ${rest}`;
  } else result = payload === '' ? '/help' : payload;
  return [result, result.startsWith('/') ? 'command' : 'text'];
}

/** Python's `text.split(maxsplit=1)` of a stripped text: its first word and what follows the white space after it. */
function splitFirstWord(text: string): readonly [first: string, rest: string] {
  const match = FIRST_WORD_SPLIT.exec(text);
  if (match === null) return [text, ''];
  return [text.slice(0, match.index), text.slice(match.index + match[0].length)];
}
