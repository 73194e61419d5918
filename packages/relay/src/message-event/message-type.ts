/** The message types the gateway knows; any other wire value reads as `text`. */
export const MESSAGE_TYPES = [
  'text',
  'location',
  'photo',
  'video',
  'audio',
  'voice',
  'document',
  'sticker',
  'command',
] as const;

/** One of {@link MESSAGE_TYPES}. */
export type MessageType = (typeof MESSAGE_TYPES)[number];

const KNOWN: ReadonlySet<unknown> = new Set(MESSAGE_TYPES);

/** `MessageType(value)` with the gateway's fallback: exact known value, else `text`. */
export function readMessageType(value: unknown): MessageType {
  return KNOWN.has(value) ? (value as MessageType) : 'text';
}
