import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EdgeRequest } from './verifiers.js';
import { refusal } from './verifiers.test-support.js';
import { encryptWeComReply, verifyWeComCallback } from './verifiers-wecom.js';

/** The worked example of WeCom's "加解密方案说明" and its official sample code. */
const OFFICIAL = {
  token: 'QDG6eK',
  encodingAesKey: 'jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C',
  corpId: 'wx5823bf96d3bd56c7',
};
const OFFICIAL_ECHO =
  'P9nAzCzyDtyTWESHep1vC5X9xho/qYX3Zpb4yKa9SKld1DsH3Iyt3tP3zNdtp+4RPcs8TgAE7OaBO+FZXvnaqQ==';
const OFFICIAL_ENCRYPT =
  'RypEvHKD8QQKFhvQ6QleEB4J58tiPdvo+rtK1I9qca6aM/wvqnLSV5zEPeusUiX5L5X/0lWfrf0QADHHhGd3QczcdCUpj911L3vg3W/sYYvuJTs3TUUkSUXxaccAS0qhxchrRYt66wiSpGLYL42aM6A8dTT+6k4aSknmPj48kzJs8qLjvd4Xgpue06DOdnLxAUHzM6+kDZ+HMZfJYuR+LtwGc2hgf5gsijff0ekUNXZiqATP7PF5mZxZ3Izoun1s4zG4LUMnvw2r+KqCKIw+3IQH03v+BCA9nMELNqbSf6tiWSrXJB3LAVGUcallcrw8V2t9EL4EhzJWrQUax5wLVMNS0+rUPA3k22Ncx4XXZS9o0MBH27Bo6BpNelZpS+/uh9KsNlY6bHCmJU9p8g7m3fVKn28H3KDYA5Pl/T8Z1ptDAVe0lXdQ2YoyyH2uyPIGHBZZIs2pDBS8R07+qN+E7Q==';

/** A key of this test's own (43 characters from the documented alphabet). */
const SECRETS = {
  token: 'tok3n',
  encodingAesKey: 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG',
  corpId: 'ww0123456789abcdef',
};
const AES_KEY = Buffer.from(`${SECRETS.encodingAesKey}=`, 'base64');
const NOW = 1_779_782_400;
const CALLBACK = 'https://edge.example.com/wecom/callback';

/** Encrypts with node:crypto directly, following the documented layout and 32-byte PKCS#7. */
function encrypt(
  message: string,
  { corpId = SECRETS.corpId, pad }: { corpId?: string; pad?: (n: number) => Buffer } = {},
): string {
  const msg = Buffer.from(message, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(msg.length);
  const plain = Buffer.concat([Buffer.alloc(16, 7), length, msg, Buffer.from(corpId)]);
  const n = 32 - (plain.length % 32);
  const cipher = createCipheriv('aes-256-cbc', AES_KEY, AES_KEY.subarray(0, 16)).setAutoPadding(false);
  const padded = Buffer.concat([plain, pad ? pad(n) : Buffer.alloc(n, n)]);
  return Buffer.concat([cipher.update(padded), cipher.final()]).toString('base64');
}

/** The documented signature: SHA-1 hex of the four values sorted and joined. */
function sign(token: string, timestamp: string, nonce: string, encrypted: string): string {
  return createHash('sha1').update([token, timestamp, nonce, encrypted].sort().join('')).digest('hex');
}

function query(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

function post(
  encrypted: string,
  { timestamp = String(NOW), nonce = '1372623149', signature = '' } = {},
): EdgeRequest {
  const msg_signature = signature || sign(SECRETS.token, timestamp, nonce, encrypted);
  const body = `<xml><ToUserName><![CDATA[${SECRETS.corpId}]]></ToUserName><Encrypt><![CDATA[${encrypted}]]></Encrypt><AgentID>1</AgentID></xml>`;
  return {
    method: 'POST',
    url: `${CALLBACK}?${query({ msg_signature, timestamp, nonce })}`,
    headers: new Headers({ 'content-type': 'text/xml' }),
    body: new TextEncoder().encode(body),
  };
}

const MESSAGE = '<xml><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[你好 ✓]]></Content></xml>';
const options = { ...SECRETS, now: NOW };

describe('verifyWeComCallback', () => {
  it("decrypts the documentation's worked example (URL check and message)", () => {
    const get: EdgeRequest = {
      method: 'GET',
      url: `${CALLBACK}?${query({ msg_signature: '5c45ff5e21c57e6ad56bac8758b79b1d9ac89fd3', timestamp: '1409659589', nonce: '263014780', echostr: OFFICIAL_ECHO })}`,
      headers: new Headers(),
      body: new Uint8Array(),
    };
    expect(verifyWeComCallback(get, { ...OFFICIAL, now: 1409659589 })).toEqual({
      kind: 'url_verification',
      echo: '1616140317555161061',
      timestamp: 1409659589,
      nonce: '263014780',
    });
    const message: EdgeRequest = {
      method: 'POST',
      url: `${CALLBACK}?msg_signature=477715d11cdb4164915debcba66cb864d751f3e6&timestamp=1409659813&nonce=1372623149`,
      headers: new Headers(),
      body: new TextEncoder().encode(
        `<xml><ToUserName><![CDATA[wx5823bf96d3bd56c7]]></ToUserName><Encrypt><![CDATA[${OFFICIAL_ENCRYPT}]]></Encrypt><AgentID><![CDATA[218]]></AgentID></xml>`,
      ),
    };
    const verified = verifyWeComCallback(message, { ...OFFICIAL, now: 1409659813 });
    expect(verified.kind).toBe('message');
    expect(verified.kind === 'message' && verified.message).toContain('<Content><![CDATA[hello]]></Content>');
    expect(refusal(() => verifyWeComCallback(message, { ...OFFICIAL, now: NOW }))).toBe('stale_timestamp');
  });

  it('decrypts a message encrypted with node:crypto directly', () => {
    expect(verifyWeComCallback(post(encrypt(MESSAGE)), options)).toEqual({
      kind: 'message',
      message: MESSAGE,
      timestamp: NOW,
      nonce: '1372623149',
    });
  });

  it('answers the URL-verification GET, restoring a + that arrived unescaped', () => {
    const echostr = encrypt('5927782492', { corpId: SECRETS.corpId });
    const params = {
      msg_signature: sign(SECRETS.token, String(NOW), '42', echostr),
      timestamp: String(NOW),
      nonce: '42',
    };
    const escaped = {
      method: 'GET',
      url: `${CALLBACK}?${query({ ...params, echostr })}`,
      headers: new Headers(),
      body: new Uint8Array(),
    };
    expect(verifyWeComCallback(escaped, options)).toMatchObject({
      kind: 'url_verification',
      echo: '5927782492',
    });
    const raw = { ...escaped, url: `${CALLBACK}?${query(params)}&echostr=${echostr}` };
    expect(verifyWeComCallback(raw, options)).toMatchObject({ kind: 'url_verification', echo: '5927782492' });
    const noEcho = { ...escaped, url: `${CALLBACK}?${query(params)}` };
    expect(refusal(() => verifyWeComCallback(noEcho, options))).toBe('malformed_request');
  });

  it('refuses a stale or future timestamp, after the signature', () => {
    const encrypted = encrypt(MESSAGE);
    expect(
      refusal(() => verifyWeComCallback(post(encrypted, { timestamp: String(NOW - 301) }), options)),
    ).toBe('stale_timestamp');
    expect(
      refusal(() => verifyWeComCallback(post(encrypted, { timestamp: String(NOW + 301) }), options)),
    ).toBe('stale_timestamp');
    expect(verifyWeComCallback(post(encrypted, { timestamp: String(NOW - 300) }), options).timestamp).toBe(
      NOW - 300,
    );
    const forgedStale = post(encrypted, { timestamp: String(NOW - 999), signature: 'a'.repeat(40) });
    expect(refusal(() => verifyWeComCallback(forgedStale, options))).toBe('bad_signature');
    const tight = { ...options, maxSkewSeconds: 5 };
    expect(refusal(() => verifyWeComCallback(post(encrypted, { timestamp: String(NOW - 6) }), tight))).toBe(
      'stale_timestamp',
    );
  });

  it('refuses a message for another corp id', () => {
    const other = encrypt(MESSAGE, { corpId: 'ww9999999999999999' });
    expect(refusal(() => verifyWeComCallback(post(other), options))).toBe('corp_id_mismatch');
    expect(
      refusal(() => verifyWeComCallback(post(encrypt(MESSAGE)), { ...options, corpId: 'ww0123456789abcde' })),
    ).toBe('corp_id_mismatch');
  });

  it('refuses bad padding and broken layouts, even when signed', () => {
    const badPads: ((n: number) => Buffer)[] = [
      (n) => Buffer.alloc(n, 0),
      (n) => Buffer.concat([Buffer.alloc(n - 1, n), Buffer.from([n === 32 ? 1 : n + 1])]),
      (n) => Buffer.concat([Buffer.from([n ^ 0xff]), Buffer.alloc(n - 1, n)]),
      (n) => Buffer.alloc(n, 33),
    ];
    for (const pad of badPads) {
      expect(refusal(() => verifyWeComCallback(post(encrypt(MESSAGE, { pad })), options))).toBe(
        'decrypt_failed',
      );
    }
    for (const broken of [
      'not base64!',
      Buffer.alloc(24).toString('base64'),
      'QUJD',
      `${encrypt(MESSAGE)}=`,
    ]) {
      expect(
        refusal(() => verifyWeComCallback(post(broken), options)),
        broken,
      ).toBe('decrypt_failed');
    }
  });

  it('names missing and malformed query parameters and bodies', () => {
    const encrypted = encrypt(MESSAGE);
    const good = post(encrypted);
    const without = (name: string) => {
      const url = new URL(good.url);
      url.searchParams.delete(name);
      return { ...good, url: url.toString() };
    };
    expect(refusal(() => verifyWeComCallback(without('msg_signature'), options))).toBe('missing_signature');
    expect(refusal(() => verifyWeComCallback(without('timestamp'), options))).toBe('missing_timestamp');
    expect(refusal(() => verifyWeComCallback(without('nonce'), options))).toBe('malformed_request');
    expect(refusal(() => verifyWeComCallback(post(encrypted, { signature: 'x'.repeat(40) }), options))).toBe(
      'malformed_signature',
    );
    expect(refusal(() => verifyWeComCallback({ ...good, method: 'DELETE' }, options))).toBe(
      'malformed_request',
    );
    for (const body of [
      '<xml></xml>',
      '<xml><Encrypt>a</Encrypt><Encrypt>b</Encrypt></xml>',
      '<xml><Encrypt>',
    ]) {
      const req = { ...good, body: new TextEncoder().encode(body) };
      expect(
        refusal(() => verifyWeComCallback(req, options)),
        body,
      ).toBe('malformed_body');
    }
    expect(refusal(() => verifyWeComCallback({ ...good, body: new Uint8Array([0x3c, 0xff]) }, options))).toBe(
      'malformed_body',
    );
  });

  it('throws invalid_argument for unusable options', () => {
    const req = post(encrypt(MESSAGE));
    for (const bad of [
      { ...options, encodingAesKey: SECRETS.encodingAesKey.slice(1) },
      { ...options, encodingAesKey: `${SECRETS.encodingAesKey.slice(1)}-` },
      { ...options, token: '' },
      { ...options, corpId: undefined },
      { ...options, now: -1 },
    ]) {
      expect(() => verifyWeComCallback(req, bad as typeof options)).toThrow(
        expect.objectContaining({ code: 'invalid_argument' }),
      );
    }
  });

  it('refuses any single-byte change of the ciphertext or the signature', () => {
    const encrypted = encrypt(MESSAGE);
    const signature = sign(SECRETS.token, String(NOW), '1372623149', encrypted);
    const base64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const hex = '0123456789abcdef';
    fc.assert(
      fc.property(fc.boolean(), fc.nat(), fc.nat(), (inCiphertext, position, pick) => {
        const text = inCiphertext ? encrypted : signature;
        const alphabet = inCiphertext ? base64 : hex;
        const index = position % text.length;
        const replacement = alphabet.replace(text[index]!, '')[pick % (alphabet.length - 1)]!;
        const changed = text.slice(0, index) + replacement + text.slice(index + 1);
        const req = inCiphertext ? post(changed, { signature }) : post(encrypted, { signature: changed });
        expect(refusal(() => verifyWeComCallback(req, options))).toBe('bad_signature');
      }),
      { numRuns: 300 },
    );
  });
});

describe('encryptWeComReply', () => {
  it('encrypts a reply that decrypts with node:crypto directly and is signed as documented', () => {
    const random = new Uint8Array(16).fill(9);
    const reply = encryptWeComReply(MESSAGE, { ...SECRETS, timestamp: NOW, nonce: 'n0nce', random });
    expect(reply.timestamp).toBe(String(NOW));
    expect(reply.msgSignature).toBe(sign(SECRETS.token, String(NOW), 'n0nce', reply.encrypt));
    const decipher = createDecipheriv('aes-256-cbc', AES_KEY, AES_KEY.subarray(0, 16)).setAutoPadding(false);
    const plain = Buffer.concat([decipher.update(Buffer.from(reply.encrypt, 'base64')), decipher.final()]);
    expect(plain.length % 32).toBe(0);
    const n = plain[plain.length - 1]!;
    expect(plain.subarray(plain.length - n).every((b) => b === n)).toBe(true);
    expect(plain.subarray(0, 16)).toEqual(Buffer.from(random));
    const length = plain.readUInt32BE(16);
    expect(plain.subarray(20, 20 + length).toString('utf8')).toBe(MESSAGE);
    expect(plain.subarray(20 + length, plain.length - n).toString()).toBe(SECRETS.corpId);
    expect(reply.xml).toBe(
      `<xml><Encrypt><![CDATA[${reply.encrypt}]]></Encrypt><MsgSignature><![CDATA[${reply.msgSignature}]]></MsgSignature>` +
        `<TimeStamp>${NOW}</TimeStamp><Nonce><![CDATA[n0nce]]></Nonce></xml>`,
    );
  });

  it('round-trips through verifyWeComCallback, whatever the message', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        (message, random) => {
          const reply = encryptWeComReply(message, { ...SECRETS, random, timestamp: NOW });
          const req: EdgeRequest = {
            method: 'POST',
            url: `${CALLBACK}?${query({ msg_signature: reply.msgSignature, timestamp: reply.timestamp, nonce: reply.nonce })}`,
            headers: new Headers(),
            body: new TextEncoder().encode(reply.xml),
          };
          expect(verifyWeComCallback(req, options)).toEqual({
            kind: 'message',
            message,
            timestamp: NOW,
            nonce: reply.nonce,
          });
        },
      ),
      { numRuns: 100 },
    );
  });

  it('draws a fresh nonce and random bytes when none are given', () => {
    const a = encryptWeComReply(MESSAGE, SECRETS);
    const b = encryptWeComReply(MESSAGE, SECRETS);
    expect(a.nonce).toMatch(/^[0-9]{10}$/);
    expect(a.encrypt).not.toBe(b.encrypt);
  });

  it('throws invalid_argument for unusable options', () => {
    for (const bad of [
      { ...SECRETS, nonce: 'a]]>b' },
      { ...SECRETS, nonce: '' },
      { ...SECRETS, random: new Uint8Array(15) },
      { ...SECRETS, timestamp: 1.5e300 },
      { ...SECRETS, encodingAesKey: 'short' },
    ]) {
      expect(() => encryptWeComReply(MESSAGE, bad)).toThrow(
        expect.objectContaining({ code: 'invalid_argument' }),
      );
    }
    expect(() => encryptWeComReply('\uD800', SECRETS)).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
    expect(() => encryptWeComReply(42 as unknown as string, SECRETS)).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
  });
});
