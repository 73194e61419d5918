import type { CapabilityDescriptor } from '../descriptor.js';
import {
  BLAKE3_CID,
  CLIENT_ID,
  MS_META,
  NO_PARAMS,
  NODE_ID,
  NON_NEGATIVE_INTEGER,
  requestBody,
  responseBody,
  STRING,
} from './common-schemas.js';

const NULLABLE_STRING = { type: ['string', 'null'] } as const;

/** `chat.send@1.0` (contract §4.15): a direct message, deduplicated by `client_id`. */
export const CHAT_SEND = {
  name: 'chat.send',
  version: '1.0',
  stability: 'stable',
  trust: { level: 'member' },
  idempotency: { kind: 'by_key', key: 'client_id' },
  streaming: 'none',
  requestSchema: requestBody(NO_PARAMS, {
    type: 'object',
    properties: {
      client_id: CLIENT_ID,
      recipient: NODE_ID,
      body: STRING,
      attachments: {
        type: 'array',
        items: {
          type: 'object',
          properties: { cid: BLAKE3_CID, name: STRING },
          required: ['cid', 'name'],
          additionalProperties: false,
        },
      },
    },
    required: ['client_id', 'recipient', 'body'],
    additionalProperties: false,
  }),
  responseSchema: responseBody(
    {
      type: 'object',
      properties: { event_id: STRING, lamport: NON_NEGATIVE_INTEGER, delivered: STRING },
      required: ['event_id', 'lamport'],
    },
    MS_META,
  ),
  streamSchema: null,
} as const satisfies CapabilityDescriptor;

/** `chat.history@1.0` (contract §4.16): the calling node's own conversations. */
export const CHAT_HISTORY = {
  name: 'chat.history',
  version: '1.0',
  stability: 'stable',
  trust: { level: 'member', condition: 'self_only' },
  idempotency: { kind: 'idempotent' },
  streaming: 'none',
  requestSchema: requestBody(NO_PARAMS, {
    type: 'object',
    properties: {
      peer: NODE_ID,
      since_lamport: NON_NEGATIVE_INTEGER,
      limit: { type: 'integer', minimum: 1 },
    },
    additionalProperties: false,
  }),
  responseSchema: responseBody(
    {
      type: 'object',
      properties: {
        messages: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              event_id: STRING,
              lamport: NON_NEGATIVE_INTEGER,
              from: STRING,
              to: STRING,
              body: STRING,
              attachments: { type: 'array', items: { type: 'object' } },
              created_at: STRING,
              delivered_at: NULLABLE_STRING,
              read_at: NULLABLE_STRING,
            },
            required: ['event_id', 'lamport'],
          },
        },
      },
      required: ['messages'],
    },
    MS_META,
  ),
  streamSchema: null,
} as const satisfies CapabilityDescriptor;
