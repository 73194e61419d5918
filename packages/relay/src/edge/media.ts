import { createHash } from 'node:crypto';
import { type FileHandle, mkdir, open, readFile, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { type AtomicWriteOptions, writeFileAtomic } from '@agentwire/internal/node';
import { RelayError } from '../errors.js';
import {
  RELAY_MEDIA_FILENAME_HEADER,
  RELAY_MEDIA_FILENAME_MAX_LENGTH,
  RELAY_MEDIA_MAX_BYTES,
} from '../passthrough.js';
import type { RelayServerOptions } from '../server/options.js';
import { authenticateUpgrade } from '../server/platform-adapter.js';
import {
  answeringEdgeErrors,
  type EdgeHandler,
  edgeMethodNotAllowed,
  edgeUnauthorized,
  jsonResponse,
  limitedRequestBody,
} from './http.js';
import {
  checkChunk,
  checkPutArguments,
  isMediaId,
  isTenant,
  type MediaBody,
  type MediaEntry,
  type MediaPutOptions,
  type MediaStore,
  newMediaId,
  type StoredMedia,
} from './media-store.js';

/** Characters RFC 8187 lets stand unencoded in an `ext-value` (`attr-char`). */
const ATTR_CHAR = /^[A-Za-z0-9!#$&+\-.^_`|~]$/;

/**
 * The `Content-Disposition` of a media download (RFC 6266): `attachment`, with
 * `filename="…"` for a plain printable-ASCII name, plus `filename*=UTF-8''…` (RFC 8187
 * percent-encoding) when the name has other characters, in which case `filename` carries an ASCII
 * fallback with `_` in their place. `"`, `\` and `%` also go to the fallback as `_`. The gateway reads
 * only the extension after the first `filename=`, which both forms keep.
 *
 * @example
 * attachmentContentDisposition('cat.jpg'); // 'attachment; filename="cat.jpg"'
 * attachmentContentDisposition('café.png');
 * // `attachment; filename="caf_.png"; filename*=UTF-8''caf%C3%A9.png`
 */
export function attachmentContentDisposition(filename: string | undefined): string {
  if (filename === undefined || filename === '') return 'attachment';
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/gu, '_');
  if (fallback === filename) return `attachment; filename="${filename}"`;
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeExtValue(filename)}`;
}

function encodeExtValue(text: string): string {
  let encoded = '';
  for (const character of text) {
    if (ATTR_CHAR.test(character)) {
      encoded += character;
      continue;
    }
    for (const byte of new TextEncoder().encode(character)) {
      encoded += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    }
  }
  return encoded;
}

/** The type media is served with when the upload named none, or none that is a valid media type. */
export const DEFAULT_MEDIA_CONTENT_TYPE = 'application/octet-stream';

const MAX_CONTENT_TYPE_LENGTH = 255;
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[\\x20-\\x7e\\t]*)?$`);

/**
 * The `Content-Type` to keep for an upload: the header as sent when it is a `type/subtype` media type
 * (parameters allowed) of printable ASCII up to 255 characters, otherwise
 * {@link DEFAULT_MEDIA_CONTENT_TYPE}.
 */
export function mediaContentType(header: string | null): string {
  if (header === null) return DEFAULT_MEDIA_CONTENT_TYPE;
  const value = header.trim();
  return value.length <= MAX_CONTENT_TYPE_LENGTH && MEDIA_TYPE.test(value)
    ? value
    : DEFAULT_MEDIA_CONTENT_TYPE;
}

/** C0 and C1 controls, DEL, and the bidirectional formatting marks that can disguise an extension. */
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The file name to keep for an upload's `X-Media-Filename`: its last path segment (after the last
 * `/` or `\`), without control characters or bidirectional marks, trimmed. `undefined` when nothing
 * usable is left (an empty name, `.` or `..`). The header is read as the Latin-1 text the gateway
 * sends; the name is only ever served back in `Content-Disposition`, never used as a path.
 *
 * @example
 * sanitizeMediaFilename('../../etc/passwd'); // 'passwd'
 * sanitizeMediaFilename('C:\\Users\\me\\photo.jpg'); // 'photo.jpg'
 */
export function sanitizeMediaFilename(raw: string): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const cleaned = raw.replace(UNSAFE_CHARACTERS, '');
  const name = cleaned.slice(Math.max(cleaned.lastIndexOf('/'), cleaned.lastIndexOf('\\')) + 1).trim();
  return name === '' || name === '.' || name === '..' ? undefined : name;
}

/** Options of {@link FilesystemMediaStore}. */
export interface FilesystemMediaStoreOptions {
  /** The directory that holds the items; created when missing. */
  readonly root: string;
  /** Flush each item to disk before it is published. Default `true`; `false` trades durability for speed. */
  readonly fsync?: boolean;
}

/** Size of the chunks a stored item is read back in. */
const READ_CHUNK_BYTES = 64 * 1024;
const SIDECAR_VERSION = 1;

interface Sidecar {
  readonly version: typeof SIDECAR_VERSION;
  readonly tenant: string;
  readonly size: number;
  readonly contentType: string;
  readonly filename?: string;
}

/**
 * A {@link MediaStore} in a directory. Each tenant has its own subdirectory, named by the SHA-256 of
 * the tenant (so no tenant string can name a path); an item is `<id>.bin` plus a `<id>.json` metadata
 * sidecar that records its tenant, size, type and file name. Ids are random hex, so no id can name a
 * path either. Writes are atomic: bytes go to a temporary file that is renamed into place when
 * complete, and the sidecar, written the same way, publishes the item. A failed or interrupted
 * upload leaves nothing behind. Items never expire; delete them yourself.
 *
 * @example
 * const store = new FilesystemMediaStore({ root: '/var/lib/connector/media' });
 * const media = createMediaHandler({ authenticate, store });
 */
export class FilesystemMediaStore implements MediaStore {
  readonly #root: string;
  readonly #writeOptions: AtomicWriteOptions;

  constructor(options: FilesystemMediaStoreOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new RelayError('media_invalid_argument', 'options must be an object', { path: 'options' });
    }
    if (typeof options.root !== 'string' || options.root === '') {
      throw new RelayError('media_invalid_argument', 'root must be a non-empty directory path', {
        path: 'options.root',
      });
    }
    if (options.fsync !== undefined && typeof options.fsync !== 'boolean') {
      throw new RelayError('media_invalid_argument', 'fsync must be a boolean', { path: 'options.fsync' });
    }
    this.#root = options.root;
    this.#writeOptions = { mode: 0o600, fsync: options.fsync ?? true };
  }

  async put(body: MediaBody, options: MediaPutOptions): Promise<StoredMedia> {
    checkPutArguments(body, options);
    const directory = this.#directory(options.tenant);
    await mkdir(directory, { recursive: true });
    const id = newMediaId();
    const paths = itemPaths(directory, id);
    const size = await writeFileAtomic(paths.data, (handle) => writeBody(handle, body), this.#writeOptions);
    const sidecar: Sidecar = {
      version: SIDECAR_VERSION,
      tenant: options.tenant,
      size,
      contentType: options.contentType,
      ...(options.filename === undefined ? {} : { filename: options.filename }),
    };
    try {
      await writeFileAtomic(paths.sidecar, JSON.stringify(sidecar), this.#writeOptions);
    } catch (error) {
      await rm(paths.data, { force: true });
      throw error;
    }
    return { id, size };
  }

  async get(id: string, tenant: string): Promise<MediaEntry | null> {
    if (!isMediaId(id) || !isTenant(tenant)) return null;
    const paths = itemPaths(this.#directory(tenant), id);
    const text = await readIfExists(paths.sidecar);
    if (text === undefined) return null;
    const sidecar = parseSidecar(text, id);
    if (sidecar.tenant !== tenant) return null;
    let handle: FileHandle;
    try {
      handle = await open(paths.data, 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      if (size !== sidecar.size) {
        throw new RelayError(
          'media_store_corrupt',
          `media ${id} holds ${size} bytes; its sidecar says ${sidecar.size}`,
          { path: 'id' },
        );
      }
    } catch (error) {
      await handle.close();
      throw error;
    }
    return {
      body: fileStream(handle, sidecar.size, id),
      size: sidecar.size,
      contentType: sidecar.contentType,
      filename: sidecar.filename,
    };
  }

  async delete(id: string, tenant: string): Promise<boolean> {
    if (!isMediaId(id) || !isTenant(tenant)) return false;
    const paths = itemPaths(this.#directory(tenant), id);
    const text = await readIfExists(paths.sidecar);
    if (text === undefined || parseSidecar(text, id).tenant !== tenant) return false;
    try {
      await unlink(paths.sidecar);
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
    await rm(paths.data, { force: true });
    return true;
  }

  #directory(tenant: string): string {
    return join(this.#root, createHash('sha256').update(tenant, 'utf8').digest('hex'));
  }
}

function itemPaths(directory: string, id: string): { readonly data: string; readonly sidecar: string } {
  return { data: join(directory, `${id}.bin`), sidecar: join(directory, `${id}.json`) };
}

async function writeBody(handle: FileHandle, body: MediaBody): Promise<number> {
  if (body instanceof Uint8Array) {
    await writeFully(handle, body);
    return body.byteLength;
  }
  const reader = body.getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return size;
      const chunk = checkChunk(value);
      await writeFully(handle, chunk);
      size += chunk.byteLength;
    }
  } catch (error) {
    reader.cancel(error).catch(() => undefined);
    throw error;
  }
}

async function writeFully(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.byteLength) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.byteLength - offset);
    offset += bytesWritten;
  }
}

function fileStream(handle: FileHandle, size: number, id: string): ReadableStream<Uint8Array> {
  let position = 0;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const length = Math.min(READ_CHUNK_BYTES, size - position);
          if (length <= 0) {
            await close();
            controller.close();
            return;
          }
          const buffer = new Uint8Array(length);
          const { bytesRead } = await handle.read(buffer, 0, length, position);
          if (bytesRead === 0)
            throw new RelayError('media_store_corrupt', `media ${id} ended after ${position} bytes`, {
              path: 'id',
            });
          position += bytesRead;
          controller.enqueue(bytesRead === length ? buffer : buffer.subarray(0, bytesRead));
        } catch (error) {
          await close().catch(() => undefined);
          throw error;
        }
      },
      cancel: close,
    },
    { highWaterMark: 0 },
  );
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

function parseSidecar(text: string, id: string): Sidecar {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RelayError('media_store_corrupt', `the sidecar of media ${id} is not JSON`, {
      path: 'id',
      cause: error,
    });
  }
  const sidecar = value as Partial<Sidecar> | null;
  if (
    typeof sidecar !== 'object' ||
    sidecar === null ||
    sidecar.version !== SIDECAR_VERSION ||
    !isTenant(sidecar.tenant) ||
    !Number.isSafeInteger(sidecar.size) ||
    (sidecar.size as number) < 0 ||
    typeof sidecar.contentType !== 'string' ||
    (sidecar.filename !== undefined && typeof sidecar.filename !== 'string')
  ) {
    throw new RelayError(
      'media_store_corrupt',
      `the sidecar of media ${id} is not a version ${SIDECAR_VERSION} sidecar`,
      { path: 'id' },
    );
  }
  return sidecar as Sidecar;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

/** The path the gateway uploads to; one item is `<path>/<id>`. */
export const RELAY_MEDIA_PATH = '/relay/media';

/** Options of {@link createMediaHandler}. */
export interface MediaHandlerOptions {
  /**
   * Looks up the gateway a bearer token names, as `createRelayServer`'s `authenticate`: its tenant and
   * secret list, or `null` when unknown or revoked. The media bearer is the gateway's channel token.
   */
  readonly authenticate: RelayServerOptions['authenticate'];
  /** Where uploads are kept. */
  readonly store: MediaStore;
  /** The clock, in milliseconds since the epoch, for token expiry. Default `Date.now`. */
  readonly now?: () => number;
  /** Seconds a token stays acceptable past its expiry. Default 0, as the gateway's reference verifier. */
  readonly skewSeconds?: number;
  /** The upload path, for a connector served under a prefix. Default `'/relay/media'`. */
  readonly path?: string;
}

/**
 * The connector's side of the media plane, as a web-standard handler:
 *
 * - `POST /relay/media`: raw bytes with `Content-Type` and an optional `X-Media-Filename` (at most 255
 *   characters, reduced to a bare file name). `0 < size ≤ 25 MiB`, enforced as the body streams into
 *   the store: a `Content-Length` above the limit is refused before anything is read, a body without
 *   one at the first byte over. Answers 200 `{ id, size }`; the gateway then refers to
 *   `…/relay/media/{id}`.
 * - `GET` (and `HEAD`) `/relay/media/{id}`: the bytes, with `Content-Length`, the stored
 *   `Content-Type`, and `Content-Disposition: attachment; filename="…"` (RFC 6266, with an RFC 8187
 *   `filename*` for other than plain ASCII names).
 *
 * Both need `Authorization: Bearer <channel token>`; an item is visible only to the tenant that
 * uploaded it (404 for any other). Refusals are JSON `{ error, message }`: 401 (with `reason:
 * 'expired'` for an expired token), 404, 405, 413, 400 for an empty upload or a long file name. A
 * failing `authenticate` or store is rethrown, for the router or `toNodeListener` to answer 500.
 *
 * @throws {RelayError} `media_invalid_argument`: An option is missing or unusable.
 *
 * @example
 * const media = createMediaHandler({
 *   authenticate: (gatewayId) => gateways.get(gatewayId) ?? null,
 *   store: new FilesystemMediaStore({ root: './media' }),
 * });
 * const router = createEdgeRouter({ '/relay/media': media, '/relay/media/*': media });
 */
export function createMediaHandler(options: MediaHandlerOptions): EdgeHandler {
  const settings = checkOptions(options);
  const { store, path } = settings;

  const authorize = async (request: Request): Promise<string> => {
    const result = await authenticateUpgrade(request.headers.get('authorization') ?? undefined, {
      authenticate: settings.authenticate,
      nowSeconds: Math.floor(settings.now() / 1000),
      skewSeconds: settings.skewSeconds,
    });
    if (!result.ok) throw edgeUnauthorized(result.reason, result.detail);
    return result.tenant;
  };

  const upload = async (request: Request): Promise<Response> => {
    const tenant = await authorize(request);
    if (request.headers.get('content-length') === '0') throw emptyMedia();
    const filename = uploadFilename(request.headers.get(RELAY_MEDIA_FILENAME_HEADER));
    const contentType = mediaContentType(request.headers.get('content-type'));
    const body = limitedRequestBody(request, RELAY_MEDIA_MAX_BYTES);
    const stored = await store.put(body, { tenant, contentType, filename });
    if (stored.size === 0) {
      await store.delete(stored.id, tenant);
      throw emptyMedia();
    }
    return jsonResponse(200, { id: stored.id, size: stored.size });
  };

  const download = async (request: Request, id: string): Promise<Response> => {
    const tenant = await authorize(request);
    const entry = isMediaId(id) ? await store.get(id, tenant) : null;
    if (entry === null) throw new RelayError('media_not_found', 'no such media', { path: 'id' });
    const headers = {
      'content-type': entry.contentType,
      'content-length': String(entry.size),
      'content-disposition': attachmentContentDisposition(entry.filename),
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    };
    if (request.method === 'HEAD') {
      if (entry.body instanceof ReadableStream) await entry.body.cancel();
      return new Response(null, { status: 200, headers });
    }
    return new Response(entry.body, { status: 200, headers });
  };

  return answeringEdgeErrors(async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === path) {
      if (request.method !== 'POST') throw edgeMethodNotAllowed(request.method, ['POST']);
      return await upload(request);
    }
    const id = pathname.startsWith(`${path}/`) ? pathname.slice(path.length + 1) : undefined;
    if (id === undefined || id === '' || id.includes('/'))
      throw new RelayError('edge_http_not_found', `no route for ${pathname}`);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw edgeMethodNotAllowed(request.method, ['GET', 'HEAD']);
    }
    return await download(request, id);
  });
}

/** `media_empty` (400): an upload has no bytes; the media plane carries `0 < n ≤ 25 MiB`. */
function emptyMedia(): RelayError {
  return new RelayError('media_empty', 'a media upload must not be empty', { path: 'body' });
}

function uploadFilename(header: string | null): string | undefined {
  if (header === null) return undefined;
  if (header.length > RELAY_MEDIA_FILENAME_MAX_LENGTH) {
    throw new RelayError(
      'media_filename_too_long',
      `X-Media-Filename has ${header.length} characters; at most ${RELAY_MEDIA_FILENAME_MAX_LENGTH} are accepted`,
      { path: 'X-Media-Filename' },
    );
  }
  return sanitizeMediaFilename(header);
}

interface MediaHandlerSettings {
  readonly authenticate: RelayServerOptions['authenticate'];
  readonly store: MediaStore;
  readonly now: () => number;
  readonly skewSeconds: number;
  readonly path: string;
}

function checkOptions(options: MediaHandlerOptions): MediaHandlerSettings {
  if (typeof options !== 'object' || options === null) {
    throw new RelayError('media_invalid_argument', 'options must be an object', { path: 'options' });
  }
  if (typeof options.authenticate !== 'function') {
    throw new RelayError('media_invalid_argument', 'authenticate must be a function', {
      path: 'options.authenticate',
    });
  }
  const store = options.store as Partial<MediaStore> | null | undefined;
  if (
    typeof store !== 'object' ||
    store === null ||
    typeof store.put !== 'function' ||
    typeof store.get !== 'function' ||
    typeof store.delete !== 'function'
  ) {
    throw new RelayError('media_invalid_argument', 'store must be a MediaStore (put, get, delete)', {
      path: 'options.store',
    });
  }
  if (options.now !== undefined && typeof options.now !== 'function') {
    throw new RelayError('media_invalid_argument', 'now must be a function', { path: 'options.now' });
  }
  const skewSeconds = options.skewSeconds ?? 0;
  if (!Number.isSafeInteger(skewSeconds) || skewSeconds < 0) {
    throw new RelayError('media_invalid_argument', 'skewSeconds must be a non-negative safe integer', {
      path: 'options.skewSeconds',
    });
  }
  const path = options.path ?? RELAY_MEDIA_PATH;
  if (typeof path !== 'string' || !/^(?:\/[^/?#\s]+)+$/.test(path)) {
    throw new RelayError('media_invalid_argument', `path must look like /relay/media, got ${String(path)}`, {
      path: 'options.path',
    });
  }
  return {
    authenticate: options.authenticate,
    store: options.store,
    now: options.now ?? Date.now,
    skewSeconds,
    path,
  };
}
