import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateKeyPair, keyPairFromSeed } from './crypto/key-pair.js';
import { base64UrlEncode } from './encoding.js';
import { HearthNetLocalError, type HearthNetLocalErrorCode } from './errors.js';
import { readKeyPair, SEED_FILE_NAME, writeKeyPair } from './key-files.js';

/** The public key file of the reference layout (not exported: only the seed file name is). */
const PUBLIC_KEY_FILE_NAME = 'device.pub';

const posix = process.platform !== 'win32';
let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'hearthnet-keys-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function codeOf(promise: Promise<unknown>): Promise<HearthNetLocalErrorCode | undefined> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(HearthNetLocalError);
    expect((error as HearthNetLocalError).details?.file).toEqual(expect.any(String));
    return (error as HearthNetLocalError).code;
  }
  return undefined;
}

describe('writeKeyPair / readKeyPair', () => {
  it('writes the reference layout and reads it back', async () => {
    const keyPair = generateKeyPair();
    await writeKeyPair(directory, keyPair);
    expect(await readFile(join(directory, SEED_FILE_NAME), 'utf8')).toBe(
      `${base64UrlEncode(keyPair.secretKey)}\n`,
    );
    expect(await readFile(join(directory, PUBLIC_KEY_FILE_NAME), 'utf8')).toBe(
      `${base64UrlEncode(keyPair.publicKey)}\n`,
    );
    const read = await readKeyPair(directory);
    expect(read).toEqual(keyPair);
    expect((await readdir(directory)).sort()).toEqual([SEED_FILE_NAME, PUBLIC_KEY_FILE_NAME].sort());
  });

  it.runIf(posix)('makes the seed file 0600, even over an existing file with a wider mode', async () => {
    await writeFile(join(directory, SEED_FILE_NAME), 'old\n', { mode: 0o644 });
    await writeKeyPair(directory, generateKeyPair());
    expect((await stat(join(directory, SEED_FILE_NAME))).mode & 0o777).toBe(0o600);
  });

  it('creates a missing keys directory', async () => {
    const nested = join(directory, 'a', 'keys');
    const keyPair = generateKeyPair();
    await writeKeyPair(nested, keyPair);
    expect(await readKeyPair(nested)).toEqual(keyPair);
  });

  it('reads a seed file with surrounding whitespace, and works without device.pub', async () => {
    const keyPair = generateKeyPair();
    await writeFile(join(directory, SEED_FILE_NAME), `  ${base64UrlEncode(keyPair.secretKey)}\r\n`, {
      mode: 0o600,
    });
    expect(await readKeyPair(directory)).toEqual(keyPair);
  });

  it('refuses a key pair whose public key is not its seed’s', async () => {
    const mismatched = { ...generateKeyPair(), publicKey: generateKeyPair().publicKey };
    await expect(writeKeyPair(directory, mismatched)).rejects.toThrow(
      expect.objectContaining({ code: 'invalid_key' }),
    );
    await expect(writeKeyPair(directory, { ...mismatched, secretKey: new Uint8Array(3) })).rejects.toThrow(
      expect.objectContaining({ code: 'invalid_key' }),
    );
  });

  it('reports a missing seed file', async () => {
    expect(await codeOf(readKeyPair(directory))).toBe('missing_seed_file');
    expect(await codeOf(readKeyPair(join(directory, 'nowhere')))).toBe('missing_seed_file');
  });

  it.runIf(posix)('refuses a seed file that group or others may access', async () => {
    await writeKeyPair(directory, generateKeyPair());
    for (const mode of [0o640, 0o604, 0o660, 0o666, 0o610]) {
      await chmod(join(directory, SEED_FILE_NAME), mode);
      expect(await codeOf(readKeyPair(directory)), mode.toString(8)).toBe('insecure_permissions');
    }
    for (const mode of [0o600, 0o400]) {
      await chmod(join(directory, SEED_FILE_NAME), mode);
      await expect(readKeyPair(directory)).resolves.toBeDefined();
    }
  });

  it('refuses malformed seed and public key files', async () => {
    const keyPair = keyPairFromSeed(new Uint8Array(32).fill(1));
    const seedPath = join(directory, SEED_FILE_NAME);
    const publicKeyPath = join(directory, PUBLIC_KEY_FILE_NAME);
    for (const text of [
      '',
      'not base64!',
      `${base64UrlEncode(new Uint8Array(31))}\n`,
      `${base64UrlEncode(keyPair.secretKey)}=\n`,
    ]) {
      await writeFile(seedPath, text, { mode: 0o600 });
      await chmod(seedPath, 0o600);
      expect(await codeOf(readKeyPair(directory)), JSON.stringify(text)).toBe('malformed_seed_file');
    }
    await writeFile(seedPath, `${base64UrlEncode(keyPair.secretKey)}\n`, { mode: 0o600 });
    await writeFile(publicKeyPath, 'garbage\n');
    expect(await codeOf(readKeyPair(directory))).toBe('malformed_public_key_file');
    await writeFile(publicKeyPath, `${base64UrlEncode(generateKeyPair().publicKey)}\n`);
    expect(await codeOf(readKeyPair(directory))).toBe('public_key_mismatch');
  });

  it('reports a file system failure as io_error with its cause', async () => {
    const file = join(directory, 'plain-file');
    await writeFile(file, 'x');
    try {
      await writeKeyPair(join(file, 'keys'), generateKeyPair());
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ name: 'HearthNetLocalError', code: 'io_error' });
      expect((error as Error).cause).toBeDefined();
    }
  });
});
