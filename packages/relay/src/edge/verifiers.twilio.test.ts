import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type EdgeRequest, verifyTwilioWebhook } from './verifiers.js';
import { flipByte, refusal, utf8 } from './verifiers.test-support.js';

const TOKEN = '12345';
const URL_ = 'https://mycompany.com/myapp.php?foo=1&bar=2';
/** The parameters of Twilio's published validator examples (twilio-csharp and twilio-php tests). */
const PARAMS: [string, string][] = [
  ['CallSid', 'CA1234567890ABCDE'],
  ['Caller', '+14158675309'],
  ['Digits', '1234'],
  ['From', '+14158675309'],
  ['To', '+18005551212'],
];

/** The documented algorithm, written out plainly: URL, then name+value of the params sorted by name. */
function plainSignature(url: string, params: readonly [string, string][], token = TOKEN): string {
  const sorted = [...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const data = url + sorted.map(([name, value]) => name + value).join('');
  return createHmac('sha1', token).update(data).digest('base64');
}

function formBody(params: readonly [string, string][]): Uint8Array {
  return utf8(new URLSearchParams(params).toString());
}

function request(url: string, body: Uint8Array, signature?: string, contentType?: string): EdgeRequest {
  const headers = new Headers();
  if (contentType !== undefined) headers.set('content-type', contentType);
  if (signature !== undefined) headers.set('x-twilio-signature', signature);
  return { method: body.length > 0 ? 'POST' : 'GET', url, headers, body };
}

const FORM = 'application/x-www-form-urlencoded';
const options = { authToken: TOKEN };

describe('verifyTwilioWebhook', () => {
  it("accepts Twilio's published example vectors", () => {
    expect(plainSignature(URL_, PARAMS)).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
    const hook = verifyTwilioWebhook(
      request(URL_, formBody(PARAMS), 'RSOYDt4T1cUTdK1PDd93/VVr8B8=', FORM),
      options,
    );
    expect(hook).toMatchObject({ kind: 'form', params: PARAMS, signedUrl: URL_ });
    // The example of twilio.com/docs/usage/security (caller +14158675310).
    const docs = PARAMS.map(([k, v]): [string, string] => [k, v.replace('675309', '675310')]);
    const fromDocs = request(URL_, formBody(docs), 'GvWf1cFY/Q7PnoempGyD5oXAezc=', FORM);
    expect(verifyTwilioWebhook(fromDocs, options).kind).toBe('form');
  });

  it('tries the URL without and with its port, as Twilio signs either', () => {
    const cases: [url: string, signedUrl: string][] = [
      ['https://mycompany.com:1234/myapp.php?foo=1&bar=2', URL_],
      [
        'https://mycompany.com:1234/myapp.php?foo=1&bar=2',
        'https://mycompany.com:1234/myapp.php?foo=1&bar=2',
      ],
      [URL_, 'https://mycompany.com:443/myapp.php?foo=1&bar=2'],
      ['http://mycompany.com/myapp.php?foo=1&bar=2', 'http://mycompany.com:80/myapp.php?foo=1&bar=2'],
      ['https://mycompany.com:443/myapp.php?foo=1&bar=2', URL_],
      ['https://[::1]:8443/hook', 'https://[::1]/hook'],
      ['https://u:p@host.example/hook', 'https://u:p@host.example:443/hook'],
    ];
    for (const [url, signedUrl] of cases) {
      const hook = verifyTwilioWebhook(
        request(url, formBody(PARAMS), plainSignature(signedUrl, PARAMS), FORM),
        options,
      );
      expect(hook.signedUrl, url).toBe(signedUrl);
    }
    const otherPort = request(
      URL_,
      formBody(PARAMS),
      plainSignature('https://mycompany.com:8443/myapp.php?foo=1&bar=2', PARAMS),
      FORM,
    );
    expect(refusal(() => verifyTwilioWebhook(otherPort, options))).toBe('bad_signature');
  });

  it('signs the URL exactly as written: no case folding, no re-encoding', () => {
    const url = 'https://MyCompany.com/a%2Fb?x=%7e&y=a+b';
    const signature = plainSignature(url, PARAMS);
    expect(verifyTwilioWebhook(request(url, formBody(PARAMS), signature, FORM), options).signedUrl).toBe(url);
    const normalized = request('https://mycompany.com/a%2Fb?x=%7e&y=a+b', formBody(PARAMS), signature, FORM);
    expect(refusal(() => verifyTwilioWebhook(normalized, options))).toBe('bad_signature');
  });

  it('drops repeated equal values and sorts the values of a repeated name', () => {
    const repeated: [string, string][] = [
      ['Sid', 'CA123'],
      ['SidAccount', 'AC123'],
      ['Digits', '5678'],
      ['Digits', '1234'],
      ['Digits', '1234'],
    ];
    // twilio-php's published vector for these parameters.
    const hook = verifyTwilioWebhook(
      request(URL_, formBody(repeated), 'IK+Dwps556ElfBT0I3Rgjkr1wJU=', FORM),
      options,
    );
    expect(hook).toMatchObject({ kind: 'form', params: repeated });
    const inOrder = createHmac('sha1', TOKEN)
      .update(`${URL_}Digits5678Digits1234Digits1234SidCA123SidAccountAC123`)
      .digest('base64');
    expect(
      refusal(() => verifyTwilioWebhook(request(URL_, formBody(repeated), inOrder, FORM), options)),
    ).toBe('bad_signature');
  });

  it('decodes form values before signing them (+, escapes, UTF-8) and keeps empty ones', () => {
    const params: [string, string][] = [
      ['Body', 'Grüße & 世界 + 1 = 2'],
      ['ProfileName', ''],
      ['From', 'whatsapp:+4917612345678'],
    ];
    const body = formBody(params);
    expect(Buffer.from(body).toString()).toContain('%2B');
    const hook = verifyTwilioWebhook(
      request(URL_, body, plainSignature(URL_, params), `${FORM}; charset=utf-8`),
      options,
    );
    expect(hook).toMatchObject({ kind: 'form', params });
  });

  it('signs the URL alone for a bodiless request', () => {
    const url = 'https://edge.example.com/voice?CallSid=CA1&From=%2B49';
    expect(
      verifyTwilioWebhook(request(url, new Uint8Array(), plainSignature(url, [])), options),
    ).toMatchObject({
      kind: 'form',
      params: [],
    });
  });

  it('verifies JSON bodies through the signed bodySHA256 query parameter', () => {
    const body = utf8('{"property": "value", "boolean": true}');
    const hash = createHash('sha256').update(body).digest('hex');
    expect(hash).toBe('0a1ff7634d9ab3b95db5c9a2dfe9416e41502b283a80c7cf19632632f96e6620');
    const url = `${URL_}&bodySHA256=${hash}`;
    // twilio-php's published signature for this URL and no parameters.
    const hook = verifyTwilioWebhook(
      request(url, body, 'a9nBmqA0ju/hNViExpshrM61xv4=', 'application/json'),
      options,
    );
    expect(hook).toMatchObject({ kind: 'json', json: { property: 'value', boolean: true }, signedUrl: url });
    const tampered = request(url, flipByte(body, 5, 1), 'a9nBmqA0ju/hNViExpshrM61xv4=', 'application/json');
    expect(refusal(() => verifyTwilioWebhook(tampered, options))).toBe('body_hash_mismatch');
    const otherHash = `${URL_}&bodySHA256=${'0'.repeat(64)}`;
    const signedOther = request(otherHash, body, plainSignature(otherHash, []), 'application/json');
    expect(refusal(() => verifyTwilioWebhook(signedOther, options))).toBe('body_hash_mismatch');
    const notJson = utf8('x=1');
    const notJsonUrl = `${URL_}&bodySHA256=${createHash('sha256').update(notJson).digest('hex')}`;
    const signedNotJson = request(notJsonUrl, notJson, plainSignature(notJsonUrl, []), 'application/json');
    expect(refusal(() => verifyTwilioWebhook(signedNotJson, options))).toBe('malformed_body');
  });

  it('refuses bodies no signature covers', () => {
    const body = utf8('{"a":1}');
    for (const type of ['application/json', 'text/plain', undefined]) {
      expect(
        refusal(() => verifyTwilioWebhook(request(URL_, body, plainSignature(URL_, []), type), options)),
      ).toBe('malformed_body');
    }
  });

  it('refuses tampered, forged, missing and malformed signatures', () => {
    const body = formBody(PARAMS);
    const signature = plainSignature(URL_, PARAMS);
    expect(
      refusal(() => verifyTwilioWebhook(request(URL_, body, signature, FORM), { authToken: '54321' })),
    ).toBe('bad_signature');
    expect(refusal(() => verifyTwilioWebhook(request(`${URL_}&x=1`, body, signature, FORM), options))).toBe(
      'bad_signature',
    );
    expect(refusal(() => verifyTwilioWebhook(request(URL_, body, undefined, FORM), options))).toBe(
      'missing_signature',
    );
    expect(refusal(() => verifyTwilioWebhook(request(URL_, body, '', FORM), options))).toBe(
      'missing_signature',
    );
    const sha256Length = createHmac('sha256', TOKEN).update(URL_).digest('base64');
    for (const bad of [
      'FAIL',
      signature.slice(0, -1),
      `${signature.slice(0, -2)}-=`,
      sha256Length,
      `${signature.slice(0, 4)} ${signature.slice(5)}`,
    ]) {
      expect(
        refusal(() => verifyTwilioWebhook(request(URL_, body, bad, FORM), options)),
        bad,
      ).toBe('malformed_signature');
    }
  });

  it('throws invalid_argument for unusable options and requests', () => {
    const req = request(URL_, formBody(PARAMS), plainSignature(URL_, PARAMS), FORM);
    for (const [r, o] of [
      [req, { authToken: '' }],
      [req, {}],
      [req, 'token'],
      [{ ...req, url: 'mycompany.com/myapp.php' }, options],
      [{ ...req, body: [1, 2] }, options],
      [{ ...req, method: '' }, options],
    ] as const) {
      expect(() => verifyTwilioWebhook(r as EdgeRequest, o as typeof options)).toThrow(
        expect.objectContaining({ code: 'invalid_argument' }),
      );
    }
  });

  it('refuses any single-byte change of a JSON body or of the signature', () => {
    const body = utf8('{"EventType":"onMessageAdded","Body":"hé","Index":3}');
    const url = `https://edge.example.com/conversations?bodySHA256=${createHash('sha256').update(body).digest('hex')}`;
    const signature = new Uint8Array(Buffer.from(plainSignature(url, []), 'base64'));
    fc.assert(
      fc.property(fc.boolean(), fc.nat(), fc.integer({ min: 1, max: 255 }), (inBody, position, mask) => {
        const req = inBody
          ? request(
              url,
              flipByte(body, position % body.length, mask),
              Buffer.from(signature).toString('base64'),
            )
          : request(url, body, Buffer.from(flipByte(signature, position % 20, mask)).toString('base64'));
        expect(refusal(() => verifyTwilioWebhook(req, options))).toBe(
          inBody ? 'body_hash_mismatch' : 'bad_signature',
        );
      }),
      { numRuns: 300 },
    );
  });

  it('refuses any single-byte change of a form body except those its decoding forgives (+ for space, hex case)', () => {
    const params: [string, string][] = [
      ['Body', 'hello world'],
      ['From', '+4917612345678'],
      ['NumMedia', '0'],
    ];
    const body = formBody(params);
    const signature = plainSignature(URL_, params);
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 255 }), (position, mask) => {
        const index = position % body.length;
        const changed = flipByte(body, index, mask);
        fc.pre(!(body[index] === 0x2b && changed[index] === 0x20));
        // `%2B` and `%2b` decode alike: a hex digit of a percent escape may change case.
        const inEscape = body[index - 1] === 0x25 || body[index - 2] === 0x25;
        const sameHexLetter =
          /^[a-f]$/i.test(String.fromCharCode(body[index]!)) && (body[index]! ^ changed[index]!) === 0x20;
        fc.pre(!(inEscape && sameHexLetter));
        expect(refusal(() => verifyTwilioWebhook(request(URL_, changed, signature, FORM), options))).toBe(
          'bad_signature',
        );
      }),
      { numRuns: 300 },
    );
    const plusToSpace = utf8(Buffer.from(body).toString().replace('+', ' '));
    expect(verifyTwilioWebhook(request(URL_, plusToSpace, signature, FORM), options).kind).toBe('form');
    const lowerHex = utf8(Buffer.from(body).toString().replace('%2B', '%2b'));
    expect(verifyTwilioWebhook(request(URL_, lowerHex, signature, FORM), options).kind).toBe('form');
  });
});
