import { describe, expect, it } from 'vitest';
import { createDeliveryMeta } from './create-delivery-meta.js';

function counter() {
  let n = 0;
  return () => `dispatch-${++n}`;
}

describe('createDeliveryMeta', () => {
  it('fills dispatch_id and sent_at from the injected sources, trigger_kind defaulting to inline', () => {
    const meta = createDeliveryMeta(
      { skill_name: 'triage' },
      { now: () => 1_767_225_600_123, newDispatchId: () => 'id-1' },
    );
    expect(meta).toEqual({
      dispatch_id: 'id-1',
      sent_at: 1_767_225_600_123,
      origin: { skill_name: 'triage', trigger_kind: 'inline' },
    });
  });

  it('writes fields in the reference order with optional ones absent', () => {
    const meta = createDeliveryMeta(
      {
        correlation_id: 'c-1',
        event_type: 'alert',
        caller_agent_id: 'cc',
        trigger_kind: 'cron',
        entry_skill_name: 'root',
        skill_name: 'leaf',
      },
      { now: () => 1, newDispatchId: () => 'd' },
    );
    expect(JSON.stringify(meta)).toBe(
      '{"dispatch_id":"d","sent_at":1,"origin":{"skill_name":"leaf","entry_skill_name":"root","trigger_kind":"cron","caller_agent_id":"cc"},"event_type":"alert","correlation_id":"c-1"}',
    );
    const bare = createDeliveryMeta(
      { skill_name: 's', caller_agent_id: undefined },
      { now: () => 1, newDispatchId: () => 'd' },
    );
    expect(Object.keys(bare)).toEqual(['dispatch_id', 'sent_at', 'origin']);
    expect(Object.keys(bare.origin)).toEqual(['skill_name', 'trigger_kind']);
  });

  it('keeps an unknown trigger_kind, even the empty string, as the reference runtime passes it through', () => {
    const source = { now: () => 1, newDispatchId: () => 'd' };
    const meta = createDeliveryMeta({ skill_name: 's', trigger_kind: 'session' }, source);
    expect(JSON.stringify(meta)).toBe(
      '{"dispatch_id":"d","sent_at":1,"origin":{"skill_name":"s","trigger_kind":"session"}}',
    );
    expect(createDeliveryMeta({ skill_name: 's', trigger_kind: '' }, source).origin.trigger_kind).toBe('');
    expect(createDeliveryMeta({ skill_name: 's', trigger_kind: undefined }, source).origin.trigger_kind).toBe(
      'inline',
    );
  });

  it('drops entry_skill_name when it equals skill_name', () => {
    const meta = createDeliveryMeta({ skill_name: 'a', entry_skill_name: 'a' });
    expect(Object.hasOwn(meta.origin, 'entry_skill_name')).toBe(false);
  });

  it('prefers the per-emit event_type over the skill-wide one', () => {
    expect(createDeliveryMeta({ skill_name: 's', event_type: 'kw', skill_event_type: 'fm' }).event_type).toBe(
      'kw',
    );
    expect(createDeliveryMeta({ skill_name: 's', skill_event_type: 'fm' }).event_type).toBe('fm');
    expect(Object.hasOwn(createDeliveryMeta({ skill_name: 's' }), 'event_type')).toBe(false);
  });

  it('gives every call a fresh id and reads the clock at each call', () => {
    let clock = 100;
    const source = { now: () => clock, newDispatchId: counter() };
    const first = createDeliveryMeta({ skill_name: 's' }, source);
    clock = 250;
    const second = createDeliveryMeta({ skill_name: 's' }, source);
    expect([first.dispatch_id, first.sent_at]).toEqual(['dispatch-1', 100]);
    expect([second.dispatch_id, second.sent_at]).toEqual(['dispatch-2', 250]);
  });

  it('defaults to a lowercase v4 UUID and the wall clock in ms', () => {
    const before = Date.now();
    const meta = createDeliveryMeta({ skill_name: 's' });
    expect(meta.dispatch_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(meta.sent_at).toBeGreaterThanOrEqual(before);
    expect(meta.sent_at).toBeLessThanOrEqual(Date.now());
    expect(createDeliveryMeta({ skill_name: 's' }).dispatch_id).not.toBe(meta.dispatch_id);
  });

  it('returns a frozen envelope', () => {
    const meta = createDeliveryMeta({ skill_name: 's' });
    expect(Object.isFrozen(meta)).toBe(true);
    expect(Object.isFrozen(meta.origin)).toBe(true);
  });

  it('refuses invalid input and invalid sources with typed errors', () => {
    const bad = (init: unknown) => () => createDeliveryMeta(init as { skill_name: string });
    expect(bad(undefined)).toThrow(expect.objectContaining({ code: 'invalid_contract_value' }));
    expect(bad({})).toThrow('invalid DeliveryMetaInit at $.skill_name');
    expect(bad({ skill_name: 's', trigger_kind: 7 })).toThrow('invalid DeliveryMetaInit at $.trigger_kind');
    expect(bad({ skill_name: 's', trigger_kind: null })).toThrow(
      'invalid DeliveryMetaInit at $.trigger_kind',
    );
    expect(bad({ skill_name: 's', caller_agent_id: null })).toThrow('$.caller_agent_id');
    expect(() => createDeliveryMeta({ skill_name: 's' }, { now: () => Number.NaN })).toThrow(
      'invalid DeliveryMeta at $.sent_at',
    );
    expect(() => createDeliveryMeta({ skill_name: 's' }, { newDispatchId: () => '' })).toThrow(
      'invalid DeliveryMeta at $.dispatch_id',
    );
  });
});
