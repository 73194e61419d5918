import { describe, expect, it } from 'vitest';
import { contentId } from '../hashing.js';
import { InMemoryBlobStore } from './backed-blob-store.js';
import { describeBlobStoreBehaviour, text } from './blob-store-behaviour.test-support.js';

describeBlobStoreBehaviour('InMemoryBlobStore', async (options) => new InMemoryBlobStore(options));

describe('InMemoryBlobStore', () => {
  it('copies chunk bytes in, so a caller changing its array does not change the store', async () => {
    const store = new InMemoryBlobStore();
    const bytes = text('mine');
    await store.putChunk(contentId('mine'), bytes);
    bytes.fill(0);
    expect(await store.getChunk(contentId('mine'))).toEqual(text('mine'));
  });
});
