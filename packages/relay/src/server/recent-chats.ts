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
  readonly #chats: RecencyMap;
  readonly #sessions: RecencyMap;

  constructor(limit = RECENT_CHATS_LIMIT) {
    this.#chats = new RecencyMap(limit);
    this.#sessions = new RecencyMap(limit);
  }

  /** Remembers the chat of an inbound event's wire `source` (anything unreadable is skipped). */
  remember(tenant: string, source: unknown): void {
    if (source === null || typeof source !== 'object') return;
    const { platform, chat_id: chatId } = source as { platform?: unknown; chat_id?: unknown };
    if (typeof platform !== 'string' || (typeof chatId !== 'string' && typeof chatId !== 'number')) return;
    const chat: RecentChat = { chatId: String(chatId), platform };
    this.#chats.touch(`${tenant}\n${chat.chatId}`, chat);
    let sessionKey: string;
    try {
      sessionKey = buildSessionKey(source as Parameters<typeof buildSessionKey>[0]);
    } catch {
      return; // a source the gateway cannot key either
    }
    this.#sessions.touch(`${tenant}\n${sessionKey}`, chat);
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

/** Up to `limit` chats by key, the least recently touched forgotten first. */
class RecencyMap {
  readonly #map = new Map<string, RecentChat>();
  readonly #limit: number;
  /** The key touched last: touched again with the same chat (a burst in one chat), nothing moves. */
  #newest: string | undefined;

  constructor(limit: number) {
    this.#limit = limit;
  }

  touch(key: string, chat: RecentChat): void {
    if (key === this.#newest) {
      const current = this.#map.get(key);
      if (current?.platform === chat.platform && current.chatId === chat.chatId) return;
    }
    this.#map.delete(key);
    this.#map.set(key, chat);
    this.#newest = key;
    if (this.#map.size > this.#limit) {
      const oldest = this.#map.keys().next();
      if (oldest.done !== true) this.#map.delete(oldest.value);
    }
  }

  get(key: string): RecentChat | undefined {
    return this.#map.get(key);
  }
}
