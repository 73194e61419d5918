import type { CapabilityDescriptor } from '../descriptor.js';
import { MAX_EMBED_TEXT_CHARS, MAX_EMBED_TEXTS } from '../descriptor.js';
import {
  NON_EMPTY_STRING,
  NON_NEGATIVE_INTEGER,
  NUMBER,
  requestBody,
  responseBody,
  STRING,
} from './common-schemas.js';

/** `embed.text@1.0` (contract §4.3): embeds 1 to 256 texts of at most 8192 characters each. */
export const EMBED_TEXT = {
  name: 'embed.text',
  version: '1.0',
  stability: 'stable',
  trust: { level: 'member' },
  idempotency: { kind: 'idempotent' },
  streaming: 'none',
  requestSchema: requestBody(
    {
      type: 'object',
      properties: { model: NON_EMPTY_STRING },
      required: ['model'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        texts: {
          type: 'array',
          items: { type: 'string', maxLength: MAX_EMBED_TEXT_CHARS },
          minItems: 1,
          maxItems: MAX_EMBED_TEXTS,
        },
        normalize: { type: 'boolean', default: true },
      },
      required: ['texts'],
      additionalProperties: false,
    },
  ),
  responseSchema: responseBody(
    {
      type: 'object',
      properties: {
        embeddings: { type: 'array', items: { type: 'array', items: NUMBER } },
        dim: { type: 'integer', minimum: 1 },
      },
      required: ['embeddings', 'dim'],
    },
    { type: 'object', properties: { model: STRING, ms: NON_NEGATIVE_INTEGER } },
  ),
  streamSchema: null,
} as const satisfies CapabilityDescriptor;
