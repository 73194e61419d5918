import { RelayError } from '../errors.js';
import { decodePromptCallback, type PromptCallback } from '../passthrough/prompt-callback.js';

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
