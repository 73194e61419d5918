import { type EventStore, InMemoryEventStore } from '@agentwire/hearthnet/events';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { eventStoreSuite } from './event-store.js';

describe('eventStoreSuite', () => {
  it('passes every case against InMemoryEventStore, persistence included when reopen keeps the store', async () => {
    const report = await runSuite(
      eventStoreSuite({ create: () => new InMemoryEventStore(), reopen: (store) => store }),
    );
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
  });

  it('skips persistence without reopen', async () => {
    const report = await runSuite(eventStoreSuite({ create: () => new InMemoryEventStore() }));
    expect(report.ok).toBe(true);
    expect(report.results.find((r) => r.id === 'hearthnet.event-store.persistence')?.status).toBe('skipped');
  });

  it('fails a store that forgets, reorders, or replaces on conflict', async () => {
    class Broken extends InMemoryEventStore {
      override async list(...args: Parameters<EventStore['list']>) {
        return (await super.list(...args)).reverse();
      }
      override async append(event: Parameters<EventStore['append']>[0]) {
        try {
          return await super.append(event);
        } catch {
          return { status: 'duplicate' as const, clock: 0 };
        }
      }
    }
    const report = await runSuite(
      eventStoreSuite({ create: () => new Broken(), reopen: () => new InMemoryEventStore() }),
    );
    const failed = new Set(report.results.filter((r) => r.status === 'failed').map((r) => r.id));
    expect(failed).toContain('hearthnet.event-store.replay-order');
    expect(failed).toContain('hearthnet.event-store.duplicate-conflict');
    expect(failed).toContain('hearthnet.event-store.invalid-event');
    expect(failed).toContain('hearthnet.event-store.persistence');
    expect(failed).not.toContain('hearthnet.event-store.append-get');
  });
});

describe('eventStoreSuite through registerSuite', () => {
  registerSuite(eventStoreSuite({ create: () => new InMemoryEventStore() }), { describe, it, afterAll });
});
