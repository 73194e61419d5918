/** The largest media upload or download the gateway accepts: 25 MiB. Uploads must also be non-empty. */
export const RELAY_MEDIA_MAX_BYTES = 26_214_400;

/** The upload header carrying the file name. */
export const RELAY_MEDIA_FILENAME_HEADER = 'X-Media-Filename';

/** The longest file name the gateway sends in {@link RELAY_MEDIA_FILENAME_HEADER}. */
export const RELAY_MEDIA_FILENAME_MAX_LENGTH = 255;
