import type { CapabilityDescriptor } from '../descriptor.js';
import {
  BLAKE3_CID,
  MS_META,
  NO_PARAMS,
  NON_NEGATIVE_INTEGER,
  requestBody,
  responseBody,
  STRING,
  streamFrame,
} from './common-schemas.js';

/** `file.read@1.0` (contract §4.7): one chunk inline, or a whole blob streamed as manifest + chunks. */
export const FILE_READ = {
  name: 'file.read',
  version: '1.0',
  stability: 'stable',
  trust: { level: 'member' },
  idempotency: { kind: 'idempotent' },
  streaming: 'server',
  requestSchema: requestBody(NO_PARAMS, {
    type: 'object',
    properties: { cid: BLAKE3_CID },
    required: ['cid'],
    additionalProperties: false,
  }),
  responseSchema: responseBody(
    {
      type: 'object',
      properties: { cid: STRING, size_bytes: NON_NEGATIVE_INTEGER, data_b64: STRING },
      required: ['cid', 'size_bytes', 'data_b64'],
    },
    MS_META,
  ),
  streamSchema: {
    anyOf: [
      streamFrame('manifest', {
        type: 'object',
        properties: {
          cid: STRING,
          size_bytes: NON_NEGATIVE_INTEGER,
          chunk_size_bytes: { type: 'integer', minimum: 1 },
          chunks: {
            type: 'array',
            items: {
              type: 'object',
              properties: { i: NON_NEGATIVE_INTEGER, cid: STRING },
              required: ['i', 'cid'],
            },
          },
        },
        required: ['cid', 'size_bytes', 'chunks'],
      }),
      streamFrame('chunk', {
        type: 'object',
        properties: {
          i: NON_NEGATIVE_INTEGER,
          cid: STRING,
          size_bytes: NON_NEGATIVE_INTEGER,
          data_b64: STRING,
        },
        required: ['i', 'cid', 'data_b64'],
      }),
      streamFrame('done', {
        type: 'object',
        properties: { chunks: NON_NEGATIVE_INTEGER, ms: NON_NEGATIVE_INTEGER },
      }),
    ],
  },
} as const satisfies CapabilityDescriptor;

/** `file.list@1.0` (contract §4.8): the CIDs this node holds, optionally under a prefix. */
export const FILE_LIST = {
  name: 'file.list',
  version: '1.0',
  stability: 'stable',
  trust: { level: 'member' },
  idempotency: { kind: 'idempotent' },
  streaming: 'none',
  requestSchema: requestBody(NO_PARAMS, {
    type: 'object',
    properties: { prefix: STRING },
    additionalProperties: false,
  }),
  responseSchema: responseBody(
    { type: 'object', properties: { cids: { type: 'array', items: STRING } }, required: ['cids'] },
    MS_META,
  ),
  streamSchema: null,
} as const satisfies CapabilityDescriptor;

/** `file.advertise@1.0` (contract §4.9): a peer announces CIDs it now holds (gossip). */
export const FILE_ADVERTISE = {
  name: 'file.advertise',
  version: '1.0',
  stability: 'stable',
  trust: { level: 'member' },
  idempotency: { kind: 'idempotent' },
  streaming: 'none',
  requestSchema: requestBody(NO_PARAMS, {
    type: 'object',
    properties: { cids: { type: 'array', items: BLAKE3_CID, minItems: 1 } },
    required: ['cids'],
    additionalProperties: false,
  }),
  responseSchema: responseBody(
    { type: 'object', properties: { recorded: NON_NEGATIVE_INTEGER }, required: ['recorded'] },
    MS_META,
  ),
  streamSchema: null,
} as const satisfies CapabilityDescriptor;

/**
 * `file.put@1.0` (contract §4.10): offers a blob; the server answers `ready` with the chunk indexes
 * it lacks, the client streams those `chunk` frames, the server ends with `done`. Trusted only.
 */
export const FILE_PUT = {
  name: 'file.put',
  version: '1.0',
  stability: 'stable',
  trust: { level: 'trusted' },
  idempotency: { kind: 'by_key', key: 'manifest.cid' },
  streaming: 'bidirectional',
  requestSchema: requestBody(NO_PARAMS, {
    type: 'object',
    properties: {
      manifest: {
        type: 'object',
        properties: {
          cid: BLAKE3_CID,
          size_bytes: NON_NEGATIVE_INTEGER,
          chunk_size_bytes: { type: 'integer', minimum: 1 },
          chunks: {
            type: 'array',
            items: {
              type: 'object',
              properties: { i: NON_NEGATIVE_INTEGER, cid: BLAKE3_CID, size_bytes: NON_NEGATIVE_INTEGER },
              required: ['i', 'cid'],
              additionalProperties: false,
            },
          },
        },
        required: ['cid', 'size_bytes', 'chunks'],
        additionalProperties: false,
      },
    },
    required: ['manifest'],
    additionalProperties: false,
  }),
  responseSchema: null,
  streamSchema: {
    anyOf: [
      streamFrame('ready', {
        type: 'object',
        properties: { needed: { type: 'array', items: NON_NEGATIVE_INTEGER } },
        required: ['needed'],
      }),
      streamFrame('chunk', {
        type: 'object',
        properties: { i: NON_NEGATIVE_INTEGER, cid: BLAKE3_CID, data_b64: STRING },
        required: ['i', 'cid', 'data_b64'],
        additionalProperties: false,
      }),
      streamFrame('done', {
        type: 'object',
        properties: { received: NON_NEGATIVE_INTEGER, ms: NON_NEGATIVE_INTEGER },
      }),
    ],
  },
} as const satisfies CapabilityDescriptor;
