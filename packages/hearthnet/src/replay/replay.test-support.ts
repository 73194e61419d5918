// Test support only (imported by *.test.ts, never by the package entries): fixed keys and a builder
// of signed community logs with deterministic ids, clocks and Lamport values.
import { type KeyPair, keyPairFromSeed } from '../crypto/key-pair.js';
import { hexDecode } from '../encoding.js';
import type { EventData, EventType, SignedEvent } from '../events/event.js';
import { createEvent } from '../events/event.js';
import { encodeUlid } from '../events/ulid.js';
import { buildNodeManifest, formatTimestamp } from '../manifests/node-manifest.js';
import { coSign } from './membership-rules.js';

const seed = (byte: number) => keyPairFromSeed(new Uint8Array(32).fill(byte));

/** RFC 8032 §7.1 TEST 1: the community root. */
export const root = keyPairFromSeed(
  hexDecode('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'),
);
/** RFC 8032 §7.1 TEST 2 and TEST 3, then keys from constant seeds. */
export const alice = keyPairFromSeed(
  hexDecode('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb'),
);
export const bob = keyPairFromSeed(
  hexDecode('c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7'),
);
export const carol = seed(3);
export const dave = seed(4);
export const mallory = seed(5);
export const outsider = seed(6);
export const eve = seed(7);
export const communityId = root.nodeId;

/** 2026-05-26T08:00:00Z. */
export const T0 = Date.UTC(2026, 4, 26, 8, 0, 0);

export const policy = {
  min_signatures_to_invite: 1,
  min_signatures_to_demote: 3,
  min_signatures_to_revoke: 3,
  capability_token_ttl_seconds: 86_400,
  federation_enabled: true,
  default_member_can_invite: true,
};

/** Options of {@link LogBuilder.add}. */
export interface AddOptions {
  /** Default: one above the last event's. */
  readonly lamport?: number;
  /** Default: T0 + lamport seconds. */
  readonly wallClockMs?: number;
  /** Default: a fresh ULID of the wall clock. */
  readonly eventId?: string;
}

/** Builds a signed log event by event; ids are ULIDs of the wall clock with a per-event counter. */
export class LogBuilder {
  readonly events: SignedEvent[] = [];
  #lamport = 0;
  #counter = 0;

  add<T extends EventType>(
    key: KeyPair,
    type: T,
    data: EventData<T>,
    options: AddOptions = {},
  ): SignedEvent<T> {
    const lamport = options.lamport ?? this.#lamport + 1;
    this.#lamport = Math.max(this.#lamport, lamport);
    const timeMs = options.wallClockMs ?? T0 + lamport * 1000;
    const randomness = new Uint8Array(10);
    new DataView(randomness.buffer).setUint32(6, ++this.#counter);
    const event = createEvent(
      {
        community_id: communityId,
        event_type: type,
        data,
        lamport,
        event_id: options.eventId ?? encodeUlid(timeMs, randomness),
        wall_clock: formatTimestamp(timeMs),
      },
      key,
    );
    this.events.push(event);
    return event;
  }

  create(): SignedEvent<'community.created'> {
    return this.add(root, 'community.created', {
      name: 'Niederrhein Demo',
      founder_node_id: root.nodeId,
      policy,
    });
  }

  invite(inviter: KeyPair, invitee: KeyPair, level: 'member' | 'trusted' | 'anchor' = 'member') {
    return this.add(inviter, 'community.member.invited', {
      invitee_node_id: invitee.nodeId,
      display_name: 'device',
      initial_level: level,
      expires_at: '2026-05-27T00:00:00Z',
    });
  }

  join(key: KeyPair, invite: SignedEvent, options: AddOptions = {}) {
    return this.add(
      key,
      'community.member.joined',
      { invite_event_id: invite.event_id, node_manifest: manifestOf(key) },
      options,
    );
  }

  /** Invites `key` at `level` and lets it join. */
  admit(inviter: KeyPair, key: KeyPair, level: 'member' | 'trusted' | 'anchor' = 'member') {
    return this.join(key, this.invite(inviter, key, level));
  }

  /** A revocation of `target` by `author`, co-signed by `coSigners`. */
  revoke(author: KeyPair, target: KeyPair, coSigners: readonly KeyPair[], options: AddOptions = {}) {
    const intent = { target_node_id: target.nodeId, reason: 'compromised' };
    return this.add(
      author,
      'community.member.revoked',
      { ...intent, co_signers: coSigners.map((key) => coSign(intent, key)) },
      options,
    );
  }

  post(author: KeyPair, clientId: string, options: AddOptions = {}) {
    return this.add(
      author,
      'market.post.created',
      {
        client_id: clientId,
        category: 'offer',
        title: `post ${clientId}`,
        location: { lat: 51.79, lng: 6.14, label: 'Kleve' },
        ttl_seconds: 3600,
      },
      options,
    );
  }

  chat(from: KeyPair, to: KeyPair, clientId: string) {
    return this.add(from, 'chat.message.sent', { client_id: clientId, recipient: to.nodeId, body: 'hi' });
  }
}

/** A signed node manifest of `key` in the community. */
export function manifestOf(key: KeyPair) {
  return buildNodeManifest(
    { display_name: 'device', community_id: communityId, profile: 'spark', endpoints: [], capabilities: [] },
    key,
    { now: T0 },
  );
}

/**
 * A community with the root (anchor), alice, bob and carol (trusted) and dave and mallory (members).
 */
export function foundedCommunity(): LogBuilder {
  const log = new LogBuilder();
  log.create();
  log.admit(root, alice, 'trusted');
  log.admit(root, bob, 'trusted');
  log.admit(root, carol, 'trusted');
  log.admit(alice, dave);
  log.admit(alice, mallory);
  return log;
}
