import type { PlatformAdapter } from '@agentwire/relay/server';
import type { PlatformAdapterUnderTest, PlatformMessage } from './platform-adapter-subject.js';

/** The chat the in-memory platform knows from the start. */
export const IN_MEMORY_CHAT_ID = 'C-general';
/** A chat id the in-memory platform does not know. */
export const IN_MEMORY_UNKNOWN_CHAT_ID = 'C-removed';
/** The words the in-memory platform refuses an unknown chat with. */
export const IN_MEMORY_UNKNOWN_CHAT_REASON = 'Unknown Channel';

/** A message or thread the in-memory platform keeps. */
interface StoredMessage {
  readonly id: string;
  readonly chatId: string;
  text: string;
  readonly reactions: Set<string>;
}

/**
 * A small chat platform in memory (named chats, messages with ids, threads, reactions) and the
 * `PlatformAdapter` a connector would write for it: its API refuses an unknown chat or message with a
 * platform error, which the adapter reports as `{ success: false, error }` with the platform's words.
 * The bundled subject of `relay.platform-adapter`, and the base the suite's tests break.
 */
export class InMemoryChatPlatform {
  readonly #chats = new Map<string, { name: string; type: string }>([
    [IN_MEMORY_CHAT_ID, { name: 'general', type: 'group' }],
  ]);
  readonly #messages: StoredMessage[] = [];
  #nextId = 1;

  /** Every message posted so far, oldest first, as the platform shows them. */
  received(): PlatformMessage[] {
    return this.#messages.map(({ chatId, text }) => ({ chatId, text }));
  }

  /** Posts a message; throws the platform's error for an unknown chat. */
  post(chatId: string, text: string): string {
    this.#chat(chatId);
    const id = `M${this.#nextId++}`;
    this.#messages.push({ id, chatId, text, reactions: new Set() });
    return id;
  }

  /** Changes a message's text; throws for an unknown chat or message. */
  edit(chatId: string, messageId: string, text: string): void {
    this.#message(chatId, messageId).text = text;
  }

  /** Adds or removes a reaction; throws for an unknown chat or message. */
  react(chatId: string, messageId: string, emoji: string, remove: boolean): void {
    const { reactions } = this.#message(chatId, messageId);
    if (remove) reactions.delete(emoji);
    else reactions.add(emoji);
  }

  /** Opens a thread in a chat: a new chat of type `thread`. */
  openThread(chatId: string, name: string): string {
    this.#chat(chatId);
    const id = `T${this.#nextId++}`;
    this.#chats.set(id, { name, type: 'thread' });
    return id;
  }

  /** Renames a thread; throws when `threadId` is not one. */
  renameThread(threadId: string, name: string): void {
    const chat = this.#chat(threadId);
    if (chat.type !== 'thread') throw new Error(`${threadId} is not a thread`);
    chat.name = name;
  }

  /** A chat's name and type; throws for an unknown chat. */
  chatInfo(chatId: string): { readonly name: string; readonly type: string } {
    const { name, type } = this.#chat(chatId);
    return { name, type };
  }

  #chat(chatId: string): { name: string; type: string } {
    const chat = this.#chats.get(chatId);
    if (chat === undefined) throw new Error(`${IN_MEMORY_UNKNOWN_CHAT_REASON} ${chatId}`);
    return chat;
  }

  #message(chatId: string, messageId: string): StoredMessage {
    this.#chat(chatId);
    const message = this.#messages.find((m) => m.id === messageId && m.chatId === chatId);
    if (message === undefined) throw new Error(`Unknown Message ${messageId}`);
    return message;
  }
}

/** Runs a platform call, turning the platform's error into a failed result that carries its words. */
function attempt<Result extends object>(call: () => Result): Result | { success: false; error: string } {
  try {
    return call();
  } catch (error) {
    return { success: false, error: (error as Error).message };
  }
}

/** The adapter a connector author would write for {@link InMemoryChatPlatform}. */
export function inMemoryChatAdapter(platform: InMemoryChatPlatform): PlatformAdapter {
  return {
    descriptor: {
      platform: 'memchat',
      label: 'In-memory chat',
      max_message_length: 4000,
      supports_draft_streaming: false,
      supports_edit: true,
      supports_threads: true,
      markdown_dialect: 'plain',
      len_unit: 'chars',
    },
    send: ({ chat_id, content }) =>
      attempt(() => ({ success: true, message_id: platform.post(chat_id, content) })),
    edit: ({ chat_id, message_id, content }) =>
      attempt(() => {
        platform.edit(chat_id, message_id, content);
        return { success: true, message_id };
      }),
    typing: ({ chat_id }) =>
      attempt(() => {
        platform.chatInfo(chat_id);
        return { success: true };
      }),
    get_chat_info: ({ chat_id }) => attempt(() => ({ success: true, chat_info: platform.chatInfo(chat_id) })),
    send_media: ({ chat_id, source_url, content }) =>
      attempt(() => ({
        success: true,
        message_id: platform.post(chat_id, content === '' ? source_url : `${content}\n${source_url}`),
      })),
    prompt: ({ chat_id, content, options }) =>
      attempt(() => ({
        success: true,
        message_id: platform.post(chat_id, `${content}\n${options.map((o) => `[${o.label}]`).join(' ')}`),
      })),
    react: ({ chat_id, message_id, emoji, remove }) =>
      attempt(() => {
        platform.react(chat_id, message_id, emoji, remove);
        return { success: true };
      }),
    thread_create: ({ chat_id, thread_name }) =>
      attempt(() => ({ success: true, thread_id: platform.openThread(chat_id, thread_name) })),
    thread_rename: ({ message_id, thread_name }) =>
      attempt(() => {
        platform.renameThread(message_id, thread_name);
        return { success: true };
      }),
  };
}

/**
 * A fresh {@link InMemoryChatPlatform} with its adapter, as `platformAdapterSuite`'s `create` returns it:
 * the known chat, the unknown chat and its refusal, and `observe`.
 */
export function inMemoryChatUnderTest(): PlatformAdapterUnderTest & {
  readonly platform: InMemoryChatPlatform;
} {
  const platform = new InMemoryChatPlatform();
  return {
    platform,
    adapter: inMemoryChatAdapter(platform),
    chatId: IN_MEMORY_CHAT_ID,
    refusal: { chatId: IN_MEMORY_UNKNOWN_CHAT_ID, reason: IN_MEMORY_UNKNOWN_CHAT_REASON },
    observe: () => platform.received(),
  };
}
