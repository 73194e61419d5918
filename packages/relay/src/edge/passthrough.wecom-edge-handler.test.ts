import { describe, expect, it } from 'vitest';
import { createWeComEdgeHandler, WECOM_ACK, type WeComEdgeHandlerOptions } from './passthrough.js';
import { forwardedText, RecordingRelay, tableResolver } from './passthrough.test-support.js';
import { encryptWeComReply } from './verifiers-wecom.js';

const CRYPTO = {
  token: 'wecom-token',
  encodingAesKey: 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG',
  corpId: 'ww-corp-1',
};
const NOW_S = 1_779_782_400;
const BASE = 'https://edge.example.com/wecom/callback';

function encrypted(plain: string) {
  return encryptWeComReply(plain, { ...CRYPTO, timestamp: NOW_S, nonce: 'n0nce' });
}

function query(signature: string): string {
  return `msg_signature=${signature}&timestamp=${NOW_S}&nonce=n0nce`;
}

function setup(overrides: Partial<WeComEdgeHandlerOptions> = {}) {
  const relay = new RecordingRelay();
  const { resolver, lookups } = tableResolver({ 'wecom:ww-corp-1': 'tenant-w' });
  const handler = createWeComEdgeHandler({
    ...CRYPTO,
    tenantOf: resolver,
    server: relay,
    now: () => NOW_S * 1000,
    ...overrides,
  });
  return { relay, lookups, handler };
}

const MESSAGE =
  '<xml><ToUserName><![CDATA[ww-corp-1]]></ToUserName><FromUserName><![CDATA[zhang]]></FromUserName>' +
  '<CreateTime>1779782400</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[你好]]></Content>' +
  '<MsgId>1234</MsgId><AgentID>1000002</AgentID></xml>';

function callbackPost(plain: string): Request {
  const sealed = encrypted(plain);
  const body = `<xml><ToUserName><![CDATA[ww-corp-1]]></ToUserName><Encrypt><![CDATA[${sealed.encrypt}]]></Encrypt><AgentID><![CDATA[1000002]]></AgentID></xml>`;
  return new Request(`${BASE}?${query(sealed.msgSignature)}`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml', 'user-agent': 'Mozilla/4.0' },
    body,
  });
}

describe('createWeComEdgeHandler', () => {
  it('answers the URL-verification GET with the decrypted echo and forwards nothing', async () => {
    const { relay, handler } = setup();
    const sealed = encrypted('echo-8731');
    const url = `${BASE}?${query(sealed.msgSignature)}&echostr=${encodeURIComponent(sealed.encrypt)}`;
    const response = await handler(new Request(url));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe('echo-8731');
    expect(relay.calls).toEqual([]);
  });

  it('forwards the decrypted XML of a POST, routed by ToUserName, and answers success', async () => {
    const { relay, lookups, handler } = setup();
    const response = await handler(callbackPost(MESSAGE));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(WECOM_ACK);
    expect(lookups).toEqual(['wecom:ww-corp-1']);
    expect(relay.forwards).toEqual([
      {
        tenant: 'tenant-w',
        forward: {
          platform: 'wecom',
          botId: '1000002',
          method: 'POST',
          path: '/wecom/callback',
          headers: [
            ['content-type', 'application/xml; charset=utf-8'],
            ['user-agent', 'Mozilla/4.0'],
          ],
          bodyB64: Buffer.from(MESSAGE).toString('base64'),
        },
      },
    ]);
    expect(forwardedText(relay.forwards[0]!.forward)).toBe(MESSAGE);
  });

  it('never forwards suite credentials', async () => {
    const { relay, handler } = setup();
    const ticket =
      '<xml><ToUserName><![CDATA[ww-corp-1]]></ToUserName><InfoType><![CDATA[suite_ticket]]></InfoType>' +
      '<SuiteTicket><![CDATA[ticket-secret]]></SuiteTicket></xml>';
    expect((await handler(callbackPost(ticket))).status).toBe(200);
    const text = forwardedText(relay.forwards[0]!.forward);
    expect(text).not.toContain('ticket-secret');
    expect(text).toContain('suite_ticket');
  });

  it('refuses a bad signature with 401 and an unknown corp with 404', async () => {
    const { relay, handler } = setup();
    const sealed = encrypted(MESSAGE);
    const forged = new Request(`${BASE}?${query('0'.repeat(40))}`, {
      method: 'POST',
      body: `<xml><Encrypt><![CDATA[${sealed.encrypt}]]></Encrypt></xml>`,
    });
    const refused = await handler(forged);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'unauthorized' });
    const elsewhere = await handler(callbackPost(MESSAGE.replace('ww-corp-1', 'ww-corp-2')));
    expect(elsewhere.status).toBe(404);
    expect(relay.calls).toEqual([]);
  });

  it('answers an undecryptable-as-XML message with 400 and DELETE with 405', async () => {
    const { relay, handler } = setup();
    expect((await handler(callbackPost('not xml'))).status).toBe(400);
    expect((await handler(new Request(BASE, { method: 'DELETE' }))).status).toBe(405);
    expect(relay.calls).toEqual([]);
  });
});
