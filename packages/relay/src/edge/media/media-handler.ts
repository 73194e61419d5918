import { RelayError } from '../../errors.js';
import {
  RELAY_MEDIA_FILENAME_HEADER,
  RELAY_MEDIA_FILENAME_MAX_LENGTH,
  RELAY_MEDIA_MAX_BYTES,
} from '../../passthrough/media-plane.js';
import type { RelayServerOptions } from '../../server/options.js';
import { authenticateUpgrade } from '../../server/upgrade-auth.js';
import { answeringEdgeErrors, type EdgeHandler, jsonResponse, limitedRequestBody } from '../http/index.js';
import { edgeMethodNotAllowed, edgeUnauthorized } from '../http/refusals.js';
import { attachmentContentDisposition } from './content-disposition.js';
import { mediaContentType } from './content-type.js';
import { sanitizeMediaFilename } from './filename.js';
import { isMediaId } from './media-id.js';
import type { MediaStore } from './media-store.js';

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
  /** The upload path, for a connector served under a prefix. Default {@link RELAY_MEDIA_PATH}. */
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
