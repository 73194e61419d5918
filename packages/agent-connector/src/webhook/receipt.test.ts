import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDeliveryReceipt } from '../contract/agent-connector.js';
import { synthesizeDeliveryReceipt } from './http-webhook-agent-connector.js';

const NOW = 1767225600000;

describe('synthesizeDeliveryReceipt', () => {
  it('keeps every field a receiver can send, in receipt order', () => {
    const receipt = synthesizeDeliveryReceipt(
      '{"warnings":["w"],"delivery_skipped":true,"session_id":"s","delivery_id":"d","delivered_at":5}',
      NOW,
    );
    expect(Object.entries(receipt)).toEqual([
      ['delivered_at', 5],
      ['delivery_id', 'd'],
      ['session_id', 's'],
      ['delivery_skipped', true],
      ['warnings', ['w']],
    ]);
  });

  it('prefers delivery_id over id over ts', () => {
    expect(synthesizeDeliveryReceipt('{"ts":"t","id":"i","delivery_id":"d"}', NOW).delivery_id).toBe('d');
    expect(synthesizeDeliveryReceipt('{"ts":"t","id":"i"}', NOW).delivery_id).toBe('i');
    expect(synthesizeDeliveryReceipt('{"ts":"t","id":null}', NOW).delivery_id).toBe('t');
  });

  it('always returns a valid DeliveryReceipt, whatever the body', () => {
    const bodies = fc.oneof(
      fc.string(),
      fc.json(),
      fc.jsonValue().map((value) => JSON.stringify(value) ?? ''),
    );
    fc.assert(
      fc.property(bodies, (text) => {
        const receipt = synthesizeDeliveryReceipt(text, NOW);
        expect(parseDeliveryReceipt(receipt)).toEqual(receipt);
      }),
      { numRuns: 300 },
    );
  });
});
