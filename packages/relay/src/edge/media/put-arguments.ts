import { MediaArgumentError } from './errors.js';
import type { MediaBody, MediaPutOptions } from './media-store.js';

/** Checks the arguments of `MediaStore.put`, so that a store fails with a typed error, never a TypeError. */
export function checkPutArguments(body: MediaBody, options: MediaPutOptions): void {
  if (!(body instanceof Uint8Array) && !(body instanceof ReadableStream)) {
    throw new MediaArgumentError('body must be a Uint8Array or a ReadableStream of Uint8Array', 'body');
  }
  if (typeof options !== 'object' || options === null) {
    throw new MediaArgumentError('options must be an object', 'options');
  }
  checkTenant(options.tenant);
  if (typeof options.contentType !== 'string' || options.contentType === '') {
    throw new MediaArgumentError('contentType must be a non-empty string', 'options.contentType');
  }
  if (options.filename !== undefined && typeof options.filename !== 'string') {
    throw new MediaArgumentError('filename must be a string when given', 'options.filename');
  }
}

/** Whether `tenant` is a usable tenant: a non-empty string. */
export function isTenant(tenant: unknown): tenant is string {
  return typeof tenant === 'string' && tenant !== '';
}

function checkTenant(tenant: unknown): void {
  if (!isTenant(tenant)) throw new MediaArgumentError('tenant must be a non-empty string', 'options.tenant');
}

/** A chunk of a stream `body`, checked to be bytes. */
export function checkChunk(chunk: unknown): Uint8Array {
  if (!(chunk instanceof Uint8Array)) {
    throw new MediaArgumentError('a body stream yielded a chunk that is not a Uint8Array', 'body');
  }
  return chunk;
}
