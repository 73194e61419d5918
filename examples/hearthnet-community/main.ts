// Three HearthNet nodes, each with its own event store, gossiping over real loopback HTTP. The founder
// creates the community and invites two members; they join and post; three trusted members revoke one
// of them, whose key goes on posting; the nodes sync in random (seeded) orders. Runs end to end and
// asserts that all three end with byte-identical views and community manifests and that the revoked
// member's later events are refused everywhere.
// `pnpm --filter @agentwire-examples/hearthnet-community start` (`SEED=<n>` changes the gossip orders).
import { strict as assert } from 'node:assert';
import { canonicalJsonString, type KeyPair, keyPairFromSeed, shortNodeId } from '@agentwire/hearthnet';
import {
  createEvent,
  createUlidFactory,
  type EventData,
  type EventType,
  InMemoryEventStore,
  type SignedEvent,
} from '@agentwire/hearthnet/events';
import {
  buildNodeManifest,
  createManifestHandler,
  fetchNodeManifest,
  formatTimestamp,
  InMemoryPinStore,
  NODE_MANIFEST_PATH,
  NodeManifestVerifier,
} from '@agentwire/hearthnet/manifests';
import { type ServedBusHandler, serveBusHandler } from '@agentwire/hearthnet/node-http';
import {
  buildCommunityManifest,
  coSign,
  replay,
  verifyCommunityManifest,
  viewHash,
} from '@agentwire/hearthnet/replay';
import { createSyncHandler, ingestEvents, type SyncRejection, syncWith } from '@agentwire/hearthnet/sync';
import { routeByPath } from '@agentwire/hearthnet/wire';

/** Mulberry32: a small seeded PRNG, so that every run with the same seed gossips in the same order. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const SEED = Number(process.env.SEED ?? 2026);
assert.ok(Number.isSafeInteger(SEED), 'SEED must be an integer');
const gossipRandom = seededRandom(SEED);

// Fixed keys, a simulated clock and fixed ULID randomness keep every event the same from run to run:
// only the gossip orders depend on the seed, and the final hashes do not.
const key = (byte: number) => keyPairFromSeed(new Uint8Array(32).fill(byte));
const founder = key(1);
const [alice, bob, carol] = [key(2), key(3), key(4)];
const dave = key(5);
const mallory = key(6);
const communityId = founder.nodeId;
const names = new Map<string, string>([
  [founder.nodeId, 'founder'],
  [alice.nodeId, 'alice'],
  [bob.nodeId, 'bob'],
  [carol.nodeId, 'carol'],
  [dave.nodeId, 'dave'],
  [mallory.nodeId, 'mallory'],
]);
const nameOf = (nodeId: string) => names.get(nodeId) ?? nodeId;

let clockMs = Date.UTC(2026, 4, 26, 8, 0, 0);
const tick = () => (clockMs += 1000);
const ulidRandom = seededRandom(0x5eed);
const eventOptions = {
  clock: tick,
  ulid: createUlidFactory({
    clock: () => clockMs,
    random: (length) => Uint8Array.from({ length }, () => Math.floor(ulidRandom() * 256)),
  }),
};

/** A node: its own event store, served by the sync handler on 127.0.0.1, and its signed manifest. */
interface Node {
  readonly name: string;
  readonly key: KeyPair;
  readonly store: InMemoryEventStore;
  readonly served: ServedBusHandler;
}

async function startNode(name: string, key: KeyPair): Promise<Node> {
  const store = new InMemoryEventStore();
  const manifest = createManifestHandler({
    key,
    input: {
      display_name: name,
      community_id: communityId,
      profile: 'hearth',
      endpoints: [],
      capabilities: [],
    },
  });
  const served = await serveBusHandler(
    routeByPath({ '/sync/v1/': createSyncHandler({ store }), [NODE_MANIFEST_PATH]: manifest }),
  );
  return { name, key, store, served };
}

/** Each node fetches the others' manifests: signed by the key of their node id, pinned on first sight. */
async function meet(nodes: readonly Node[]): Promise<void> {
  for (const node of nodes) {
    const verifier = new NodeManifestVerifier({ pinStore: new InMemoryPinStore() });
    for (const peer of nodes) {
      if (peer === node) continue;
      const manifest = await fetchNodeManifest(peer.served.url, { verifier, expectNodeId: peer.key.nodeId });
      assert.equal(manifest.community_id, communityId);
      assert.equal(manifest.display_name, peer.name);
    }
  }
}

/** Signs an event with `author` and stores it on `node` at the node's next Lamport value. */
function write<T extends EventType>(node: Node, author: KeyPair, type: T, data: EventData<T>) {
  return node.store.appendLocal(communityId, (lamport) =>
    createEvent({ community_id: communityId, event_type: type, data, lamport }, author, eventOptions),
  );
}

const invite = (node: Node, invitee: KeyPair, level: 'member' | 'trusted') =>
  write(node, founder, 'community.member.invited', {
    invitee_node_id: invitee.nodeId,
    display_name: nameOf(invitee.nodeId),
    initial_level: level,
    expires_at: formatTimestamp(clockMs + 86_400_000),
  });

const join = (node: Node, member: KeyPair, invitation: SignedEvent) =>
  write(node, member, 'community.member.joined', {
    invite_event_id: invitation.event_id,
    node_manifest: buildNodeManifest(
      {
        display_name: nameOf(member.nodeId),
        community_id: communityId,
        profile: 'spark',
        endpoints: [],
        capabilities: [],
      },
      member,
      { now: clockMs },
    ),
  });

const post = (node: Node, author: KeyPair, clientId: string, title: string) =>
  write(node, author, 'market.post.created', {
    client_id: clientId,
    category: 'offer',
    title,
    location: { lat: 51.79, lng: 6.14, label: 'Kleve' },
    ttl_seconds: 7 * 86_400,
  });

/** `from` syncs with `to` over HTTP: it pulls what it lacks and pushes what `to` lacks; `to`'s refusals. */
async function sync(from: Node, to: Node): Promise<SyncRejection[]> {
  const reports = await syncWith(to.served.url, { store: from.store });
  return reports.flatMap((report) => report.pushed.rejected);
}

/** A few syncs between random pairs, then a line there and back, which reaches every node. */
async function gossip(nodes: readonly [Node, Node, Node], rounds: number): Promise<void> {
  const order: string[] = [];
  for (let round = 0; round < rounds; round++) {
    const from = Math.floor(gossipRandom() * 3);
    const to = (from + 1 + Math.floor(gossipRandom() * 2)) % 3;
    order.push(`${nodes[from]!.name}→${nodes[to]!.name}`);
    await sync(nodes[from]!, nodes[to]!);
  }
  const [a, b, c] = nodes;
  await sync(a, b);
  await sync(b, c);
  await sync(a, b);
  console.log('gossip       ', order.join(', '), '+ sweep');
}

/** What a node believes: view hashes, its log's manifest (signed by the founder) and the replay. */
async function stateOf(node: Node) {
  const events = await node.store.list(communityId);
  const result = replay(events, { communityId, now: clockMs });
  const manifest = buildCommunityManifest(events, founder, { communityId });
  const verdict = verifyCommunityManifest(manifest, events);
  assert.ok(verdict.valid && verdict.signer === founder.nodeId, `${node.name}: the manifest does not verify`);
  return { result, manifest: canonicalJsonString(manifest), views: viewHash(result.views) };
}

/** Asserts that the three nodes replay to the same bytes; returns the founder node's state. */
async function assertConverged(nodes: readonly Node[]) {
  const [first, ...others] = await Promise.all(nodes.map(stateOf));
  for (const state of others) {
    assert.equal(state.views, first!.views);
    assert.equal(state.manifest, first!.manifest);
  }
  const { views } = first!.result;
  console.log('converged    ', `views ${first!.views}`);
  console.log('  membership ', viewHash(views.membership), `members ${views.membership?.members.length}`);
  console.log('  marketplace', viewHash(views.marketplace), `posts ${views.marketplace.posts.length}`);
  console.log('  chat       ', viewHash(views.chat), `messages ${views.chat.messages.length}`);
  return first!;
}

console.log('seed         ', SEED, '(SEED=<n> changes the gossip orders, not the result)');
const founderNode = await startNode('founder', founder);
const daveNode = await startNode('dave', dave);
const malloryNode = await startNode('mallory', mallory);
const nodes = [founderNode, daveNode, malloryNode] as const;
try {
  console.log('nodes        ', 'founder, dave and mallory, each serving /sync/v1 and /manifest on 127.0.0.1');
  await meet(nodes);
  console.log('manifests    ', 'each node fetched and verified the others’ signed manifests, keys pinned');
  console.log('community    ', shortNodeId(founder.publicKey), '(the founder’s root key)');

  // The founder creates the community. Alice, Bob and Carol, trusted neighbours, join through the
  // founder's node (their keys sign here); Dave and Mallory are invited as members.
  await write(founderNode, founder, 'community.created', {
    name: 'Kleve neighbours',
    founder_node_id: founder.nodeId,
    policy: {
      min_signatures_to_invite: 1,
      min_signatures_to_demote: 3,
      min_signatures_to_revoke: 3,
      capability_token_ttl_seconds: 86_400,
      federation_enabled: false,
      default_member_can_invite: false,
    },
  });
  for (const neighbour of [alice, bob, carol]) {
    await join(founderNode, neighbour, await invite(founderNode, neighbour, 'trusted'));
  }
  const daveInvite = await invite(founderNode, dave, 'member');
  const malloryInvite = await invite(founderNode, mallory, 'member');
  console.log(
    'founder      ',
    'created the community; alice, bob, carol joined as trusted; invited dave, mallory',
  );

  // Dave and Mallory fetch their invitations, join on their own nodes and post there.
  await sync(daveNode, founderNode);
  await sync(malloryNode, founderNode);
  await join(daveNode, dave, daveInvite);
  await join(malloryNode, mallory, malloryInvite);
  await post(daveNode, dave, 'd-1', 'Bike repairs on Saturdays');
  const malloryPost = await post(malloryNode, mallory, 'm-1', 'Sourdough starter');
  await write(malloryNode, mallory, 'chat.message.sent', {
    client_id: 'c-1',
    recipient: dave.nodeId,
    body: 'Can you look at my brakes?',
  });
  console.log('members      ', 'dave and mallory joined and posted on their own nodes');
  await gossip(nodes, 6);
  const before = await assertConverged(nodes);
  assert.deepEqual(
    before.result.views.membership?.members.map((member) => [nameOf(member.node_id), member.level]).sort(),
    [
      ['alice', 'trusted'],
      ['bob', 'trusted'],
      ['carol', 'trusted'],
      ['dave', 'member'],
      ['founder', 'anchor'],
      ['mallory', 'member'],
    ],
  );
  assert.deepEqual(
    before.result.views.marketplace.posts.map((entry) => nameOf(entry.author)),
    ['dave', 'mallory'],
  );
  assert.deepEqual(before.result.rejected, []);

  // Mallory's phone is stolen. A revocation needs three trusted signatures: Alice and Bob alone are
  // refused; with Carol's co-signature it passes.
  const intent = { target_node_id: mallory.nodeId, reason: 'device stolen' };
  const tooFew = createEvent(
    {
      community_id: communityId,
      event_type: 'community.member.revoked',
      data: { ...intent, co_signers: [coSign(intent, bob)] },
      lamport: (await founderNode.store.clock(communityId)) + 1,
    },
    alice,
    eventOptions,
  );
  const refused = await ingestEvents(founderNode.store, communityId, [tooFew]);
  assert.deepEqual(refused.accepted, []);
  assert.equal(refused.rejected[0]?.reason, 'insufficient_signatures');
  assert.equal(await founderNode.store.get(tooFew.event_id), undefined);
  console.log('revoke       ', 'alice + bob: refused,', refused.rejected[0]?.reason);

  const revocation = await write(founderNode, alice, 'community.member.revoked', {
    ...intent,
    co_signers: [coSign(intent, bob), coSign(intent, carol)],
  });
  console.log('revoke       ', `alice + bob + carol: mallory revoked at lamport ${revocation.lamport}`);

  // Mallory's node hears of it, but whoever holds her key goes on posting there: a node stores what
  // its owner writes, and every replay refuses it.
  await sync(malloryNode, founderNode);
  const stolenPost = await post(malloryNode, mallory, 'm-2', 'Cheap phones, cash only');
  assert.ok(stolenPost.lamport > revocation.lamport);
  console.log('mallory      ', `her key posts again at lamport ${stolenPost.lamport}`);

  await gossip(nodes, 8);
  const after = await assertConverged(nodes);
  const membership = after.result.views.membership!;
  assert.deepEqual(
    membership.revoked.map((entry) => nameOf(entry.node_id)),
    ['mallory'],
  );
  assert.ok(!membership.members.some((member) => member.node_id === mallory.nodeId));
  // Her post from before the revocation stays; the one after it is nowhere in the views.
  assert.deepEqual(
    after.result.views.marketplace.posts.map((entry) => entry.event_id),
    [before.result.views.marketplace.posts[0]!.event_id, malloryPost.event_id],
  );

  // Refused everywhere: the founder's and Dave's nodes never store it, Mallory's node stores it and
  // refuses it on replay, and when her node offers it again the peers answer why.
  for (const node of nodes) {
    const stored = await node.store.get(stolenPost.event_id);
    assert.equal(
      stored !== undefined,
      node === malloryNode,
      `${node.name} stores the post: ${stored !== undefined}`,
    );
    const { result } = await stateOf(node);
    assert.ok(!result.applied.includes(stolenPost.event_id));
    if (stored !== undefined) {
      assert.deepEqual(
        result.rejected.map(({ event_id, reason }) => [event_id, reason]),
        [[stolenPost.event_id, 'author_revoked']],
      );
    }
  }
  for (const peer of [founderNode, daveNode]) {
    const pushRefusals = await sync(malloryNode, peer);
    assert.deepEqual(
      pushRefusals.map(({ event_id, reason, code }) => [event_id, reason, code]),
      [[stolenPost.event_id, 'author_revoked', 'revoked']],
    );
    console.log('refused      ', `${peer.name} refuses mallory's later post: ${pushRefusals[0]?.reason}`);
  }
  console.log('manifest     ', `head_lamport ${membership.head_lamport}, identical on all three nodes`);
  console.log('hearthnet-community example: all assertions passed');
} finally {
  await Promise.all(nodes.map((node) => node.served.close()));
}
