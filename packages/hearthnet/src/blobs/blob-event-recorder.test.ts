import { describe, expect, it } from 'vitest';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { InMemoryEventStore, verifyEvent } from '../events/index.js';
import { InMemoryBlobStore } from './backed-blob-store.js';
import { recordBlobEvents } from './index.js';

const holder = keyPairFromSeed(new Uint8Array(32).fill(41));
const communityId = holder.nodeId;

describe('recordBlobEvents', () => {
  it('logs a newly held blob as file.cid.advertised and an unpinned one as file.cid.unpinned, signed and in order', async () => {
    const events = new InMemoryEventStore();
    const recorder = recordBlobEvents({ events, identity: holder, communityId });
    const store = new InMemoryBlobStore({ onEvent: recorder.onEvent });
    const manifest = await store.putBlob(new TextEncoder().encode('Notfallplan Rhein'), { pin: true });
    await store.putBlob(new TextEncoder().encode('Notfallplan Rhein'));
    await store.unpin(manifest.cid);
    await recorder.settled();
    const logged = await events.list(communityId);
    expect(logged.map((e) => [e.event_type, e.lamport, e.data])).toEqual([
      ['file.cid.advertised', 1, { cid: manifest.cid, sizes_bytes: 17 }],
      ['file.cid.unpinned', 2, { cid: manifest.cid }],
    ]);
    for (const event of logged) expect(verifyEvent(event).valid).toBe(true);
  });

  it('reports a failed append from settled(), or to onError when given', async () => {
    const broken = new InMemoryEventStore();
    broken.appendLocal = async () => {
      throw new Error('disk full');
    };
    const recorder = recordBlobEvents({ events: broken, identity: holder, communityId });
    recorder.onEvent({ type: 'file.cid.unpinned', cid: `blake3:${'0'.repeat(64)}` });
    await expect(recorder.settled()).rejects.toThrow('disk full');
    await expect(recorder.settled()).resolves.toBeUndefined();

    const seen: unknown[] = [];
    const quiet = recordBlobEvents({
      events: broken,
      identity: holder,
      communityId,
      onError: (e) => seen.push(e),
    });
    quiet.onEvent({ type: 'file.cid.unpinned', cid: `blake3:${'0'.repeat(64)}` });
    await quiet.settled();
    expect(seen).toHaveLength(1);
  });
});
