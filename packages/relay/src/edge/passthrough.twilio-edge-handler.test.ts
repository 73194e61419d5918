import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTwilioEdgeHandler, EMPTY_TWIML, type TwilioEdgeHandlerOptions } from './passthrough.js';
import { forwardedText, RecordingRelay, tableResolver } from './passthrough.test-support.js';

const AUTH_TOKEN = 'twilio-auth-token';
const URL_ = 'https://edge.example.com/twilio/sms';
const FORM = 'AccountSid=AC1&From=%2B15550001&To=%2B15559999&Body=hi+there+%E2%9C%93&MessageSid=SM1';

/** Twilio's signature: HMAC-SHA1 of the URL and the sorted `name` + `value` pairs. */
function twilioSignature(url: string, form: string): string {
  const params = [...new URLSearchParams(form)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const text = url + params.map(([name, value]) => name + value).join('');
  return createHmac('sha1', AUTH_TOKEN).update(text, 'utf8').digest('base64');
}

function signedRequest(form: string, signature = twilioSignature(URL_, form)): Request {
  return new Request(URL_, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': signature,
      authorization: 'Basic dXNlcjpwYXNz',
      'i-twilio-idempotency-token': 'idem-1',
      'user-agent': 'TwilioProxy/1.1',
    },
    body: form,
  });
}

function setup(overrides: Partial<TwilioEdgeHandlerOptions> = {}) {
  const relay = new RecordingRelay();
  const { resolver, lookups } = tableResolver({ 'twilio:+15559999': 'tenant-t' });
  const handler = createTwilioEdgeHandler({
    authToken: AUTH_TOKEN,
    tenantOf: resolver,
    server: relay,
    ...overrides,
  });
  return { relay, lookups, handler };
}

describe('createTwilioEdgeHandler', () => {
  it('forwards the verified bytes, keyed on the called number, and answers empty TwiML', async () => {
    const { relay, lookups, handler } = setup();
    const response = await handler(signedRequest(FORM));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    expect(await response.text()).toBe(EMPTY_TWIML);
    expect(lookups).toEqual(['twilio:+15559999']);
    expect(relay.forwards).toEqual([
      {
        tenant: 'tenant-t',
        forward: {
          platform: 'twilio',
          botId: 'AC1',
          method: 'POST',
          path: '/twilio/sms',
          headers: [
            ['content-type', 'application/x-www-form-urlencoded'],
            ['user-agent', 'TwilioProxy/1.1'],
            ['i-twilio-idempotency-token', 'idem-1'],
          ],
          bodyB64: Buffer.from(FORM).toString('base64'),
        },
      },
    ]);
    expect(forwardedText(relay.forwards[0]!.forward)).toBe(FORM);
    expect(relay.bindings).toEqual([]);
  });

  it('refuses a bad signature with 401 and an unknown number with 404', async () => {
    const { relay, handler } = setup();
    const forged = await handler(signedRequest(FORM, twilioSignature(URL_, `${FORM}&x=1`)));
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ error: 'unauthorized' });
    const other = FORM.replace('To=%2B15559999', 'To=%2B15558888');
    const unknown = await handler(signedRequest(other));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: 'unknown_tenant' });
    expect(relay.calls).toEqual([]);
  });

  it('uses routeKeysOf, botId and profileOf when given', async () => {
    const { relay, lookups, handler } = setup({
      routeKeysOf: () => ['nope', '+15559999'],
      botId: 'number-pool',
      profileOf: () => 'sms',
    });
    expect((await handler(signedRequest(FORM))).status).toBe(200);
    expect(lookups).toEqual(['twilio:nope', 'twilio:+15559999']);
    expect(relay.forwards[0]?.forward).toMatchObject({ botId: 'number-pool', profile: 'sms' });
  });

  it('answers PUT with 405 and refuses unusable options', async () => {
    const { handler } = setup();
    expect((await handler(new Request(URL_, { method: 'PUT', body: FORM }))).status).toBe(405);
    const relay = new RecordingRelay();
    expect(() => createTwilioEdgeHandler({ authToken: '', tenantOf: () => null, server: relay })).toThrow(
      expect.objectContaining({ code: 'edge_passthrough_invalid_argument' }),
    );
    expect(() =>
      createTwilioEdgeHandler({
        authToken: 'x',
        tenantOf: () => null,
        server: relay,
        routeKeysOf: 1 as never,
      }),
    ).toThrow(expect.objectContaining({ code: 'edge_passthrough_invalid_argument' }));
  });
});
