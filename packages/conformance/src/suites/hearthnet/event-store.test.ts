import {
  type EventStore,
  InMemoryEventStore,
  type LamportRange,
  type SignedEvent,
} from '@agentwire/hearthnet/events';
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

describe('eventStoreSuite 1.1.0', () => {
  it('fails a store that lends out its events, reads bad ranges leniently, or reports the last arrival as head', async () => {
    class Broken extends InMemoryEventStore {
      readonly #lent = new Map<string, SignedEvent>();
      #lastArrival = new Map<string, number>();
      override async get(eventId: string) {
        const stored = await super.get(eventId);
        if (stored === undefined) return undefined;
        // The same mutable object on every read: a change by one caller is seen by the next.
        if (!this.#lent.has(eventId)) this.#lent.set(eventId, structuredClone(stored));
        return this.#lent.get(eventId);
      }
      override async list(communityId: string, range: LamportRange = {}) {
        const lenient = (value: unknown) =>
          typeof value === 'number' ? Math.max(0, Math.floor(value)) : undefined;
        const from = lenient(range.fromLamport);
        const to = lenient(range.toLamport);
        const limit = lenient(range.limit);
        return super.list(communityId, {
          ...(from === undefined ? {} : { fromLamport: from }),
          ...(to === undefined ? {} : { toLamport: to }),
          ...(limit === undefined ? {} : { limit }),
        });
      }
      override async append(event: SignedEvent) {
        const result = await super.append(event);
        this.#lastArrival.set(event.community_id, event.lamport);
        return result;
      }
      override async head(communityId: string) {
        return this.#lastArrival.get(communityId);
      }
    }
    const report = await runSuite(eventStoreSuite({ create: () => new Broken() }));
    const failed = report.results.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed).toEqual([
      'hearthnet.event-store.receive-clock',
      'hearthnet.event-store.list-refusals',
      'hearthnet.event-store.head-highest',
      'hearthnet.event-store.stored-events-isolated',
    ]);
  });

  it('fails a store whose refusals carry no code, or whose invalid-event refusal names no field', async () => {
    class Untyped extends InMemoryEventStore {
      override async append(event: SignedEvent) {
        try {
          return await super.append(event);
        } catch (error) {
          const { code } = error as { code: string };
          throw code === 'invalid_event'
            ? Object.assign(new Error('invalid event'), { code })
            : new Error('refused');
        }
      }
    }
    const report = await runSuite(eventStoreSuite({ create: () => new Untyped() }));
    const failed = report.results.filter((r) => r.status === 'failed');
    expect(failed.map((r) => r.id)).toEqual([
      'hearthnet.event-store.duplicate-conflict',
      'hearthnet.event-store.invalid-event',
      'hearthnet.event-store.lamport-ceiling',
    ]);
    expect(failed[1]!.error?.message).toContain('error path');
  });
});

describe('eventStoreSuite through registerSuite', () => {
  registerSuite(eventStoreSuite({ create: () => new InMemoryEventStore() }), { describe, it, afterAll });
});
