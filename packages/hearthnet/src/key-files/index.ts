/**
 * Node-only key storage in the HearthNet reference layout (`device.ed25519` + `device.pub`).
 *
 * @packageDocumentation
 */
export {
  HearthNetLocalError,
  type HearthNetLocalErrorCode,
  type HearthNetLocalErrorDetails,
  type HearthNetLocalErrorOptions,
} from '../errors.js';
export { PUBLIC_KEY_FILE_NAME, readKeyPair, SEED_FILE_NAME, writeKeyPair } from './key-files.js';
