import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { webhookDeliverBody, webhookSignature } from './http-webhook-agent-connector.js';

const meta = {
  dispatch_id: 'd-1',
  sent_at: 1767225600000,
  origin: { skill_name: 'triage', trigger_kind: 'cron' },
  event_type: 'alert',
} as const;

describe('webhookDeliverBody', () => {
  it('writes agent_id first, then the payload keys in order, non-ASCII raw', () => {
    const body = webhookDeliverBody('perry', { kind: 'augment', content: 'héllo "x"\n☕', meta });
    expect(body).toBe(
      '{"agent_id":"perry","kind":"augment","content":"héllo \\"x\\"\\n☕","meta":{"dispatch_id":"d-1",' +
        '"sent_at":1767225600000,"origin":{"skill_name":"triage","trigger_kind":"cron"},"event_type":"alert"}}',
    );
  });

  it('lets a payload agent_id override the first one in place and omits undefined fields', () => {
    const body = webhookDeliverBody('perry', {
      kind: 'augment',
      agent_id: 'mallory',
      content: 'x',
      note: undefined,
    });
    expect(body).toBe('{"agent_id":"mallory","kind":"augment","content":"x"}');
  });

  it('puts the payload keys in their own order, not the contract order', () => {
    expect(webhookDeliverBody('a', { meta: { dispatch_id: 'x' }, content: 'c', kind: 'augment' })).toBe(
      '{"agent_id":"a","meta":{"dispatch_id":"x"},"content":"c","kind":"augment"}',
    );
  });
});

describe('webhookSignature', () => {
  it('matches a fixed HMAC computed independently (Python hmac)', () => {
    const body = webhookDeliverBody('perry', { kind: 'augment', content: 'héllo "x"\n☕', meta });
    expect(webhookSignature('top-secret', body)).toBe(
      'sha256=6639b1bf931eba0616f59a8735f71f82b9b2540d8df094e361cb679d94014bd8',
    );
  });

  it('is the RFC 4231 test case 2 HMAC for "Jefe"', () => {
    expect(webhookSignature('Jefe', 'what do ya want for nothing?')).toBe(
      'sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('equals node:crypto HMAC-SHA256 over the UTF-8 body for any strings', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc.string({ unit: 'binary' }),
        fc.string(),
        (secret, content, agent) => {
          const body = webhookDeliverBody(agent, { kind: 'augment', content, meta });
          const expected = createHmac('sha256', secret).update(body, 'utf8').digest('hex');
          expect(webhookSignature(secret, body)).toBe(`sha256=${expected}`);
          expect(JSON.parse(body)).toEqual({ agent_id: agent, kind: 'augment', content, meta });
        },
      ),
      { numRuns: 100 },
    );
  });
});
