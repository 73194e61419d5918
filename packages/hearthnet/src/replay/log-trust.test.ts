import { describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../events/event-store.js';
import { trustFromLog } from './community-manifest.js';
import {
  alice,
  bob,
  carol,
  communityId,
  dave,
  foundedCommunity,
  mallory,
  outsider,
  root,
} from './replay.test-support.js';

async function storeWith(events: readonly unknown[]): Promise<InMemoryEventStore> {
  const store = new InMemoryEventStore();
  for (const event of events) await store.append(event as never);
  return store;
}

describe('trustFromLog', () => {
  it('answers each caller its level in the replayed membership, unknown for strangers and unsigned callers', async () => {
    const trust = trustFromLog({ store: await storeWith(foundedCommunity().events), communityId });
    expect(await trust.trustOf(root.nodeId)).toBe('anchor');
    expect(await trust.trustOf(alice.nodeId)).toBe('trusted');
    expect(await trust.trustOf(dave.nodeId)).toBe('member');
    expect(await trust.trustOf(outsider.nodeId)).toBe('unknown');
    expect(await trust.trustOf(undefined)).toBe('unknown');
  });

  it('follows the log: a revocation stored later makes the member revoked on the next call', async () => {
    const log = foundedCommunity();
    const store = await storeWith(log.events);
    const trust = trustFromLog({ store, communityId });
    expect(await trust.trustOf(mallory.nodeId)).toBe('member');
    await store.append(log.revoke(alice, mallory, [bob, carol]));
    expect(await trust.trustOf(mallory.nodeId)).toBe('revoked');
  });

  it('replays once per change of the log, however many calls come in between', async () => {
    const log = foundedCommunity();
    const store = await storeWith(log.events);
    let lists = 0;
    const counting = new Proxy(store, {
      get(target, property, receiver) {
        if (property === 'list') {
          return (...args: Parameters<InMemoryEventStore['list']>) => {
            lists += 1;
            return target.list(...args);
          };
        }
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const trust = trustFromLog({ store: counting, communityId });
    await Promise.all([alice, bob, dave, outsider].map((key) => trust.trustOf(key.nodeId)));
    await trust.trustOf(alice.nodeId);
    expect(lists).toBe(1);
    await store.append(log.post(dave, 'p-1'));
    await trust.trustOf(alice.nodeId);
    expect(lists).toBe(2);
  });

  it('answers unknown before the community exists and refuses bad options', async () => {
    const trust = trustFromLog({ store: new InMemoryEventStore(), communityId });
    expect(await trust.trustOf(root.nodeId)).toBe('unknown');
    expect(() => trustFromLog({ store: undefined as never, communityId })).toThrow(
      expect.objectContaining({ code: 'invalid_replay_options' }),
    );
    expect(() => trustFromLog({ store: new InMemoryEventStore(), communityId: 'root' })).toThrow(
      expect.objectContaining({ code: 'invalid_replay_options' }),
    );
  });
});
