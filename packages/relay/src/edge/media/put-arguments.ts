import { RelayError } from '../../errors.js';
import type { MediaBody, MediaPutOptions } from './media-store.js';

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
