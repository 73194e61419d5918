/**
 * Node-only key storage in the HearthNet reference layout (`device.ed25519` + `device.pub`).
 *
 * @packageDocumentation
 */

import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '@agentwire/internal/node';
import { type KeyPair, keyPairFromSeed } from './crypto/key-pair.js';
import { base64UrlDecode, base64UrlEncode } from './encoding.js';
import { HearthNetLocalError } from './errors.js';

/** The seed file in a keys directory: unpadded base64url of the 32-byte seed and a newline, mode 0600. */
export const SEED_FILE_NAME = 'device.ed25519';
/** The public key file in a keys directory: unpadded base64url of the 32-byte public key and a newline. */
const PUBLIC_KEY_FILE_NAME = 'device.pub';

const SEED_FILE_MODE = 0o600;
const PUBLIC_KEY_FILE_MODE = 0o644;
const KEYS_DIRECTORY_MODE = 0o700;
/** Permission bits for group and others. */
const GROUP_OTHER_BITS = 0o077;

/**
 * Stores a key pair in `directory` in the reference layout: `device.ed25519` (the seed, mode 0600)
 * and `device.pub`. Each file is written to a temporary file and renamed into place, so a reader
 * never sees half a file. Creates the directory (mode 0700) when missing. Throws
 * {@link HearthNetLocalError}: `invalid_key` when the public key is not the seed's, `io_error` when
 * the file system refuses (`details.file` names the file).
 *
 * @example
 * await writeKeyPair(join(homedir(), '.hearthnet', 'keys'), generateKeyPair());
 */
export async function writeKeyPair(directory: string, keyPair: KeyPair): Promise<void> {
  const derived = keyPairFromSeed(keyPair?.secretKey);
  if (
    !(keyPair.publicKey instanceof Uint8Array) ||
    base64UrlEncode(keyPair.publicKey) !== base64UrlEncode(derived.publicKey)
  ) {
    throw new HearthNetLocalError(
      'invalid_key',
      "the key pair's public key is not the public key of its seed",
    );
  }
  try {
    await mkdir(directory, { recursive: true, mode: KEYS_DIRECTORY_MODE });
  } catch (cause) {
    throw new HearthNetLocalError('io_error', `cannot create the keys directory ${directory}`, {
      cause,
      details: { file: directory },
    });
  }
  await writeAtomically(
    join(directory, SEED_FILE_NAME),
    `${base64UrlEncode(derived.secretKey)}\n`,
    SEED_FILE_MODE,
  );
  await writeAtomically(
    join(directory, PUBLIC_KEY_FILE_NAME),
    `${base64UrlEncode(derived.publicKey)}\n`,
    PUBLIC_KEY_FILE_MODE,
  );
}

async function writeAtomically(path: string, text: string, mode: number): Promise<void> {
  try {
    await writeFileAtomic(path, text, { mode, syncFolder: true });
  } catch (cause) {
    throw new HearthNetLocalError('io_error', `cannot write ${path}`, { cause, details: { file: path } });
  }
}

/**
 * Loads the key pair stored in `directory` by {@link writeKeyPair} or by the Python reference.
 * Refuses (with {@link HearthNetLocalError}) a missing seed file, on POSIX a seed file that group or
 * others may read or write (`insecure_permissions`; the reference also refuses modes such as 0700
 * that this accepts), a seed or public key file that is not unpadded base64url of 32 bytes
 * (surrounding whitespace allowed), and a `device.pub` that is present but not the seed's key.
 *
 * @example
 * const keyPair = await readKeyPair(keysDirectory);
 */
export async function readKeyPair(directory: string): Promise<KeyPair> {
  const seedPath = join(directory, SEED_FILE_NAME);
  const seedText = await readSeedFile(seedPath);
  const keyPair = keyPairFromSeed(decodeKey(seedText, 'malformed_seed_file', seedPath));
  const publicKeyPath = join(directory, PUBLIC_KEY_FILE_NAME);
  const publicKeyText = await readOptionalFile(publicKeyPath);
  if (publicKeyText !== undefined) {
    const stored = decodeKey(publicKeyText, 'malformed_public_key_file', publicKeyPath);
    if (base64UrlEncode(stored) !== base64UrlEncode(keyPair.publicKey)) {
      throw new HearthNetLocalError(
        'public_key_mismatch',
        `${publicKeyPath} does not hold the seed's public key`,
        { details: { file: publicKeyPath } },
      );
    }
  }
  return keyPair;
}

async function readSeedFile(path: string): Promise<string> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, 'r');
  } catch (cause) {
    if (isNotFound(cause))
      throw new HearthNetLocalError('missing_seed_file', `no seed file at ${path}`, {
        cause,
        details: { file: path },
      });
    throw new HearthNetLocalError('io_error', `cannot open ${path}`, { cause, details: { file: path } });
  }
  try {
    // Checked on the open file, so the file read is the file checked.
    const { mode } = await file.stat();
    if (process.platform !== 'win32' && (mode & GROUP_OTHER_BITS) !== 0) {
      const octal = (mode & 0o777).toString(8).padStart(3, '0');
      throw new HearthNetLocalError(
        'insecure_permissions',
        `${path} has mode ${octal}; a seed file must not be accessible to group or others (chmod 600)`,
        { details: { file: path } },
      );
    }
    return await file.readFile('utf8');
  } catch (error) {
    if (error instanceof HearthNetLocalError) throw error;
    throw new HearthNetLocalError('io_error', `cannot read ${path}`, {
      cause: error,
      details: { file: path },
    });
  } finally {
    await file.close();
  }
}

async function readOptionalFile(path: string): Promise<string | undefined> {
  try {
    const file = await open(path, 'r');
    try {
      return await file.readFile('utf8');
    } finally {
      await file.close();
    }
  } catch (cause) {
    if (isNotFound(cause)) return undefined;
    throw new HearthNetLocalError('io_error', `cannot read ${path}`, { cause, details: { file: path } });
  }
}

function decodeKey(
  text: string,
  code: 'malformed_seed_file' | 'malformed_public_key_file',
  path: string,
): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = base64UrlDecode(text.trim());
  } catch (cause) {
    throw new HearthNetLocalError(code, `${path} is not unpadded base64url`, {
      cause,
      details: { file: path },
    });
  }
  if (bytes.length !== 32)
    throw new HearthNetLocalError(code, `${path} holds ${bytes.length} bytes, not 32`, {
      details: { file: path },
    });
  return bytes;
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}
