import { isMediaId, newMediaId } from './media-id.js';
import type { MediaBody, MediaEntry, MediaPutOptions, MediaStore, StoredMedia } from './media-store.js';
import { checkChunk, checkPutArguments, isTenant } from './put-arguments.js';

interface Item {
  readonly tenant: string;
  readonly bytes: Uint8Array;
  readonly contentType: string;
  readonly filename: string | undefined;
}

/**
 * A {@link MediaStore} in process memory, for tests and single-process development: items are lost on
 * restart and never expire. `get` hands out a copy of the bytes.
 *
 * @example
 * const media = createMediaHandler({ authenticate, store: new InMemoryMediaStore() });
 */
export class InMemoryMediaStore implements MediaStore {
  readonly #items = new Map<string, Item>();

  async put(body: MediaBody, options: MediaPutOptions): Promise<StoredMedia> {
    checkPutArguments(body, options);
    const bytes = body instanceof Uint8Array ? body.slice() : await collect(body);
    const id = newMediaId();
    this.#items.set(id, {
      tenant: options.tenant,
      bytes,
      contentType: options.contentType,
      filename: options.filename,
    });
    return { id, size: bytes.byteLength };
  }

  async get(id: string, tenant: string): Promise<MediaEntry | null> {
    const item = this.#find(id, tenant);
    if (item === undefined) return null;
    return {
      body: item.bytes.slice(),
      size: item.bytes.byteLength,
      contentType: item.contentType,
      filename: item.filename,
    };
  }

  async delete(id: string, tenant: string): Promise<boolean> {
    if (this.#find(id, tenant) === undefined) return false;
    return this.#items.delete(id);
  }

  #find(id: string, tenant: string): Item | undefined {
    if (!isMediaId(id) || !isTenant(tenant)) return undefined;
    const item = this.#items.get(id);
    return item?.tenant === tenant ? item : undefined;
  }
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const chunk = checkChunk(value);
      chunks.push(chunk);
      size += chunk.byteLength;
    }
  } catch (error) {
    reader.cancel(error).catch(() => undefined);
    throw error;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
