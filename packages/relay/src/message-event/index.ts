export { CHAT_TYPES, createMessageEvent, type MessageEventInit, type SessionSourceInit } from './create.js';
export { eventFromWire } from './from-wire.js';
export type { MessageEvent } from './message-event.js';
export { MESSAGE_TYPES, type MessageType, readMessageType } from './message-type.js';
export { type MessageEventWire, messageEventWireSchema } from './schema.js';
export { rewriteSlackParentCommand, SLACK_SUBCOMMANDS } from './slack-parent-command.js';
export { eventToWire } from './to-wire.js';
