import type { CapabilityDescriptor } from '../descriptor.js';
import { DEFAULT_RAG_K, MAX_RAG_K } from '../descriptor.js';
import {
  ANY_OBJECT,
  BLAKE3_CID,
  MS_META,
  NO_PARAMS,
  NON_EMPTY_STRING,
  NON_NEGATIVE_INTEGER,
  NUMBER,
  requestBody,
  responseBody,
  STRING,
} from './common-schemas.js';

const CORPUS_PARAMS = {
  type: 'object',
  properties: { corpus: NON_EMPTY_STRING },
  required: ['corpus'],
  additionalProperties: false,
} as const;

/** `rag.query@1.0` (contract §4.4): the top-k chunks of a corpus for a query, k ≤ 20. */
export const RAG_QUERY = {
  name: 'rag.query',
  version: '1.0',
  stability: 'stable',
  trust: { level: 'member' },
  idempotency: { kind: 'idempotent' },
  streaming: 'none',
  requestSchema: requestBody(CORPUS_PARAMS, {
    type: 'object',
    properties: {
      query: NON_EMPTY_STRING,
      k: { type: 'integer', minimum: 1, maximum: MAX_RAG_K, default: DEFAULT_RAG_K },
      filter: ANY_OBJECT,
      include_text: { type: 'boolean', default: true },
    },
    required: ['query'],
    additionalProperties: false,
  }),
  responseSchema: responseBody(
    {
      type: 'object',
      properties: {
        chunks: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              rank: { type: 'integer', minimum: 1 },
              score: NUMBER,
              text: STRING,
              metadata: {
                type: 'object',
                properties: {
                  doc_cid: STRING,
                  doc_title: STRING,
                  page: NON_NEGATIVE_INTEGER,
                  chunk_id: STRING,
                },
              },
            },
            required: ['rank', 'score'],
          },
        },
      },
      required: ['chunks'],
    },
    {
      type: 'object',
      properties: { corpus: STRING, ms: NON_NEGATIVE_INTEGER, embedding_model: STRING },
    },
  ),
  streamSchema: null,
} as const satisfies CapabilityDescriptor;

/** `rag.ingest@1.0` (contract §4.5): indexes a document already in the blob store; trusted only. */
export const RAG_INGEST = {
  name: 'rag.ingest',
  version: '1.0',
  stability: 'stable',
  trust: { level: 'trusted' },
  idempotency: { kind: 'by_key', key: 'doc_cid' },
  streaming: 'none',
  requestSchema: requestBody(CORPUS_PARAMS, {
    type: 'object',
    properties: { doc_cid: BLAKE3_CID, title: STRING, language: STRING, metadata: ANY_OBJECT },
    required: ['doc_cid'],
    additionalProperties: false,
  }),
  responseSchema: responseBody(
    {
      type: 'object',
      properties: {
        doc_cid: STRING,
        chunks_indexed: NON_NEGATIVE_INTEGER,
        tokens_indexed: NON_NEGATIVE_INTEGER,
      },
      required: ['doc_cid', 'chunks_indexed'],
    },
    {
      type: 'object',
      properties: { corpus: STRING, ms: NON_NEGATIVE_INTEGER, ingest_event_id: STRING },
    },
  ),
  streamSchema: null,
} as const satisfies CapabilityDescriptor;

/** `rag.list_corpora@1.0` (contract §4.6): the corpora this node serves. */
export const RAG_LIST_CORPORA = {
  name: 'rag.list_corpora',
  version: '1.0',
  stability: 'stable',
  trust: { level: 'member' },
  idempotency: { kind: 'idempotent' },
  streaming: 'none',
  requestSchema: requestBody(NO_PARAMS, { type: 'object', additionalProperties: false }),
  responseSchema: responseBody(
    {
      type: 'object',
      properties: {
        corpora: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: STRING,
              docs: NON_NEGATIVE_INTEGER,
              chunks: NON_NEGATIVE_INTEGER,
              size_bytes: NON_NEGATIVE_INTEGER,
              language_majority: STRING,
            },
            required: ['name'],
          },
        },
      },
      required: ['corpora'],
    },
    MS_META,
  ),
  streamSchema: null,
} as const satisfies CapabilityDescriptor;
