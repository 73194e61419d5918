import { RelayError } from '../../errors.js';
import { EdgeHttpError } from '../http/index.js';

/** An upload has no bytes; the media plane carries `0 < n ≤ 25 MiB`. Answered 400. */
export class EmptyMediaError extends EdgeHttpError {
  override readonly name = 'EmptyMediaError';
  readonly code = 'media_empty';
  readonly status = 400;
  readonly responseCode = 'empty_body';

  constructor() {
    super('a media upload must not be empty', 'body');
  }
}

/** The `X-Media-Filename` header is longer than 255 characters. Answered 400. */
export class MediaFilenameTooLongError extends EdgeHttpError {
  override readonly name = 'MediaFilenameTooLongError';
  readonly code = 'media_filename_too_long';
  readonly status = 400;
  readonly responseCode = 'filename_too_long';

  constructor(length: number, maxLength: number) {
    super(`X-Media-Filename has ${length} characters; at most ${maxLength} are accepted`, 'X-Media-Filename');
  }
}

/** No media with that id exists for the caller's tenant (it may exist for another). Answered 404. */
export class MediaNotFoundError extends EdgeHttpError {
  override readonly name = 'MediaNotFoundError';
  readonly code = 'media_not_found';
  readonly status = 404;
  readonly responseCode = 'not_found';

  constructor() {
    super('no such media', 'id');
  }
}

/** A media store or handler was given an unusable argument or option. */
export class MediaArgumentError extends RelayError {
  override readonly name = 'MediaArgumentError';
  readonly code = 'media_invalid_argument';
}

/** A stored media item cannot be read back as it was written (a broken sidecar, a truncated file). */
export class CorruptMediaError extends RelayError {
  override readonly name = 'CorruptMediaError';
  readonly code = 'media_store_corrupt';
}
