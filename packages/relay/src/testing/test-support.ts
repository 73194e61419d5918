// Shared values for the tests of this folder.
import { createDescriptor } from '../descriptor.js';
import { createMessageEvent, type MessageEventWire } from '../message-event.js';

export const DISCORD_DESCRIPTOR = createDescriptor({
  platform: 'discord',
  label: 'Discord',
  max_message_length: 2000,
  supports_draft_streaming: false,
  supports_edit: true,
  supports_threads: true,
  markdown_dialect: 'discord',
  len_unit: 'utf16',
  supported_ops: ['send', 'edit', 'typing', 'react'],
});

export const TELEGRAM_DESCRIPTOR = createDescriptor({
  platform: 'telegram',
  label: 'Telegram',
  max_message_length: 4096,
  supports_draft_streaming: true,
  supports_edit: true,
  supports_threads: false,
  markdown_dialect: 'markdown_v2',
  len_unit: 'utf16',
});

/** A Discord guild message with text `text`. */
export function discordEvent(text: string, messageId = 'm1'): MessageEventWire {
  return createMessageEvent({
    text,
    message_id: messageId,
    source: { platform: 'discord', chat_id: 'chan1', chat_type: 'group', user_id: 'u1', scope_id: 'guildA' },
  });
}
