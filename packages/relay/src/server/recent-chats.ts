import { buildSessionKey } from '../session-key.js';

/** How many chats and sessions a server remembers; past it, the least recently delivered are forgotten. */
export const RECENT_CHATS_LIMIT = 10_000;

/** A chat this server delivered an inbound event for. */
export interface RecentChat {
  readonly chatId: string;
  readonly platform: string;
}

/**
 * What this server delivered inbound, per tenant: the platform of each chat, and the chat of each
 * session key (`buildSessionKey` of the event's source, default options) — what the gateway leaves
 * out of `get_chat_info` frames and `interrupt` frames. Bounded: the least recently delivered go first.
 * One process only: a chat delivered by another instance is not known here.
 */
export class RecentChats {
  readonly #chats = new Map<string, RecentChat>();
  readonly #sessions = new Map<string, RecentChat>();
  readonly #limit: number;

  constructor(limit = RECENT_CHATS_LIMIT) {
    this.#limit = limit;
  }

  /** Remembers the chat of an inbound event's wire `source` (anything unreadable is skipped). */
  remember(tenant: string, source: unknown): void {
    if (source === null || typeof source !== 'object') return;
    const { platform, chat_id: chatId } = source as { platform?: unknown; chat_id?: unknown };
    if (typeof platform !== 'string' || (typeof chatId !== 'string' && typeof chatId !== 'number')) return;
    const chat: RecentChat = { chatId: String(chatId), platform };
    touch(this.#chats, `${tenant}\n${chat.chatId}`, chat, this.#limit);
    let sessionKey: string;
    try {
      sessionKey = buildSessionKey(source as Parameters<typeof buildSessionKey>[0]);
    } catch {
      return; // a source the gateway cannot key either
    }
    touch(this.#sessions, `${tenant}\n${sessionKey}`, chat, this.#limit);
  }

  /** The platform of the tenant's chat, when this server delivered an event of it. */
  platformOf(tenant: string, chatId: string): string | undefined {
    return this.#chats.get(`${tenant}\n${chatId}`)?.platform;
  }

  /** The chat of the tenant's session key, when this server delivered an event of it. */
  chatOf(tenant: string, sessionKey: string): RecentChat | undefined {
    return this.#sessions.get(`${tenant}\n${sessionKey}`);
  }
}

function touch(map: Map<string, RecentChat>, key: string, chat: RecentChat, limit: number): void {
  map.delete(key);
  map.set(key, chat);
  if (map.size > limit) {
    const oldest = map.keys().next();
    if (oldest.done !== true) map.delete(oldest.value);
  }
}
