import { RelayError } from '../errors.js';

// The media store contract: what `MediaStore` implementations take and answer, the id and argument
// rules every store applies, and the in-memory store. Runtime-neutral, so that `@agentwire/relay/testing`
// can offer `InMemoryMediaStore` without reaching Node's file system.

/** Media bytes: a stream of chunks, or one array. */
export type MediaBody = ReadableStream<Uint8Array> | Uint8Array;

/** What a {@link MediaStore} keeps with the bytes of an item. */
export interface MediaPutOptions {
  /** The tenant that owns the item; only it can read or delete it. */
  readonly tenant: string;
  /** The media type served back with the item. */
  readonly contentType: string;
  /** The file name served back in `Content-Disposition`, if the uploader gave one. */
  readonly filename?: string | undefined;
}

/** A stored item: its new id and its size in bytes. */
export interface StoredMedia {
  readonly id: string;
  readonly size: number;
}

/** A stored item read back. A stream `body` must be read to its end or cancelled. */
export interface MediaEntry {
  readonly body: MediaBody;
  readonly size: number;
  readonly contentType: string;
  readonly filename: string | undefined;
}

/**
 * Where the media plane keeps uploads, scoped by tenant. Implementations must:
 * - consume a stream `body` as it comes and, when it fails, reject with the same error and keep
 *   nothing of it (no partial item, no leftover file);
 * - refuse malformed `put` arguments as `edgeStoreKit.checkMediaPut` does;
 * - give every item a fresh id of the form `edgeStoreKit.isMediaId` accepts (`edgeStoreKit.newMediaId`
 *   makes one);
 * - answer `get` and `delete` for an id of another tenant, an unknown id or a malformed one exactly
 *   as for a missing item (`null`, `false`), never by throwing.
 */
export interface MediaStore {
  /** Stores `body` under a new id. */
  put(body: MediaBody, options: MediaPutOptions): Promise<StoredMedia>;
  /** The item `id` of `tenant`, or `null`. */
  get(id: string, tenant: string): Promise<MediaEntry | null>;
  /** Removes the item `id` of `tenant`; `false` when there was none. */
  delete(id: string, tenant: string): Promise<boolean>;
}

const MEDIA_ID = /^[0-9a-f]{32}$/;

/**
 * A new media id: 128 random bits as 32 lowercase hex digits. It is safe in a URL path segment and a
 * file name, and cannot name another path.
 */
export function newMediaId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let id = '';
  for (const byte of bytes) id += byte.toString(16).padStart(2, '0');
  return id;
}

/** Whether `value` has the form of a {@link newMediaId} id; stores answer any other id as unknown. */
export function isMediaId(value: unknown): value is string {
  return typeof value === 'string' && MEDIA_ID.test(value);
}

/** Checks the arguments of `MediaStore.put`, so that a store fails with a typed error, never a TypeError. */
export function checkPutArguments(body: MediaBody, options: MediaPutOptions): void {
  if (!(body instanceof Uint8Array) && !(body instanceof ReadableStream)) {
    throw new RelayError(
      'media_invalid_argument',
      'body must be a Uint8Array or a ReadableStream of Uint8Array',
      { path: 'body' },
    );
  }
  if (typeof options !== 'object' || options === null) {
    throw new RelayError('media_invalid_argument', 'options must be an object', { path: 'options' });
  }
  checkTenant(options.tenant);
  if (typeof options.contentType !== 'string' || options.contentType === '') {
    throw new RelayError('media_invalid_argument', 'contentType must be a non-empty string', {
      path: 'options.contentType',
    });
  }
  if (options.filename !== undefined && typeof options.filename !== 'string') {
    throw new RelayError('media_invalid_argument', 'filename must be a string when given', {
      path: 'options.filename',
    });
  }
}

/** Whether `tenant` is a usable tenant: a non-empty string. */
export function isTenant(tenant: unknown): tenant is string {
  return typeof tenant === 'string' && tenant !== '';
}

function checkTenant(tenant: unknown): void {
  if (!isTenant(tenant))
    throw new RelayError('media_invalid_argument', 'tenant must be a non-empty string', {
      path: 'options.tenant',
    });
}

/** A chunk of a stream `body`, checked to be bytes. */
export function checkChunk(chunk: unknown): Uint8Array {
  if (!(chunk instanceof Uint8Array)) {
    throw new RelayError('media_invalid_argument', 'a body stream yielded a chunk that is not a Uint8Array', {
      path: 'body',
    });
  }
  return chunk;
}

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
