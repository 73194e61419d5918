import type { CapabilityDescriptor } from '../descriptor.js';
import {
  NON_EMPTY_STRING,
  NON_NEGATIVE_INTEGER,
  NUMBER,
  requestBody,
  responseBody,
  STRING,
  STRING_LIST,
  streamFrame,
} from './common-schemas.js';

const SAMPLING = {
  max_tokens: { type: 'integer', minimum: 1 },
  temperature: { type: 'number', minimum: 0 },
  top_p: { type: 'number', minimum: 0, maximum: 1 },
  stop: STRING_LIST,
  seed: { type: ['integer', 'null'] },
} as const;

const MESSAGE = {
  type: 'object',
  properties: { role: { enum: ['system', 'user', 'assistant'] }, content: STRING },
  required: ['role', 'content'],
  additionalProperties: false,
} as const;

const GENERATION_META = {
  type: 'object',
  properties: {
    model: STRING,
    tokens_in: NON_NEGATIVE_INTEGER,
    tokens_out: NON_NEGATIVE_INTEGER,
    stop_reason: STRING,
    ms: NON_NEGATIVE_INTEGER,
  },
} as const;

const TOKEN_FRAME = streamFrame('token', {
  type: 'object',
  properties: { text: STRING, logprob: NUMBER },
  required: ['text'],
});

const DONE_FRAME = streamFrame('done', {
  type: 'object',
  properties: { tokens_out: NON_NEGATIVE_INTEGER, stop_reason: STRING, ms: NON_NEGATIVE_INTEGER },
});

/** `llm.chat@1.0` (contract §4.1): multi-turn chat completion, streamed as tokens by default. */
export const LLM_CHAT = {
  name: 'llm.chat',
  version: '1.0',
  stability: 'stable',
  trust: { level: 'member' },
  idempotency: { kind: 'none' },
  streaming: 'server',
  requestSchema: requestBody(
    {
      type: 'object',
      properties: { model: NON_EMPTY_STRING, ctx: { type: 'integer', minimum: 1 } },
      required: ['model'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        messages: {
          type: 'array',
          items: MESSAGE,
          minItems: 1,
          contains: { type: 'object', properties: { role: { const: 'user' } } },
        },
        max_tokens: { ...SAMPLING.max_tokens, default: 1024 },
        temperature: { ...SAMPLING.temperature, default: 0.7 },
        top_p: { ...SAMPLING.top_p, default: 0.95 },
        stop: SAMPLING.stop,
        seed: SAMPLING.seed,
        tools: { type: 'array', items: { type: 'object' } },
        tool_choice: { anyOf: [STRING, { type: 'object' }] },
        stream: { type: 'boolean', default: true },
      },
      required: ['messages'],
      additionalProperties: false,
    },
  ),
  responseSchema: responseBody(
    {
      type: 'object',
      properties: {
        message: {
          type: 'object',
          properties: { role: { const: 'assistant' }, content: STRING },
          required: ['role', 'content'],
        },
        tool_calls: { type: 'array', items: { type: 'object' } },
      },
      required: ['message'],
    },
    GENERATION_META,
  ),
  streamSchema: {
    anyOf: [
      TOKEN_FRAME,
      streamFrame('tool_call_delta', {
        type: 'object',
        properties: { id: STRING, name: STRING, arguments_delta: STRING },
      }),
      DONE_FRAME,
    ],
  },
} as const satisfies CapabilityDescriptor;

/** `llm.complete@1.0` (contract §4.2): single-shot completion of a prompt, streamed as tokens. */
export const LLM_COMPLETE = {
  name: 'llm.complete',
  version: '1.0',
  stability: 'stable',
  trust: { level: 'member' },
  idempotency: { kind: 'none' },
  streaming: 'server',
  requestSchema: requestBody(
    {
      type: 'object',
      properties: { model: NON_EMPTY_STRING },
      required: ['model'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { prompt: STRING, ...SAMPLING, stream: { type: 'boolean' } },
      required: ['prompt'],
      additionalProperties: false,
    },
  ),
  responseSchema: responseBody(
    { type: 'object', properties: { text: STRING }, required: ['text'] },
    GENERATION_META,
  ),
  streamSchema: { anyOf: [TOKEN_FRAME, DONE_FRAME] },
} as const satisfies CapabilityDescriptor;
