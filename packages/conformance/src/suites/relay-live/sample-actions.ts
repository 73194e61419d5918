import type { OpParamsInput, OutboundOp } from '@agentwire/relay';

const CHAT_ID = 'agentwire-conformance-chat';
const CONTENT = 'agentwire conformance probe';

/**
 * A minimal valid action for every op of the baseline op table (relay contract §7.2), as the gateway
 * writes it. A connector under test executes them for real: point the suite at a test chat.
 */
export const SAMPLE_ACTIONS: { readonly [Op in OutboundOp]: OpParamsInput[Op] } = {
  send: { op: 'send', chat_id: CHAT_ID, content: CONTENT, reply_to: null, metadata: {} },
  edit: {
    op: 'edit',
    chat_id: CHAT_ID,
    message_id: 'agentwire-conformance-message',
    content: CONTENT,
    metadata: {},
  },
  typing: { op: 'typing', chat_id: CHAT_ID, metadata: {} },
  follow_up: {
    op: 'follow_up',
    session_key: `agent:main:relay:dm:${CHAT_ID}`,
    kind: 'conformance',
    content: CONTENT,
    metadata: {},
  },
  get_chat_info: { op: 'get_chat_info', chat_id: CHAT_ID },
  send_media: {
    op: 'send_media',
    chat_id: CHAT_ID,
    media_kind: 'image',
    source_url: 'https://example.invalid/agentwire-conformance.png',
    content: '',
    reply_to: null,
    metadata: {},
  },
  prompt: {
    op: 'prompt',
    chat_id: CHAT_ID,
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
  react: {
    op: 'react',
    chat_id: CHAT_ID,
    message_id: 'agentwire-conformance-message',
    emoji: '👍',
    remove: false,
    metadata: {},
  },
  thread_create: {
    op: 'thread_create',
    chat_id: CHAT_ID,
    thread_name: 'agentwire conformance',
    metadata: {},
  },
  thread_rename: {
    op: 'thread_rename',
    chat_id: CHAT_ID,
    message_id: 'agentwire-conformance-thread',
    thread_name: 'agentwire conformance renamed',
    metadata: {},
  },
};

/** An `op` no contract version defines: every connector must answer it with `success: false`. */
export const UNSUPPORTED_OP = 'agentwire_conformance_unsupported';
