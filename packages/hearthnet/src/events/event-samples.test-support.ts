// Test support only (imported by *.test.ts, never by the package entries): keys and one valid
// `data` for every event type.
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { hexDecode } from '../encoding.js';
import type { SignedNodeManifest } from '../manifests/node-manifest.js';
import type { EventData, EventType } from './event.js';

/** RFC 8032 §7.1 TEST 1–3 key pairs: the community root and two members. */
export const root = keyPairFromSeed(
  hexDecode('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'),
);
export const alice = keyPairFromSeed(
  hexDecode('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb'),
);
export const bob = keyPairFromSeed(
  hexDecode('c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7'),
);
export const communityId = root.nodeId;

const cid = `blake3:${'ab'.repeat(32)}`;
const ulid = '01ARYZ6S410000000000000000';
const policy = {
  min_signatures_to_invite: 1,
  min_signatures_to_demote: 3,
  min_signatures_to_revoke: 3,
  capability_token_ttl_seconds: 86_400,
  federation_enabled: true,
  default_member_can_invite: true,
};
const signature = `ed25519:${'A'.repeat(86)}`;
const manifest: SignedNodeManifest = {
  version: 1,
  contract_version: '1.0',
  node_id: alice.nodeId,
  display_name: 'tablet',
  community_id: communityId,
  profile: 'spark',
  endpoints: [],
  capabilities: [],
  issued_at: '2026-05-26T08:14:22Z',
  expires_at: '2026-05-26T08:14:52Z',
  signature,
};

/** One valid `data` per event type. */
export const sampleData: { readonly [T in EventType]: EventData<T> } = {
  'community.created': { name: 'Niederrhein Demo', founder_node_id: root.nodeId, policy },
  'community.member.invited': {
    invitee_node_id: alice.nodeId,
    display_name: "Hannes' Tablet",
    initial_level: 'member',
    expires_at: '2026-05-27T00:00:00Z',
  },
  'community.member.joined': { invite_event_id: ulid, node_manifest: manifest },
  'community.member.revoked': {
    target_node_id: bob.nodeId,
    reason: 'compromised',
    co_signers: [{ node_id: alice.nodeId, signature }],
  },
  'community.member.promoted': { target_node_id: bob.nodeId, new_level: 'trusted', co_signers: [] },
  'community.member.demoted': { target_node_id: bob.nodeId, new_level: 'member', co_signers: [] },
  'community.policy.updated': { policy },
  'node.manifest.updated': { manifest },
  'market.post.created': {
    client_id: 'p-1',
    category: 'offer',
    title: 'Brennholz',
    location: { lat: 51.79, lng: 6.14, label: 'Kleve' },
    ttl_seconds: 604_800,
  },
  'market.post.updated': { client_id: 'p-1', target_event_id: ulid, fields: { body: '1 Ster' } },
  'market.post.expired': { client_id: 'p-1', target_event_id: ulid, reason: 'fulfilled' },
  'chat.message.sent': {
    client_id: 'c-1',
    recipient: bob.nodeId,
    body: 'hi',
    attachments: [{ cid, name: 'a.txt' }],
  },
  'chat.message.delivered': { target_event_id: ulid, delivered_at: '2026-05-26T08:14:23Z' },
  'chat.message.read': { target_event_id: ulid, read_at: '2026-05-26T08:14:24.123Z' },
  'file.cid.advertised': { cid, sizes_bytes: 4_824_711 },
  'file.cid.unpinned': { cid },
  'rag.document.ingested': {
    corpus: 'niederrhein-emergency',
    doc_cid: cid,
    title: 'Plan',
    language: 'de',
    chunks: 87,
  },
  'federation.peer.added': { peer: 'x' },
  'federation.peer.removed': {},
  'community.member.left': {},
  'community.member.removed': { target_node_id: bob.nodeId },
  'file.advertised': { cid },
};
