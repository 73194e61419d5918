import type { OpParamsInput, OutboundOp } from '@agentwire/relay';

/** Where the sample actions point: the chat, and the message and thread earlier actions made there. */
export interface SampleActionTarget {
  readonly chatId: string;
  /** The platform of the `follow_up` session key. */
  readonly platform: string;
  /** The message `edit` and `react` act on; a placeholder id when none was sent. */
  readonly messageId?: string | undefined;
  /** The thread `thread_rename` renames; a placeholder id when none was created. */
  readonly threadId?: string | undefined;
  /** The text of `send`, `edit` and the other ops that carry content. */
  readonly content: string;
}

/**
 * A minimal valid action for every op of the baseline op table (relay contract §7.2), as the gateway
 * writes it, aimed at `target`. A connector executes them for real: point them at a test chat.
 */
export function sampleActions(target: SampleActionTarget): {
  readonly [Op in OutboundOp]: OpParamsInput[Op];
} {
  const { chatId: chat_id, content } = target;
  const message_id = target.messageId ?? 'agentwire-conformance-message';
  return {
    send: { op: 'send', chat_id, content, reply_to: null, metadata: {} },
    edit: { op: 'edit', chat_id, message_id, content: `${content} (edited)`, metadata: {} },
    typing: { op: 'typing', chat_id, metadata: {} },
    follow_up: {
      op: 'follow_up',
      session_key: `agent:main:${target.platform}:dm:${chat_id}`,
      kind: 'conformance',
      content,
      metadata: {},
    },
    get_chat_info: { op: 'get_chat_info', chat_id },
    send_media: {
      op: 'send_media',
      chat_id,
      media_kind: 'image',
      source_url: 'https://example.invalid/agentwire-conformance.png',
      content: `${content} (caption)`,
      reply_to: null,
      metadata: {},
    },
    prompt: {
      op: 'prompt',
      chat_id,
      content: 'agentwire conformance: proceed?',
      prompt_kind: 'approval',
      prompt_id: 'c0f0a1b2',
      options: [
        { id: 'once', label: 'Allow once', style: 'success' },
        { id: 'deny', label: 'Deny', style: 'danger' },
      ],
      reply_to: null,
      metadata: {},
    },
    react: { op: 'react', chat_id, message_id, emoji: '👍', remove: false, metadata: {} },
    thread_create: { op: 'thread_create', chat_id, thread_name: 'agentwire conformance', metadata: {} },
    thread_rename: {
      op: 'thread_rename',
      chat_id,
      message_id: target.threadId ?? 'agentwire-conformance-thread',
      thread_name: 'agentwire conformance renamed',
      metadata: {},
    },
  };
}
