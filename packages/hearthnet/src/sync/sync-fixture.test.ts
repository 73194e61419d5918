import { describe, expect, it } from 'vitest';
import { loadHearthnetFixture } from '../crypto/fixture-test-support.js';
import type { SignedEvent } from '../events/event.js';
import { InMemoryEventStore } from '../events/event-store.js';
import { digestsOf, ingestEvents } from './sync-protocol.js';

interface IngestCase {
  readonly id: string;
  readonly operation: 'ingest';
  readonly community_id: string;
  readonly stored: readonly SignedEvent[];
  readonly pushed: readonly unknown[];
  readonly expected: {
    readonly accepted: readonly string[];
    readonly rejected: readonly [string | null, string, string][];
    readonly new_head_lamport: number | null;
  };
}

interface DigestsCase {
  readonly id: string;
  readonly operation: 'digests';
  readonly community_id: string;
  readonly bucket_width: number;
  readonly events: readonly SignedEvent[];
  readonly expected: unknown;
}

const fixture = loadHearthnetFixture<IngestCase | DigestsCase>('sync.json');
const ingestCases = fixture.cases.filter((c): c is IngestCase => c.operation === 'ingest');
const digestCases = fixture.cases.filter((c): c is DigestsCase => c.operation === 'digests');

async function storeWith(events: readonly SignedEvent[]): Promise<InMemoryEventStore> {
  const store = new InMemoryEventStore();
  for (const event of events) await store.append(event);
  return store;
}

const byText = (a: unknown, b: unknown) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);

describe('sync.json', () => {
  it('has ingest and digest cases', () => {
    expect(ingestCases.length).toBeGreaterThanOrEqual(12);
    expect(digestCases.length).toBe(3);
  });

  it.each(ingestCases)('$id', async (c) => {
    const store = await storeWith(c.stored);
    const result = await ingestEvents(store, c.community_id, c.pushed);
    expect([...result.accepted].sort()).toEqual(c.expected.accepted);
    expect(result.rejected.map((r) => [r.event_id, r.reason, r.code]).sort(byText)).toEqual(
      [...c.expected.rejected].sort(byText),
    );
    expect(result.new_head_lamport).toBe(c.expected.new_head_lamport);
    expect(await store.count()).toBe(c.stored.length + c.expected.accepted.length);
  });

  it.each(digestCases)('$id', async (c) => {
    const store = await storeWith(c.events);
    expect(await digestsOf(store, c.community_id, c.bucket_width)).toEqual(c.expected);
  });
});
