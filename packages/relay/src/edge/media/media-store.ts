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
 * - give every item a fresh id of the form `isMediaId` accepts;
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
