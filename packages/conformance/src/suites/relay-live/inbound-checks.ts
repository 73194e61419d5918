import { buildSessionKey, sessionSourceFromWire } from '@agentwire/relay';
import { formatValue } from '../../format-value.js';
import { quoteLine, type ReceivedLine } from './gateway-probe.js';

/** Keys every `event` carries as a careful connector writes it (`createMessageEvent`). */
const EVENT_KEYS = ['text', 'message_type', 'message_id', 'reply_to_message_id', 'media_urls', 'source'];
/** Keys `SessionSource.to_dict()` always writes that the session key is built from. */
const SOURCE_KEYS = ['platform', 'chat_id', 'chat_type', 'user_id'];

/**
 * What is wrong with one `inbound` line: it must decode with the codec, carry the always-present event
 * and source keys, name a `scope_id` for any chat that is not a DM, and give a session key.
 */
export function inboundProblems(line: ReceivedLine): string[] {
  if (line.error !== undefined) return [`undecodable inbound ${quoteLine(line)}: ${line.error.message}`];
  const event = (line.json as { readonly event?: unknown }).event;
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    return [`inbound without an event object: ${quoteLine(line)}`];
  }
  const fields = event as Readonly<Record<string, unknown>>;
  const problems = EVENT_KEYS.filter((key) => !Object.hasOwn(fields, key)).map(
    (key) => `event.${key} is missing in ${quoteLine(line)}`,
  );
  const source = fields['source'];
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return problems;
  const sourceFields = source as Readonly<Record<string, unknown>>;
  for (const key of SOURCE_KEYS) {
    if (!Object.hasOwn(sourceFields, key))
      problems.push(`event.source.${key} is missing in ${quoteLine(line)}`);
  }
  const chatType = sourceFields['chat_type'];
  if (
    chatType !== 'dm' &&
    (typeof sourceFields['scope_id'] !== 'string' || sourceFields['scope_id'] === '')
  ) {
    problems.push(
      `event.source.scope_id must name the scope of a ${formatValue(chatType)} chat, got ${formatValue(sourceFields['scope_id'])}`,
    );
  }
  try {
    buildSessionKey(sessionSourceFromWire(sourceFields));
  } catch (error) {
    problems.push(
      `no session key derivable from event.source: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return problems;
}
