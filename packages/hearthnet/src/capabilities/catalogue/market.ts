import type { CapabilityDescriptor } from '../descriptor.js';
import {
  DEFAULT_MARKET_LIST_LIMIT,
  DEFAULT_MARKET_TTL_SECONDS,
  MAX_MARKET_LIST_LIMIT,
  MAX_MARKET_TTL_SECONDS,
} from '../descriptor.js';
import {
  CLIENT_ID,
  EVENT_OUTPUT,
  MS_META,
  NO_PARAMS,
  NON_EMPTY_STRING,
  NON_NEGATIVE_INTEGER,
  NUMBER,
  requestBody,
  responseBody,
  STRING,
  STRING_LIST,
} from './common-schemas.js';

const CATEGORY = { enum: ['offer', 'request', 'info', 'emergency'] } as const;

const POST_PROPERTIES = {
  event_id: STRING,
  lamport: NON_NEGATIVE_INTEGER,
  author: STRING,
  category: STRING,
  title: STRING,
  body: STRING,
  location: { type: 'object', properties: { lat: NUMBER, lng: NUMBER, label: STRING } },
  tags: STRING_LIST,
  created_at: STRING,
  expires_at: STRING,
} as const;

const POST = { type: 'object', properties: POST_PROPERTIES, required: ['event_id', 'lamport'] } as const;

const SCORED_POST = {
  type: 'object',
  properties: { ...POST_PROPERTIES, score: NUMBER },
  required: ['event_id', 'lamport', 'score'],
} as const;

/** `market.list@1.0` (contract §4.11): current posts, filtered, at most 500. */
export const MARKET_LIST = {
  name: 'market.list',
  version: '1.0',
  stability: 'stable',
  trust: { level: 'member' },
  idempotency: { kind: 'idempotent' },
  streaming: 'none',
  requestSchema: requestBody(NO_PARAMS, {
    type: 'object',
    properties: {
      category: CATEGORY,
      tags: STRING_LIST,
      since_lamport: NON_NEGATIVE_INTEGER,
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_MARKET_LIST_LIMIT,
        default: DEFAULT_MARKET_LIST_LIMIT,
      },
    },
    additionalProperties: false,
  }),
  responseSchema: responseBody(
    {
      type: 'object',
      properties: { posts: { type: 'array', items: POST }, max_lamport: NON_NEGATIVE_INTEGER },
      required: ['posts'],
    },
    MS_META,
  ),
  streamSchema: null,
} as const satisfies CapabilityDescriptor;

/** `market.post@1.0` (contract §4.12): creates a post, deduplicated by `client_id`; ttl ≤ 30 days. */
export const MARKET_POST = {
  name: 'market.post',
  version: '1.0',
  stability: 'stable',
  trust: { level: 'member' },
  idempotency: { kind: 'by_key', key: 'client_id' },
  streaming: 'none',
  requestSchema: requestBody(NO_PARAMS, {
    type: 'object',
    properties: {
      client_id: CLIENT_ID,
      category: CATEGORY,
      title: NON_EMPTY_STRING,
      body: STRING,
      location: {
        type: 'object',
        properties: {
          lat: { type: 'number', minimum: -90, maximum: 90 },
          lng: { type: 'number', minimum: -180, maximum: 180 },
          label: STRING,
        },
        required: ['lat', 'lng'],
        additionalProperties: false,
      },
      tags: STRING_LIST,
      ttl_seconds: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_MARKET_TTL_SECONDS,
        default: DEFAULT_MARKET_TTL_SECONDS,
      },
    },
    required: ['client_id', 'category', 'title'],
    additionalProperties: false,
  }),
  responseSchema: responseBody(EVENT_OUTPUT, MS_META),
  streamSchema: null,
} as const satisfies CapabilityDescriptor;

/** `market.expire@1.0` (contract §4.13): ends a post; its author (or a trusted moderator) only. */
export const MARKET_EXPIRE = {
  name: 'market.expire',
  version: '1.0',
  stability: 'stable',
  trust: { level: 'member', condition: 'own_resource' },
  idempotency: { kind: 'by_key', key: 'client_id' },
  streaming: 'none',
  requestSchema: requestBody(NO_PARAMS, {
    type: 'object',
    properties: {
      client_id: CLIENT_ID,
      event_id: NON_EMPTY_STRING,
      reason: { enum: ['fulfilled', 'withdrawn', 'user_request', 'stale'] },
    },
    required: ['client_id', 'event_id', 'reason'],
    additionalProperties: false,
  }),
  responseSchema: responseBody(EVENT_OUTPUT, MS_META),
  streamSchema: null,
} as const satisfies CapabilityDescriptor;

/** `market.search@1.0` (contract §4.14): posts ranked by semantic similarity, each with a `score`. */
export const MARKET_SEARCH = {
  name: 'market.search',
  version: '1.0',
  stability: 'stable',
  trust: { level: 'member' },
  idempotency: { kind: 'idempotent' },
  streaming: 'none',
  requestSchema: requestBody(NO_PARAMS, {
    type: 'object',
    properties: { query: NON_EMPTY_STRING, k: { type: 'integer', minimum: 1 } },
    required: ['query'],
    additionalProperties: false,
  }),
  responseSchema: responseBody(
    {
      type: 'object',
      properties: { posts: { type: 'array', items: SCORED_POST }, max_lamport: NON_NEGATIVE_INTEGER },
      required: ['posts'],
    },
    MS_META,
  ),
  streamSchema: null,
} as const satisfies CapabilityDescriptor;
