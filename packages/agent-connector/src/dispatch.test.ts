import { describe, expect, it } from 'vitest';
import type {
  AgentConnector,
  DeliveryPayload,
  DeliveryReceipt,
  WakeOpts,
  WakeReceipt,
} from './contract/agent-connector.js';
import { DeliveryFailedError } from './contract/errors.js';
import {
  createDeliveryMeta,
  dispatch,
  HOOK_WAKE_WARNING,
  NOOP_SKIP_REASON,
  NOOP_WAKE_SKIP_REASON,
} from './dispatch.js';
import { NoOpAgentConnector } from './noop.js';

type Call =
  | { readonly method: 'deliver'; readonly agent_id: string; readonly payload: DeliveryPayload }
  | { readonly method: 'wake'; readonly agent_id: string; readonly opts: WakeOpts | undefined }
  | { readonly method: 'list_agents' };

interface FakeOptions {
  readonly agents?: readonly string[] | (() => Promise<unknown>);
  readonly deliver?: () => Promise<unknown>;
  readonly wake?: () => Promise<unknown>;
}

function fake(log: Call[], options: FakeOptions = {}): AgentConnector {
  const { agents = [] } = options;
  return {
    list_agents: async () => {
      log.push({ method: 'list_agents' });
      if (typeof agents === 'function') return (await agents()) as never;
      return agents.map((agent_id) => ({ agent_id }));
    },
    deliver: async (agent_id, payload) => {
      log.push({ method: 'deliver', agent_id, payload });
      return (options.deliver ? await options.deliver() : { delivered_at: 10 }) as DeliveryReceipt;
    },
    wake: async (agent_id, opts) => {
      log.push({ method: 'wake', agent_id, opts });
      return (options.wake ? await options.wake() : { woken_at: 20, woken: true }) as WakeReceipt;
    },
    health_check: async () => true,
    request_response: async () => {
      throw new Error('not implemented');
    },
  };
}

const meta = createDeliveryMeta({ skill_name: 'triage' }, { now: () => 5, newDispatchId: () => 'd-1' });

describe('dispatch routing', () => {
  it('delivers an augment to a bare address, sharing one meta object across the broadcast', async () => {
    const a: Call[] = [];
    const b: Call[] = [];
    const result = await dispatch(
      [
        { name: 'one', connector: fake(a, { agents: ['perry'] }) },
        { name: 'two', connector: fake(b, { agents: ['perry', 'alice'] }) },
      ],
      'perry',
      'hello',
      { meta },
    );
    expect(result).toEqual({
      address: 'perry',
      route: 'deliver',
      outcomes: [
        { connector: 'one', route: 'deliver', ok: true, receipt: { delivered_at: 10 }, skipped: false },
        { connector: 'two', route: 'deliver', ok: true, receipt: { delivered_at: 10 }, skipped: false },
      ],
      listing_failures: [],
    });
    const delivered = [a[1], b[1]].map((call) => (call?.method === 'deliver' ? call.payload : undefined));
    expect(delivered[0]).toEqual({ kind: 'augment', content: 'hello', meta });
    expect(delivered[0]?.meta).toBe(meta);
    expect(delivered[1]?.meta).toBe(meta);
    expect(Object.keys(delivered[0] ?? {})).toEqual(['kind', 'content', 'meta']);
  });

  it('delivers a template with the prompt field', async () => {
    const log: Call[] = [];
    await dispatch([{ name: 'p', connector: fake(log) }], 'perry', 'do it', {
      meta,
      kind: 'template',
      claim: false,
    });
    expect(log).toEqual([
      { method: 'deliver', agent_id: 'perry', payload: { kind: 'template', prompt: 'do it', meta } },
    ]);
  });

  it('wakes a composite address with the full id and the message as context, never session_id', async () => {
    const log: Call[] = [];
    const result = await dispatch(
      [{ name: 'p', connector: fake(log, { agents: ['perry'] }) }],
      'perry@kitchen',
      'build failed',
      {
        meta,
      },
    );
    expect(result.route).toBe('wake');
    expect(log).toEqual([
      { method: 'list_agents' },
      { method: 'wake', agent_id: 'perry@kitchen', opts: { context: 'build failed' } },
    ]);
    expect(result.outcomes).toEqual([
      { connector: 'p', route: 'wake', ok: true, receipt: { woken_at: 20, woken: true }, skipped: false },
    ]);
  });

  it('wakes with empty options when the message is empty', async () => {
    const log: Call[] = [];
    await dispatch([{ name: 'p', connector: fake(log) }], 'a@b', '', { meta, claim: false });
    expect(log).toEqual([{ method: 'wake', agent_id: 'a@b', opts: {} }]);
  });
});

describe('dispatch claiming', () => {
  const claims = async (address: string, agents: readonly string[]) => {
    const log: Call[] = [];
    const result = await dispatch([{ name: 'c', connector: fake(log, { agents }) }], address, 'm', { meta });
    return result.outcomes.length === 1;
  };

  it('claims a bare address only by its exact id', async () => {
    expect(await claims('perry', ['perry'])).toBe(true);
    expect(await claims('perry', ['Perry', 'perry ', 'perry@kitchen'])).toBe(false);
  });

  it('claims a composite by the full address or the text before the first "@"', async () => {
    expect(await claims('perry@kitchen', ['perry@kitchen'])).toBe(true);
    expect(await claims('perry@kitchen', ['perry'])).toBe(true);
    expect(await claims('a@b@c', ['a'])).toBe(true);
    expect(await claims('a@b@c', ['a@b'])).toBe(false);
    expect(await claims('@s1', [''])).toBe(true);
    expect(await claims('perry@kitchen', ['kitchen'])).toBe(false);
  });

  it('asks list_agents() on every dispatch and calls nothing when nobody claims', async () => {
    const log: Call[] = [];
    const connector = fake(log, { agents: ['alice'] });
    const first = await dispatch([{ name: 'c', connector }], 'perry', 'm', { meta });
    await dispatch([{ name: 'c', connector }], 'perry', 'm', { meta });
    expect(first.outcomes).toEqual([]);
    expect(log).toEqual([{ method: 'list_agents' }, { method: 'list_agents' }]);
  });

  it('reads listed entries only for agent_id, as the reference does', async () => {
    const log: Call[] = [];
    const connector: AgentConnector = {
      ...fake(log),
      list_agents: async () => [{ agent_id: 'perry', capabilities: ['telepathy'] }] as never,
    };
    const result = await dispatch([{ name: 'c', connector }], 'perry', 'm', { meta });
    expect(result.outcomes).toHaveLength(1);
  });

  it('skips list_agents() entirely with claim: false', async () => {
    const log: Call[] = [];
    await dispatch([{ name: 'primary', connector: fake(log, { agents: [] }) }], 'perry', 'm', {
      meta,
      claim: false,
    });
    expect(log.map((c) => c.method)).toEqual(['deliver']);
  });

  it('restricts fan-out to the named connectors', async () => {
    const a: Call[] = [];
    const b: Call[] = [];
    const result = await dispatch(
      [
        { name: 'a', connector: fake(a, { agents: ['perry'] }) },
        { name: 'b', connector: fake(b, { agents: ['perry'] }) },
      ],
      'perry',
      'm',
      { meta, restrictTo: ['b', 'unknown'] },
    );
    expect(a).toEqual([]);
    expect(result.outcomes.map((o) => o.connector)).toEqual(['b']);
  });

  it('calls connectors one after another, in order', async () => {
    const order: string[] = [];
    const slow = fake([], {
      agents: ['x'],
      deliver: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push('slow');
        return { delivered_at: 1 };
      },
    });
    const quick = fake([], {
      agents: ['x'],
      deliver: async () => {
        order.push('quick');
        return { delivered_at: 1 };
      },
    });
    await dispatch(
      [
        { name: 'slow', connector: slow },
        { name: 'quick', connector: quick },
      ],
      'x',
      'm',
      { meta },
    );
    expect(order).toEqual(['slow', 'quick']);
  });
});

describe('dispatch failure collection', () => {
  it('leaves out a connector whose list_agents() throws or returns garbage, and records it', async () => {
    const log: Call[] = [];
    const result = await dispatch(
      [
        { name: 'throws', connector: fake([], { agents: () => Promise.reject(new Error('down')) }) },
        { name: 'garbage', connector: fake([], { agents: async () => ({ agent_id: 'perry' }) }) },
        { name: 'odd-entries', connector: fake([], { agents: async () => [null, 7, { id: 'perry' }] }) },
        { name: 'good', connector: fake(log, { agents: ['perry'] }) },
      ],
      'perry',
      'm',
      { meta },
    );
    expect(result.outcomes.map((o) => o.connector)).toEqual(['good']);
    expect(result.listing_failures.map((f) => [f.connector, f.message])).toEqual([
      ['throws', 'down'],
      ['garbage', 'invalid AgentDescriptor[] at $: list_agents() must resolve to an array'],
    ]);
    expect(result.listing_failures[1]?.error).toMatchObject({ code: 'invalid_contract_value' });
  });

  it('collects throws, rejections and invalid receipts without stopping the others', async () => {
    const failure = new DeliveryFailedError('HTTP 503 from http://x', {
      agent_id: 'perry',
      cause_kind: 'http_status',
      http_status: 503,
    });
    const syncThrow: AgentConnector = {
      ...fake([]),
      deliver: () => {
        throw 'plain string';
      },
    };
    const result = await dispatch(
      [
        { name: 'rejects', connector: fake([], { deliver: () => Promise.reject(failure) }) },
        { name: 'throws', connector: syncThrow },
        { name: 'bad-receipt', connector: fake([], { deliver: async () => ({ delivered_at: 'now' }) }) },
        { name: 'ok', connector: fake([]) },
      ],
      'perry',
      'm',
      { meta, claim: false },
    );
    expect(result.outcomes.map((o) => [o.connector, o.ok])).toEqual([
      ['rejects', false],
      ['throws', false],
      ['bad-receipt', false],
      ['ok', true],
    ]);
    expect(result.outcomes[0]).toEqual({
      connector: 'rejects',
      route: 'deliver',
      ok: false,
      error: failure,
      message: 'HTTP 503 from http://x',
    });
    expect(result.outcomes[1]).toMatchObject({ ok: false, error: 'plain string', message: 'plain string' });
    expect(result.outcomes[2]).toMatchObject({
      ok: false,
      error: expect.objectContaining({ code: 'invalid_contract_value' }),
    });
  });

  it('collects wake failures, including a receipt without woken', async () => {
    const result = await dispatch(
      [
        { name: 'no-woken', connector: fake([], { wake: async () => ({ woken_at: 1 }) }) },
        { name: 'down', connector: fake([], { wake: () => Promise.reject(new TypeError('fetch failed')) }) },
      ],
      'perry@kitchen',
      'm',
      { meta, claim: false },
    );
    expect(result.outcomes).toEqual([
      {
        connector: 'no-woken',
        route: 'wake',
        ok: false,
        error: expect.objectContaining({ code: 'invalid_contract_value' }),
        message: expect.stringContaining('$.woken'),
      },
      { connector: 'down', route: 'wake', ok: false, error: expect.any(TypeError), message: 'fetch failed' },
    ]);
  });

  it('survives an error whose message cannot be read', async () => {
    const hostile = {
      toString() {
        throw new Error('no');
      },
    };
    const result = await dispatch(
      [{ name: 'h', connector: fake([], { deliver: () => Promise.reject(hostile) }) }],
      'x',
      'm',
      {
        meta,
        claim: false,
      },
    );
    expect(result.outcomes[0]).toMatchObject({ ok: false, message: 'unprintable error' });
  });
});

describe('dispatch skip marking', () => {
  it('marks NoOp-handled dispatches and connector-reported delivery_skipped', async () => {
    const noop = new NoOpAgentConnector({ log: null, now: () => 7 });
    const deliver = await dispatch(
      [
        { name: 'primary', connector: noop },
        {
          name: 'offline',
          connector: fake([], { deliver: async () => ({ delivered_at: 1, delivery_skipped: true }) }),
        },
      ],
      'perry',
      'm',
      { meta, claim: false },
    );
    expect(deliver.outcomes).toEqual([
      {
        connector: 'primary',
        route: 'deliver',
        ok: true,
        receipt: { delivered_at: 7 },
        skipped: true,
        reason: NOOP_SKIP_REASON,
      },
      {
        connector: 'offline',
        route: 'deliver',
        ok: true,
        receipt: { delivered_at: 1, delivery_skipped: true },
        skipped: true,
      },
    ]);
    const wake = await dispatch([{ name: 'primary', connector: noop }], 'perry@k', 'm', {
      meta,
      claim: false,
    });
    expect(wake.outcomes).toEqual([
      {
        connector: 'primary',
        route: 'wake',
        ok: true,
        // A hook's wake: the reference runtime's routing warning comes first.
        receipt: { woken_at: 7, woken: false, warnings: [HOOK_WAKE_WARNING] },
        skipped: true,
        reason: NOOP_WAKE_SKIP_REASON,
      },
    ]);
    const notified = await dispatch(
      [
        {
          name: 'perry',
          connector: fake([], {
            agents: ['perry'],
            wake: async () => ({ woken_at: 1, woken: true, warnings: ['w'] }),
          }),
        },
      ],
      'perry@k',
      'm',
      { meta },
    );
    expect(notified.outcomes[0]).toMatchObject({ receipt: { warnings: ['w'] } });
    const hooked = await dispatch(
      [
        {
          name: 'perry',
          connector: fake([], { wake: async () => ({ woken_at: 1, woken: true, warnings: ['w'] }) }),
        },
      ],
      'perry@k',
      'm',
      { meta, claim: false },
    );
    expect(hooked.outcomes[0]).toMatchObject({ receipt: { warnings: [HOOK_WAKE_WARNING, 'w'] } });
  });

  it('never lets the NoOp claim during fan-out', async () => {
    const result = await dispatch(
      [{ name: 'noop', connector: new NoOpAgentConnector({ log: null }) }],
      'perry',
      'm',
      { meta },
    );
    expect(result.outcomes).toEqual([]);
  });
});

describe('dispatch argument validation', () => {
  const connectors = [{ name: 'c', connector: fake([]) }];

  it('rejects caller mistakes with typed errors before calling any connector', async () => {
    const log: Call[] = [];
    const watched = [{ name: 'c', connector: fake(log) }];
    await expect(dispatch(watched, 5 as unknown as string, 'm', { meta })).rejects.toMatchObject({
      code: 'invalid_agent_address',
    });
    await expect(dispatch(watched, 'x', 5 as unknown as string, { meta })).rejects.toThrow(
      'invalid DeliveryPayload at $.content',
    );
    await expect(dispatch(watched, 'x@y', 'm', { meta: {} as typeof meta })).rejects.toMatchObject({
      code: 'invalid_contract_value',
    });
    await expect(dispatch(watched, 'x', 'm', { meta, kind: 'binary' as never })).rejects.toThrow('$.kind');
    await expect(dispatch(watched, 'x', 'm', { meta, claim: 'yes' as never })).rejects.toMatchObject({
      code: 'invalid_dispatch_options',
    });
    await expect(dispatch(watched, 'x', 'm', { meta, restrictTo: 'c' as never })).rejects.toMatchObject({
      code: 'invalid_dispatch_options',
    });
    await expect(dispatch(watched, 'x', 'm', undefined as never)).rejects.toMatchObject({
      code: 'invalid_dispatch_options',
    });
    expect(log).toEqual([]);
  });

  it('rejects a connector list of the wrong shape', async () => {
    await expect(dispatch(undefined as never, 'x', 'm', { meta })).rejects.toMatchObject({
      code: 'invalid_dispatch_options',
    });
    await expect(dispatch([{ connector: fake([]) }] as never, 'x', 'm', { meta })).rejects.toMatchObject({
      code: 'invalid_dispatch_options',
    });
    await expect(dispatch([{ name: 'x', connector: {} }] as never, 'x', 'm', { meta })).rejects.toMatchObject(
      { code: 'invalid_agent_connector' },
    );
    expect((await dispatch(new Set(connectors), 'x', 'm', { meta, claim: false })).outcomes).toHaveLength(1);
  });
});

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
