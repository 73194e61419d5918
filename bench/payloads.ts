// Deterministic payloads shaped like what the contracts carry: a ~300-byte frame, a ~5 KB node
// manifest and a ~100 KB batch of events. Same shapes as perf-anchors.md so ratios compare.

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const words = [
  'hearth',
  'relay',
  'agent',
  'mesh',
  'node',
  'lamp',
  'bread',
  'river',
  'stone',
  'ember',
  'café',
  'nœud',
];

function text(r: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(words[Math.floor(r() * words.length)] ?? 'x');
  return out.join(' ');
}

function event(r: () => number, i: number) {
  return {
    event_id: `01J${(1e12 + i).toString(32).toUpperCase().padStart(23, '0')}`,
    event_type: 'marketplace.post.created',
    schema_version: 1,
    author: 'ed25519:Gq9fQx3d2W8k1VbT0yQmH7r5sLkPzN4uJcXe6aBvDfo',
    community_id: 'ed25519:Hn2pQ8s1v0XcT7yLm4KdR9wBzJf3uAe6NgCi5oPqVrs',
    lamport: 1000 + i,
    wall_clock: '2026-11-25T08:14:22Z',
    data: {
      client_id: `post-${i}`,
      kind: r() < 0.5 ? 'offer' : 'request',
      title: text(r, 4),
      body: text(r, 18),
      location: { lat: 52.52 + r(), lng: 13.405 + r(), label: 'Kiez' },
      price: { amount: Math.floor(r() * 100), currency: 'EUR' },
      tags: [text(r, 1), text(r, 1)],
      ttl_seconds: 86400,
    },
  };
}

export const frame = {
  type: 'inbound',
  bufferId: 'b-000042',
  event: {
    text: 'hello from the relay, how are you today?',
    message_id: '1234567890',
    source: {
      platform: 'discord',
      chat_id: '987654321',
      chat_type: 'group',
      user_id: '42',
      user_name: 'ada',
    },
    timestamp: 1764059662,
    attachments: [],
  },
  sessionKey: 'agent:main:discord:group:987654321:42',
};

export const manifest = (() => {
  const r = rng(7);
  const capabilities = [];
  for (let i = 0; i < 18; i++) {
    capabilities.push({
      name: `cap.${words[i % words.length]}_${i}`,
      version: '1.0',
      schema_hash: `blake3:${Math.floor(r() * 2 ** 52)
        .toString(16)
        .padStart(64, '0')}`,
      stability: 'stable',
      trust_required: i % 3 === 0 ? 'member' : 'public',
      max_concurrent: 4,
      streams: i % 2 === 0,
      description: text(r, 8),
    });
  }
  return {
    contract_version: '1.0',
    node_id: 'ed25519:Gq9fQx3d2W8k1VbT0yQmH7r5sLkPzN4uJcXe6aBvDfo',
    community_id: 'ed25519:Hn2pQ8s1v0XcT7yLm4KdR9wBzJf3uAe6NgCi5oPqVrs',
    display_name: 'Bakery corner node',
    issued_at: '2026-11-25T08:14:22Z',
    expires_at: '2026-11-25T08:14:52Z',
    endpoints: [{ kind: 'http', url: 'http://127.0.0.1:8787' }],
    capabilities,
    load: { cpu: 0.25, queue_depth: 3 },
  };
})();

export const eventBatch = (() => {
  const r = rng(11);
  const events = [];
  for (let i = 0; i < 200; i++) events.push(event(r, i));
  return { community_id: 'ed25519:Hn2pQ8s1v0XcT7yLm4KdR9wBzJf3uAe6NgCi5oPqVrs', head: 1199, events };
})();

export const payloads = [
  { label: '300 B frame', value: frame },
  { label: '5 KB manifest', value: manifest },
  { label: '100 KB event batch', value: eventBatch },
] as const;
