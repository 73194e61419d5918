/** What {@link KeyFileError} reports. */
export type KeyFileErrorCode =
  /** `device.ed25519` does not exist. */
  | 'missing_seed_file'
  /** On POSIX, `device.ed25519` is readable or writable by group or others. */
  | 'insecure_permissions'
  /** `device.ed25519` is not base64url of 32 bytes. */
  | 'malformed_seed_file'
  /** `device.pub` is not base64url of 32 bytes. */
  | 'malformed_public_key_file'
  /** `device.pub` holds a key other than the seed's. */
  | 'public_key_mismatch'
  /** The file system refused a read or write; `cause` holds its error. */
  | 'io_error';

/** Thrown by `readKeyPair` and `writeKeyPair` when key files are missing, unsafe, malformed or unwritable. */
export class KeyFileError extends Error {
  override readonly name = 'KeyFileError';
  readonly code: KeyFileErrorCode;
  /** The file concerned. */
  readonly path: string;

  constructor(code: KeyFileErrorCode, path: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.path = path;
  }
}
