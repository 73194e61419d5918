import type { CapabilityDescriptor } from '../descriptor.js';
import {
  CLIENT_ID,
  EVENT_OUTPUT,
  MS_META,
  NO_PARAMS,
  NODE_ID,
  NON_NEGATIVE_INTEGER,
  requestBody,
  responseBody,
  SIGNATURE,
  STRING,
  TIMESTAMP,
} from './common-schemas.js';

/** `community.invite@1.0` (contract §4.17): a signed invite for a new device; needs `can_invite`. */
export const COMMUNITY_INVITE = {
  name: 'community.invite',
  version: '1.0',
  stability: 'stable',
  trust: { level: 'member', condition: 'can_invite' },
  idempotency: { kind: 'by_key', key: 'invitee_node_id' },
  streaming: 'none',
  requestSchema: requestBody(NO_PARAMS, {
    type: 'object',
    properties: {
      invitee_node_id: NODE_ID,
      display_name: STRING,
      initial_level: { enum: ['member', 'trusted'] },
      expires_at: TIMESTAMP,
    },
    required: ['invitee_node_id'],
    additionalProperties: false,
  }),
  responseSchema: responseBody(
    { type: 'object', properties: { invite_blob: STRING }, required: ['invite_blob'] },
    {
      type: 'object',
      properties: { event_id: STRING, lamport: NON_NEGATIVE_INTEGER, ms: NON_NEGATIVE_INTEGER },
    },
  ),
  streamSchema: null,
} as const satisfies CapabilityDescriptor;

/**
 * `community.revoke@1.0` (contract §4.18): removes a member. Three distinct trusted co-signers are
 * required; fewer is `unauthorized`, not `bad_request`, so the schema does not count them.
 */
export const COMMUNITY_REVOKE = {
  name: 'community.revoke',
  version: '1.0',
  stability: 'stable',
  trust: { level: 'trusted', condition: 'three_trusted_co_signers' },
  idempotency: { kind: 'by_key', key: 'client_id' },
  streaming: 'none',
  requestSchema: requestBody(NO_PARAMS, {
    type: 'object',
    properties: {
      client_id: CLIENT_ID,
      target_node_id: NODE_ID,
      reason: { enum: ['compromised', 'inactive', 'policy_violation', 'other'] },
      co_signers: {
        type: 'array',
        items: {
          type: 'object',
          properties: { node_id: NODE_ID, signature: SIGNATURE },
          required: ['node_id', 'signature'],
          additionalProperties: false,
        },
      },
    },
    required: ['client_id', 'target_node_id', 'reason', 'co_signers'],
    additionalProperties: false,
  }),
  responseSchema: responseBody(EVENT_OUTPUT, MS_META),
  streamSchema: null,
} as const satisfies CapabilityDescriptor;
