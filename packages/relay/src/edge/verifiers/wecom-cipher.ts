import { createCipheriv, createDecipheriv } from 'node:crypto';
import { RelayError } from '../../errors.js';
import { decodeBase64, decodeUtf8, encodeBase64 } from './bytes.js';
import type { WeComSecrets } from './wecom-config.js';

/** WeCom pads to a multiple of 32 bytes (PKCS#7 with k = 32), not the AES block size. */
const PAD_BLOCK = 32;
const RANDOM_BYTES = 16;
const LENGTH_BYTES = 4;

/**
 * Encrypts a message the way WeCom does: AES-256-CBC (IV = the key's first 16 bytes, no cipher
 * padding) over `random(16) + be32(len(msg)) + msg + receiveid`, padded PKCS#7-style to a
 * multiple of 32 bytes, base64-encoded.
 */
export function encryptWeComPayload(message: Uint8Array, secrets: WeComSecrets, random: Uint8Array): string {
  const receiveId = Buffer.from(secrets.corpId, 'utf8');
  const length = Buffer.alloc(LENGTH_BYTES);
  length.writeUInt32BE(message.length);
  const plain = Buffer.concat([random, length, message, receiveId]);
  const padLength = PAD_BLOCK - (plain.length % PAD_BLOCK);
  const padded = Buffer.concat([plain, Buffer.alloc(padLength, padLength)]);
  const cipher = createCipheriv('aes-256-cbc', secrets.aesKey, secrets.aesKey.subarray(0, 16));
  cipher.setAutoPadding(false);
  return encodeBase64(Buffer.concat([cipher.update(padded), cipher.final()]));
}

/**
 * The message inside a WeCom ciphertext. Throws `decrypt_failed` when it is not canonical
 * base64 of whole AES blocks, its padding is not 1 to 32 bytes of the pad length, its message length
 * overruns it, or the message is not UTF-8; `corp_id_mismatch` when the trailing receive id
 * is not the configured one.
 */
export function decryptWeComPayload(encrypt: string, secrets: WeComSecrets, path: string): string {
  const cipherText = decodeBase64(encrypt);
  if (cipherText === undefined || cipherText.length === 0 || cipherText.length % 16 !== 0) {
    throw new RelayError('decrypt_failed', `${path} is not base64 of whole AES blocks`, { path });
  }
  const decipher = createDecipheriv('aes-256-cbc', secrets.aesKey, secrets.aesKey.subarray(0, 16));
  decipher.setAutoPadding(false);
  const padded = Buffer.concat([decipher.update(cipherText), decipher.final()]);
  const padLength = padded[padded.length - 1]!;
  const end = padded.length - padLength;
  if (
    padLength < 1 ||
    padLength > PAD_BLOCK ||
    end < 0 ||
    padded.subarray(end).some((b) => b !== padLength)
  ) {
    throw new RelayError('decrypt_failed', `${path} has bad padding`, { path });
  }
  const headerEnd = RANDOM_BYTES + LENGTH_BYTES;
  if (end < headerEnd) throw new RelayError('decrypt_failed', `${path} is too short for a message`, { path });
  const messageEnd = headerEnd + padded.readUInt32BE(RANDOM_BYTES);
  if (messageEnd > end)
    throw new RelayError('decrypt_failed', `${path} has a message length past its end`, { path });
  const receiveId = decodeUtf8(padded.subarray(messageEnd, end));
  if (receiveId !== secrets.corpId) {
    throw new RelayError('corp_id_mismatch', `${path} is addressed to another corp id`, { path });
  }
  const message = decodeUtf8(padded.subarray(headerEnd, messageEnd));
  if (message === undefined)
    throw new RelayError('decrypt_failed', `${path} holds a message that is not UTF-8`, { path });
  return message;
}
