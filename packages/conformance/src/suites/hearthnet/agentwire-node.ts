// agentwire's own HearthNet node, served on 127.0.0.1 for the bundled run of `hearthnet.node`: the bus
// with market.post (written to the event log), a deterministic llm.chat and the file capabilities,
// the pub-sub long poll, the signed manifest and the gossip endpoints, over one in-memory log whose
// community has revoked one node.

import { generateKeyPair, type KeyPair } from '@agentwire/hearthnet';
import { InMemoryBlobStore, registerFileCapabilities } from '@agentwire/hearthnet/blobs';
import { CapabilityRegistry, catalogueDescriptor } from '@agentwire/hearthnet/capabilities';
import { createEvent, InMemoryEventStore, type SignedEvent } from '@agentwire/hearthnet/events';
import {
  buildNodeManifest,
  createManifestHandler,
  formatTimestamp,
  NODE_MANIFEST_PATH,
} from '@agentwire/hearthnet/manifests';
import { serveBusHandler } from '@agentwire/hearthnet/node-http';
import {
  createPubSubHandler,
  PUBSUB_SUBSCRIBE_PATH,
  PublishingEventStore,
  TopicHub,
} from '@agentwire/hearthnet/pubsub';
import { coSign, trustFromLog } from '@agentwire/hearthnet/replay';
import { createSyncHandler } from '@agentwire/hearthnet/sync';
import {
  BUS_CALL_PATH,
  type CapabilityHandler,
  createBusHandler,
  routeByPath,
} from '@agentwire/hearthnet/wire';
import type { HearthNetNodeSuiteOptions } from './node-suite.js';

/** How many `llm.chat` streams the node runs at once (the suite's `capacity` case fills them). */
export const AGENTWIRE_NODE_MAX_CHATS = 2;

/** A node started by {@link startAgentwireNode}. */
export interface AgentwireNode {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The node's key pair; its node id is also the community id (the node founded the community). */
  readonly node: KeyPair;
  /** A trusted member of the community, to call the node as. */
  readonly member: KeyPair;
  /** A node the community's log revokes (`errors.revoked` calls as it). */
  readonly revoked: KeyPair;
  /** The suite options that exercise every capability of this node as `member`. */
  readonly suiteOptions: HearthNetNodeSuiteOptions;
  close(): Promise<void>;
}

/**
 * The first events of a community founded by `founder`: `community.created`, then `member` invited at
 * `level` and joined.
 */
export function foundedCommunityLog(
  founder: KeyPair,
  member: KeyPair,
  level: 'member' | 'trusted' | 'anchor' = 'trusted',
): SignedEvent[] {
  const community_id = founder.nodeId;
  const created = createEvent(
    {
      community_id,
      event_type: 'community.created',
      data: {
        name: 'agentwire conformance',
        founder_node_id: founder.nodeId,
        policy: {
          min_signatures_to_invite: 1,
          min_signatures_to_demote: 3,
          min_signatures_to_revoke: 3,
          capability_token_ttl_seconds: 86_400,
          federation_enabled: false,
          default_member_can_invite: true,
        },
      },
      lamport: 1,
    },
    founder,
  );
  const invite = createEvent(
    {
      community_id,
      event_type: 'community.member.invited',
      data: {
        invitee_node_id: member.nodeId,
        display_name: 'conformance member',
        initial_level: level,
        expires_at: formatTimestamp(Date.now() + 86_400_000),
      },
      lamport: 2,
    },
    founder,
  );
  const manifest = buildNodeManifest(
    { display_name: 'conformance member', community_id, profile: 'spark', endpoints: [], capabilities: [] },
    member,
  );
  const joined = createEvent(
    {
      community_id,
      event_type: 'community.member.joined',
      data: { invite_event_id: invite.event_id, node_manifest: manifest },
      lamport: 3,
    },
    member,
  );
  return [created, invite, joined];
}

/**
 * The events after {@link foundedCommunityLog} that revoke `revoked`, from `lamport` on: the founder
 * invites a trusted witness, who joins; the founder invites `revoked`, then revokes it co-signed by
 * `member` and the witness (the founding policy asks three trusted signers to revoke, contract §4.18).
 */
export function revocationLog(
  founder: KeyPair,
  member: KeyPair,
  revoked: KeyPair,
  lamport = 4,
): SignedEvent[] {
  const community_id = founder.nodeId;
  const witness = generateKeyPair();
  const invite = (invitee: KeyPair, level: 'member' | 'trusted', at: number) =>
    createEvent(
      {
        community_id,
        event_type: 'community.member.invited',
        data: {
          invitee_node_id: invitee.nodeId,
          display_name: 'conformance witness',
          initial_level: level,
          expires_at: formatTimestamp(Date.now() + 86_400_000),
        },
        lamport: at,
      },
      founder,
    );
  const witnessInvite = invite(witness, 'trusted', lamport);
  const witnessJoined = createEvent(
    {
      community_id,
      event_type: 'community.member.joined',
      data: {
        invite_event_id: witnessInvite.event_id,
        node_manifest: buildNodeManifest(
          {
            display_name: 'conformance witness',
            community_id,
            profile: 'spark',
            endpoints: [],
            capabilities: [],
          },
          witness,
        ),
      },
      lamport: lamport + 1,
    },
    witness,
  );
  const revokedInvite = invite(revoked, 'member', lamport + 2);
  const intent = { target_node_id: revoked.nodeId, reason: 'conformance: a revoked caller' };
  const revocation = createEvent(
    {
      community_id,
      event_type: 'community.member.revoked',
      data: { ...intent, co_signers: [coSign(intent, member), coSign(intent, witness)] },
      lamport: lamport + 3,
    },
    founder,
  );
  return [witnessInvite, witnessJoined, revokedInvite, revocation];
}

/**
 * Starts agentwire's node on 127.0.0.1 (an ephemeral port unless `port` is given). `market.post`
 * writes a `market.post.created` by the node to the log (published on the pub-sub hub, visible to
 * sync); `llm.chat` (model `echo`) streams `t0 t1 …` every 2 ms up to `max_tokens`.
 */
export async function startAgentwireNode(
  options: { readonly node?: KeyPair; readonly member?: KeyPair; readonly port?: number } = {},
): Promise<AgentwireNode> {
  const node = options.node ?? generateKeyPair();
  const member = options.member ?? generateKeyPair();
  const revoked = generateKeyPair();
  const community = node.nodeId;
  const hub = new TopicHub();
  const store = new PublishingEventStore(new InMemoryEventStore(), hub);
  for (const event of [...foundedCommunityLog(node, member), ...revocationLog(node, member, revoked)]) {
    await store.append(event);
  }

  const registry = new CapabilityRegistry<CapabilityHandler>({});
  registry.register(
    catalogueDescriptor('market.post'),
    async ({ input }) => {
      const event = await store.appendLocal(community, (lamport) =>
        createEvent(
          {
            community_id: community,
            event_type: 'market.post.created',
            data: {
              client_id: input['client_id'] as string,
              category: input['category'] as 'offer',
              title: input['title'] as string,
              ttl_seconds: (input['ttl_seconds'] as number | undefined) ?? 86_400,
            },
            lamport,
          },
          node,
        ),
      );
      return { output: { event_id: event.event_id, lamport: event.lamport }, meta: { ms: 0 } };
    },
    { maxConcurrent: 8 },
  );
  registry.register(
    catalogueDescriptor('llm.chat'),
    ({ input }, context) => {
      const maxTokens = input['max_tokens'] as number;
      return (async function* () {
        for (let i = 0; i < maxTokens; i += 1) {
          await delay(2, context.signal);
          yield { event: 'token', data: { text: `t${i} ` } };
        }
        yield { event: 'done', data: { tokens_out: maxTokens, stop_reason: 'max_tokens' } };
      })();
    },
    { maxConcurrent: AGENTWIRE_NODE_MAX_CHATS, params: { model: 'echo' } },
  );
  registerFileCapabilities(registry, { store: new InMemoryBlobStore() });
  // Who may call is what the community's own log says: the member was admitted as trusted.
  const trust = trustFromLog({ store, communityId: community });

  let baseUrl = '';
  const served = await serveBusHandler(
    routeByPath({
      [BUS_CALL_PATH]: createBusHandler({ identity: node, registry, community, trust, retryAfterMs: 250 }),
      [PUBSUB_SUBSCRIBE_PATH]: createPubSubHandler({ identity: node, hub, trust, community }),
      [NODE_MANIFEST_PATH]: createManifestHandler({
        key: node,
        input: () => {
          const { port } = new URL(baseUrl);
          return {
            display_name: 'agentwire conformance node',
            community_id: community,
            profile: 'hearth',
            endpoints: [{ transport: 'http', host: '127.0.0.1', port: Number(port) }],
            capabilities: registry.manifestEntries(),
          };
        },
      }),
      '/sync/v1/': createSyncHandler({ store }),
    }),
    { port: options.port ?? 0 },
  );
  baseUrl = served.url;

  const chat = (maxTokens: number) => ({
    capability: 'llm.chat',
    params: { model: 'echo' },
    input: { messages: [{ role: 'user', content: 'hallo' }], max_tokens: maxTokens },
  });
  return {
    url: served.url,
    node,
    member,
    revoked,
    suiteOptions: {
      baseUrl: served.url,
      identity: member,
      community,
      expectNodeId: node.nodeId,
      capabilities: {
        call: {
          capability: 'market.post',
          input: { client_id: 'conformance-offer', category: 'offer', title: 'Wasserkanister, 20L' },
        },
        stream: chat(3),
        longStream: { ...chat(1_000_000), maxConcurrent: AGENTWIRE_NODE_MAX_CHATS },
        subscribe: {},
        blobs: { put: true },
        manifest: {},
        sync: { push: true, invite: true },
        revoked,
      },
    },
    close: () => served.close(),
  };
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
