import { RelayError } from '../../errors.js';
import { assertNonEmptyString, assertOptions } from './arguments.js';

const ENCODING_AES_KEY = /^[A-Za-z0-9+/]{43}$/;

/** The secrets of one WeCom callback configuration. */
export interface WeComCryptoOptions {
  /** The callback Token (used to sign). */
  readonly token: string;
  /** The callback EncodingAESKey: 43 base64 characters, the AES key without its final `=`. */
  readonly encodingAesKey: string;
  /**
   * WeCom's `receiveid`: the corp id for an internal app's callbacks, the suite id for a
   * third-party app's. Decrypted messages must name it.
   */
  readonly corpId: string;
}

/** Checked WeCom secrets: the token, the 32-byte AES key and the receive id. */
export interface WeComSecrets {
  readonly token: string;
  readonly aesKey: Uint8Array;
  readonly corpId: string;
}

/** Checks WeCom options; the AES key is base64-decode(EncodingAESKey + '='). */
export function weComSecrets(options: unknown): WeComSecrets {
  assertOptions(options);
  const { token, encodingAesKey, corpId } = options as Partial<Record<keyof WeComCryptoOptions, unknown>>;
  assertNonEmptyString(token, 'token');
  assertNonEmptyString(corpId, 'corpId');
  if (typeof encodingAesKey !== 'string' || !ENCODING_AES_KEY.test(encodingAesKey)) {
    throw new RelayError(
      'invalid_argument',
      'encodingAesKey must be 43 base64 characters (WeCom EncodingAESKey)',
      { path: 'encodingAesKey' },
    );
  }
  return { token, aesKey: new Uint8Array(Buffer.from(`${encodingAesKey}=`, 'base64')), corpId };
}
