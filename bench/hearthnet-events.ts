// The HearthNet community event log (issue 7): 10 000 events of one community, in one run,
// (a) created and signed (`createEvent`) and appended with `appendLocal` to an `InMemoryEventStore` and
// to a `SqliteEventStore` on a temporary file (WAL, the store's defaults);
// (b) read back from each store (`list`) and verified and replayed into the three views (`replay`:
// verify, dedupe, order, trust rules, views);
// (c) the baselines: raw `signPayload` / `verifyPayload` of the same envelopes.
// Each case is one pass over all events, timed in interleaved rounds (median), within a time budget of
// about 10 s; wall-clock events/s and events per CPU-second (the process is single-threaded and
// better-sqlite3 is synchronous, so this is events/s per core).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type KeyPair, keyPairFromSeed, signPayload, verifyPayload } from '@agentwire/hearthnet';
import {
  createEvent,
  type EventData,
  type EventType,
  InMemoryEventStore,
  type SignedEvent,
} from '@agentwire/hearthnet/events';
import { buildNodeManifest, formatTimestamp } from '@agentwire/hearthnet/manifests';
import { replay } from '@agentwire/hearthnet/replay';
import { SqliteEventStore } from '@agentwire/sqlite/hearthnet';

/** How much the measurement does; `quick` is for a smoke run (one round). */
export interface HearthNetEventsBenchOptions {
  readonly quick?: boolean;
  /** Events in the log (default 10 000). */
  readonly events?: number;
}

const EVENTS = 10_000;
const MEMBERS = 8;
const BUDGET_MS = 10_000;
const MAX_ROUNDS = 5;

const key = (byte: number) =>
  keyPairFromSeed(Uint8Array.from({ length: 32 }, (_, i) => (i * byte + 1) & 0xff));
const root = key(13);
const members = Array.from({ length: MEMBERS }, (_, i) => key(17 + 2 * i));
const communityId = root.nodeId;

/** An event to create: its author and contents; `appendLocal` gives the Lamport value. */
interface Draft {
  readonly key: KeyPair;
  readonly type: EventType;
  readonly data: EventData<EventType>;
}

const draft = <T extends EventType>(author: KeyPair, type: T, data: EventData<T>): Draft => ({
  key: author,
  type,
  data: data as EventData<EventType>,
});

/**
 * The log: the root founds the community and admits eight members (invite + join with a signed node
 * manifest), then the members alternate ≈250-byte marketplace offers and chat messages.
 */
function drafts(count: number): Draft[] {
  const now = Date.now();
  const policy = {
    min_signatures_to_invite: 1,
    min_signatures_to_demote: 3,
    min_signatures_to_revoke: 3,
    capability_token_ttl_seconds: 86_400,
    federation_enabled: false,
    default_member_can_invite: true,
  };
  const list: Draft[] = [
    draft(root, 'community.created', { name: 'Bench', founder_node_id: root.nodeId, policy }),
  ];
  for (const member of members) {
    list.push(
      draft(root, 'community.member.invited', {
        invitee_node_id: member.nodeId,
        display_name: 'device',
        initial_level: 'member',
        expires_at: formatTimestamp(now + 86_400_000),
      }),
    );
    const manifest = { display_name: 'device', community_id: communityId, profile: 'spark' as const };
    list.push(
      draft(member, 'community.member.joined', {
        invite_event_id: '',
        node_manifest: buildNodeManifest({ ...manifest, endpoints: [], capabilities: [] }, member, { now }),
      }),
    );
  }
  for (let i = list.length; i < count; i++) {
    const author = members[i % MEMBERS] as KeyPair;
    const clientId = `bench-${i.toString().padStart(6, '0')}`;
    list.push(
      i % 2 === 0
        ? draft(author, 'market.post.created', {
            client_id: clientId,
            category: 'offer',
            title: 'Wasserkanister, 20 L, lebensmittelecht',
            location: { lat: 51.7756, lng: 6.1262, label: 'Kleve-Materborn' },
            ttl_seconds: 604_800,
          })
        : draft(author, 'chat.message.sent', {
            client_id: clientId,
            recipient: (members[(i + 1) % MEMBERS] as KeyPair).nodeId,
            body: 'Hast du den Kanister noch? Ich könnte heute Abend vorbeikommen.',
          }),
    );
  }
  return list;
}

/** Creates every draft through `appendLocal`; a join names the id of its member's invite. */
/** Events per `appendLocalBatch` transaction in the batch row. */
const BATCH = 100;

/** What {@link signAndAppend} does, `BATCH` events to a transaction through `appendLocalBatch`. */
async function signAndAppendBatches(list: readonly Draft[], store: SqliteEventStore): Promise<SignedEvent[]> {
  const events: SignedEvent[] = [];
  for (let start = 0; start < list.length; start += BATCH) {
    const creates = list
      .slice(start, start + BATCH)
      .map(({ key: author, type, data }) => (lamport: number) => {
        const invite = type === 'community.member.joined' ? events.at(-1) : undefined;
        const contents = invite === undefined ? data : { ...data, invite_event_id: invite.event_id };
        const event = createEvent(
          { community_id: communityId, event_type: type, data: contents, lamport },
          author,
        );
        events.push(event);
        return event;
      });
    await store.appendLocalBatch(communityId, creates);
  }
  return events;
}

async function signAndAppend(
  list: readonly Draft[],
  append: (create: (lamport: number) => SignedEvent) => Promise<SignedEvent>,
): Promise<SignedEvent[]> {
  const events: SignedEvent[] = [];
  for (const { key: author, type, data } of list) {
    const invite = type === 'community.member.joined' ? events.at(-1) : undefined;
    const contents = invite === undefined ? data : { ...data, invite_event_id: invite.event_id };
    events.push(
      await append((lamport) =>
        createEvent({ community_id: communityId, event_type: type, data: contents, lamport }, author),
      ),
    );
  }
  return events;
}

/** One timed case: `prepare` (untimed) then `run`, one pass over every event. */
interface PassCase {
  readonly name: string;
  readonly prepare?: () => void;
  readonly run: () => unknown;
}

interface PassResult {
  readonly name: string;
  readonly eventsPerSecond: number;
  readonly eventsPerCpuSecond: number;
}

/** Interleaved rounds of every case until the budget is spent (at least one round); medians. */
async function measure(
  cases: readonly PassCase[],
  count: number,
  rounds: number,
  budgetMs: number,
): Promise<PassResult[]> {
  const walls = cases.map((): number[] => []);
  const cpus = cases.map((): number[] => []);
  const start = performance.now();
  for (let round = 0; round < rounds; round++) {
    for (const [i, c] of cases.entries()) {
      c.prepare?.();
      const cpu = process.cpuUsage();
      const began = performance.now();
      await c.run();
      walls[i]?.push(performance.now() - began);
      const used = process.cpuUsage(cpu);
      cpus[i]?.push((used.user + used.system) / 1000);
    }
    const elapsed = performance.now() - start;
    if (elapsed + elapsed / (round + 1) > budgetMs) break;
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return cases.map((c, i) => ({
    name: c.name,
    eventsPerSecond: (count * 1000) / median(walls[i] ?? []),
    eventsPerCpuSecond: (count * 1000) / median(cpus[i] ?? []),
  }));
}

function printTable(title: string, baseline: string, results: readonly PassResult[]): Map<string, number> {
  const base = results.find((r) => r.name === baseline);
  if (!base) throw new Error(`baseline ${baseline} is not a case of ${title}`);
  const ratios = new Map(results.map((r) => [r.name, r.eventsPerSecond / base.eventsPerSecond]));
  const rows = results.map((r) => [
    r.name,
    Math.round(r.eventsPerSecond).toLocaleString('en-US'),
    (1e6 / r.eventsPerSecond).toFixed(1),
    Math.round(r.eventsPerCpuSecond).toLocaleString('en-US'),
    `${(ratios.get(r.name) ?? 0).toFixed(2)}×`,
  ]);
  const header = ['case', 'events/s', 'µs/event', 'events/CPU-s', `vs ${baseline}`];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  console.log(`\n### ${title}\n`);
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  return ratios;
}

/** Runs the event-log bench, prints its two tables and returns its summary lines. */
export async function benchHearthNetEvents(options: HearthNetEventsBenchOptions = {}): Promise<string[]> {
  const count = options.events ?? EVENTS;
  const rounds = options.quick ? 1 : MAX_ROUNDS;
  const list = drafts(count);
  const directory = mkdtempSync(join(tmpdir(), 'agentwire-bench-events-'));
  const sqliteStores: SqliteEventStore[] = [];
  try {
    let memory = new InMemoryEventStore();
    /** The newest SQLite store: each append round fills a fresh file. */
    const sqlite = () => sqliteStores.at(-1) as SqliteEventStore;
    // The envelopes of the raw baselines, and a self-check that the log replays in full.
    const signed = await signAndAppend(list, (create) => memory.appendLocal(communityId, create));
    const now = Date.now();
    const check = replay(signed, { communityId, now });
    if (check.applied.length !== count || check.rejected.length > 0) {
      throw new Error(`benchmark self-check failed: ${check.rejected.length} events refused`);
    }
    const keys = new Map([root, ...members].map((k) => [k.nodeId, k]));
    const unsigned = signed.map(({ signature: _, ...envelope }) => envelope);

    const appendResults = await measure(
      [
        {
          name: 'raw signPayload',
          run: () => {
            for (const envelope of unsigned) signPayload(envelope, keys.get(envelope.author) as KeyPair);
          },
        },
        {
          name: 'createEvent + in-memory appendLocal',
          prepare: () => {
            memory = new InMemoryEventStore();
          },
          run: () => signAndAppend(list, (create) => memory.appendLocal(communityId, create)),
        },
        {
          name: `createEvent + SQLite appendLocalBatch (${BATCH} a transaction)`,
          prepare: () => {
            sqliteStores.push(
              new SqliteEventStore({ path: join(directory, `events-${sqliteStores.length}.db`) }),
            );
          },
          run: () => signAndAppendBatches(list, sqlite()),
        },
        {
          name: 'createEvent + SQLite appendLocal',
          prepare: () => {
            sqliteStores.push(
              new SqliteEventStore({ path: join(directory, `events-${sqliteStores.length}.db`) }),
            );
          },
          run: () => signAndAppend(list, (create) => sqlite().appendLocal(communityId, create)),
        },
      ],
      count,
      rounds,
      BUDGET_MS / 2,
    );
    const appendRatios = printTable(
      `HearthNet event log — create + sign + append, ${count.toLocaleString('en-US')} events`,
      'raw signPayload',
      appendResults,
    );

    if ((await sqlite().count(communityId)) !== count)
      throw new Error('benchmark self-check failed: SQLite store incomplete');
    const replayResults = await measure(
      [
        {
          name: 'raw verifyPayload',
          run: () => {
            for (const event of signed) {
              if (!verifyPayload(event, event.author).valid) throw new Error('a signature does not verify');
            }
          },
        },
        {
          name: 'in-memory list + replay',
          run: async () => replay(await memory.list(communityId), { communityId, now }),
        },
        {
          name: 'SQLite list + replay',
          run: async () => replay(await sqlite().list(communityId), { communityId, now }),
        },
      ],
      count,
      rounds,
      BUDGET_MS / 2,
    );
    const replayRatios = printTable(
      `HearthNet event log — verify + replay into views, ${count.toLocaleString('en-US')} events`,
      'raw verifyPayload',
      replayResults,
    );
    const ratio = (ratios: Map<string, number>, name: string) => `${(ratios.get(name) ?? 0).toFixed(2)}×`;
    return [
      `event log create+sign+append vs raw signPayload: in-memory ${ratio(appendRatios, 'createEvent + in-memory appendLocal')} (goal ≥ 0.8×), SQLite batched ${ratio(appendRatios, `createEvent + SQLite appendLocalBatch (${BATCH} a transaction)`)} (goal ≥ 0.7×), SQLite one at a time ${ratio(appendRatios, 'createEvent + SQLite appendLocal')}`,
      `event log verify+replay vs raw verifyPayload: in-memory ${ratio(replayRatios, 'in-memory list + replay')}, SQLite ${ratio(replayRatios, 'SQLite list + replay')} (reported, no goal)`,
    ];
  } finally {
    for (const store of sqliteStores) store.close();
    rmSync(directory, { recursive: true, force: true });
  }
}
