import { describe, expect, it } from 'vitest';
import { sanitiseWeComMessage } from './sanitisers.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('sanitiseWeComMessage', () => {
  it('forwards a message as it is and reads its text fields', () => {
    const xml =
      '<xml><ToUserName><![CDATA[corp1]]></ToUserName><FromUserName><![CDATA[zhang]]></FromUserName>' +
      '<CreateTime>1348831860</CreateTime><MsgType><![CDATA[text]]></MsgType>' +
      '<Content><![CDATA[你好 <b>&amp;</b>]]></Content><AgentID>1000002</AgentID>' +
      '<ScanCodeInfo><ScanType>qrcode</ScanType></ScanCodeInfo><Empty/><Esc>a &lt; b &#x4e2d;</Esc></xml>';
    const { forwardedBody, fields, removed } = sanitiseWeComMessage(xml);
    expect(text(forwardedBody)).toBe(xml);
    expect(removed).toEqual([]);
    expect(Object.fromEntries(fields)).toEqual({
      ToUserName: 'corp1',
      FromUserName: 'zhang',
      CreateTime: '1348831860',
      MsgType: 'text',
      Content: '你好 <b>&amp;</b>',
      AgentID: '1000002',
      Empty: '',
      Esc: 'a < b 中',
    });
  });

  it('cuts suite credentials out of the text and the fields', () => {
    const xml =
      '<?xml version="1.0"?>\n<xml>\n  <SuiteId><![CDATA[suite1]]></SuiteId>\n' +
      '  <InfoType><![CDATA[suite_ticket]]></InfoType>\n  <SuiteTicket><![CDATA[ticket-secret]]></SuiteTicket>\n' +
      '  <AuthCode>code-secret</AuthCode>\n</xml>';
    const { forwardedBody, fields, removed } = sanitiseWeComMessage(xml);
    const out = text(forwardedBody);
    expect(out).not.toContain('ticket-secret');
    expect(out).not.toContain('code-secret');
    expect(out).toBe(
      '<?xml version="1.0"?>\n<xml>\n  <SuiteId><![CDATA[suite1]]></SuiteId>\n' +
        '  <InfoType><![CDATA[suite_ticket]]></InfoType>\n  \n  \n</xml>',
    );
    expect(removed).toEqual(['SuiteTicket', 'AuthCode']);
    expect(fields.has('SuiteTicket')).toBe(false);
    expect(fields.get('InfoType')).toBe('suite_ticket');
  });

  it('refuses text without a readable root', () => {
    expect(() => sanitiseWeComMessage('plain text')).toThrow(
      expect.objectContaining({ code: 'sanitiser_malformed_payload' }),
    );
    expect(() => sanitiseWeComMessage('<xml><A>1</A>')).toThrow(
      expect.objectContaining({ code: 'sanitiser_malformed_payload' }),
    );
    expect(() => sanitiseWeComMessage('<xml><A><![CDATA[x</A></xml>')).toThrow(
      expect.objectContaining({ code: 'sanitiser_malformed_payload' }),
    );
    expect(() => sanitiseWeComMessage(1 as unknown as string)).toThrow(
      expect.objectContaining({ code: 'sanitiser_invalid_argument' }),
    );
  });
});
