import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  isKnownTriggerKind,
  type KnownTriggerKind,
  parseAgentDescriptors,
  parseAgentResponse,
  parseAgentStatus,
  parseDeliveryMeta,
  parseDeliveryPayload,
  parseDeliveryReceipt,
  parseRequestResponseOpts,
  parseStaticCapabilities,
  parseWakeOpts,
  parseWakeReceipt,
  payloadText,
  TRIGGER_KINDS,
  type TriggerKind,
} from './agent-connector.js';
import { AgentConnectorError } from './errors.js';

const meta = {
  dispatch_id: 'conformance-test',
  sent_at: 1_700_000_000_000,
  origin: { skill_name: 's', trigger_kind: 'inline' },
};

function failure(run: () => unknown): AgentConnectorError {
  try {
    run();
  } catch (error) {
    if (error instanceof AgentConnectorError && error.code === 'invalid_contract_value') return error;
    throw error;
  }
  throw new Error('expected an invalid_contract_value AgentConnectorError');
}

describe('parseDeliveryMeta', () => {
  it('accepts the reference conformance meta (dispatch_id is not a UUID)', () => {
    expect(parseDeliveryMeta(meta)).toEqual(meta);
  });

  it('accepts every known trigger kind and passes unknown strings through, as the reference runtime sends them', () => {
    for (const trigger_kind of [...TRIGGER_KINDS, 'session', 'github-push', '']) {
      const parsed = parseDeliveryMeta({ ...meta, origin: { skill_name: 's', trigger_kind } });
      expect(parsed.origin.trigger_kind).toBe(trigger_kind);
    }
  });

  it.each([
    ['a number', 7],
    ['null', null],
    ['an array', ['cron']],
  ])('refuses a trigger_kind that is %s', (_, trigger_kind) => {
    const error = failure(() => parseDeliveryMeta({ ...meta, origin: { skill_name: 's', trigger_kind } }));
    expect(error.path).toBe('$.origin.trigger_kind');
    expect(error.details.contract_type).toBe('DeliveryMeta');
  });

  it('still requires trigger_kind', () => {
    expect(failure(() => parseDeliveryMeta({ ...meta, origin: { skill_name: 's' } })).path).toBe(
      '$.origin.trigger_kind',
    );
  });

  it('refuses null in optional fields but reads undefined as absent', () => {
    expect(failure(() => parseDeliveryMeta({ ...meta, event_type: null })).path).toBe('$.event_type');
    expect(
      failure(() => parseDeliveryMeta({ ...meta, origin: { ...meta.origin, caller_agent_id: null } })).path,
    ).toBe('$.origin.caller_agent_id');
    const parsed = parseDeliveryMeta({ ...meta, correlation_id: undefined });
    expect(Object.hasOwn(parsed, 'correlation_id')).toBe(false);
  });

  it('refuses an empty dispatch_id and a negative or non-numeric sent_at', () => {
    expect(failure(() => parseDeliveryMeta({ ...meta, dispatch_id: '' })).path).toBe('$.dispatch_id');
    expect(failure(() => parseDeliveryMeta({ ...meta, sent_at: -1 })).path).toBe('$.sent_at');
    expect(failure(() => parseDeliveryMeta({ ...meta, sent_at: '1' })).path).toBe('$.sent_at');
    expect(failure(() => parseDeliveryMeta({ ...meta, sent_at: Number.POSITIVE_INFINITY })).path).toBe(
      '$.sent_at',
    );
  });

  it('keeps unknown keys and writes fields in contract order', () => {
    const parsed = parseDeliveryMeta({
      extra: 1,
      correlation_id: 'c',
      origin: meta.origin,
      sent_at: 1,
      dispatch_id: 'd',
    });
    expect(Object.keys(parsed)).toEqual(['dispatch_id', 'sent_at', 'origin', 'correlation_id', 'extra']);
  });

  it('keeps a __proto__ key as data', () => {
    const parsed = parseDeliveryMeta(
      JSON.parse(
        `{"dispatch_id":"d","sent_at":1,"origin":${JSON.stringify(meta.origin)},"__proto__":{"x":1}}`,
      ),
    );
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });
});

describe('parseDeliveryPayload', () => {
  it('accepts augment and template and reads their text', () => {
    const augment = parseDeliveryPayload({ kind: 'augment', content: 'hi', meta });
    const template = parseDeliveryPayload({ kind: 'template', prompt: 'do', meta });
    expect(payloadText(augment)).toBe('hi');
    expect(payloadText(template)).toBe('do');
  });

  it('refuses a kind outside the closed set and a missing text field', () => {
    expect(failure(() => parseDeliveryPayload({ kind: 'binary', content: 'x', meta })).path).toBe('$.kind');
    expect(failure(() => parseDeliveryPayload({ kind: 'augment', prompt: 'x', meta })).path).toBe(
      '$.content',
    );
    expect(failure(() => parseDeliveryPayload({ kind: 'template', content: 'x', meta })).path).toBe(
      '$.prompt',
    );
    expect(failure(() => parseDeliveryPayload({ kind: 'augment', content: 'x', meta: {} })).path).toMatch(
      /^\$\.meta\./,
    );
    expect(failure(() => parseDeliveryPayload(null)).path).toBe('$');
  });
});

describe('parseDeliveryReceipt', () => {
  it('accepts the minimal and the full receipt', () => {
    expect(parseDeliveryReceipt({ delivered_at: 5 })).toEqual({ delivered_at: 5 });
    const full = {
      delivered_at: 5,
      delivery_id: 'd',
      session_id: 's',
      delivery_skipped: true,
      warnings: ['w'],
    };
    expect(parseDeliveryReceipt(full)).toEqual(full);
  });

  it('refuses what is not a receipt', () => {
    expect(failure(() => parseDeliveryReceipt(undefined)).path).toBe('$');
    expect(failure(() => parseDeliveryReceipt({})).path).toBe('$.delivered_at');
    expect(failure(() => parseDeliveryReceipt({ delivered_at: 1, session_id: null })).path).toBe(
      '$.session_id',
    );
    expect(failure(() => parseDeliveryReceipt({ delivered_at: 1, delivery_skipped: 'true' })).path).toBe(
      '$.delivery_skipped',
    );
    expect(failure(() => parseDeliveryReceipt({ delivered_at: 1, warnings: ['ok', 3] })).path).toBe(
      '$.warnings[1]',
    );
  });
});

describe('WakeOpts / WakeReceipt', () => {
  it('requires woken to be a boolean', () => {
    expect(parseWakeReceipt({ woken_at: 1, woken: false })).toEqual({ woken_at: 1, woken: false });
    expect(failure(() => parseWakeReceipt({ woken_at: 1 })).path).toBe('$.woken');
    expect(failure(() => parseWakeReceipt({ woken_at: 1, woken: 'true' })).path).toBe('$.woken');
    expect(failure(() => parseWakeReceipt({ woken: true })).path).toBe('$.woken_at');
  });

  it('reads absent options as {} and checks when', () => {
    expect(parseWakeOpts(undefined)).toEqual({});
    expect(parseWakeOpts({ when: 'immediate', context: 'c', session_id: 's' })).toEqual({
      when: 'immediate',
      context: 'c',
      session_id: 's',
    });
    expect(parseWakeOpts({ when: 1_700_000_000_000 }).when).toBe(1_700_000_000_000);
    expect(failure(() => parseWakeOpts({ when: 'later' })).path).toBe('$.when');
    expect(failure(() => parseWakeOpts({ session_id: 3 })).details.contract_type).toBe('WakeOpts');
  });
});

describe('descriptors, status, request/response, static capabilities', () => {
  it('validates list_agents() results', () => {
    expect(parseAgentDescriptors([{ agent_id: 'a', capabilities: ['wake'] }])).toEqual([
      { agent_id: 'a', capabilities: ['wake'] },
    ]);
    expect(failure(() => parseAgentDescriptors({ agent_id: 'a' })).details.contract_type).toBe(
      'AgentDescriptor[]',
    );
    expect(failure(() => parseAgentDescriptors([{ agent_id: 1 }])).path).toBe('$[0].agent_id');
    expect(failure(() => parseAgentDescriptors([{ agent_id: 'a', capabilities: ['fly'] }])).path).toBe(
      '$[0].capabilities[0]',
    );
  });

  it('validates agent status, request options and responses', () => {
    expect(parseAgentStatus('asleep')).toBe('asleep');
    expect(() => parseAgentStatus('ACTIVE')).toThrow(
      expect.objectContaining({ code: 'invalid_contract_value' }),
    );
    expect(parseRequestResponseOpts({ timeout_ms: 100 })).toEqual({ timeout_ms: 100 });
    expect(failure(() => parseRequestResponseOpts({ timeout_ms: 0 })).path).toBe('$.timeout_ms');
    const response = { correlation_id: 'c', content: 'x', sent_at: 1, agent_id: 'a' };
    expect(parseAgentResponse(response)).toEqual(response);
    expect(failure(() => parseAgentResponse({ ...response, sent_at: undefined })).path).toBe('$.sent_at');
  });

  it('validates static capabilities against the closed feature set', () => {
    const caps = {
      connector_type: 'agent_connector',
      implementation: 'X',
      contract_version: '1.0.0',
      features: { deliver: true, wake: false },
    };
    expect(parseStaticCapabilities(caps)).toEqual(caps);
    expect(failure(() => parseStaticCapabilities({ ...caps, contract_version: '1.0' })).path).toBe(
      '$.contract_version',
    );
    expect(failure(() => parseStaticCapabilities({ ...caps, implementation: '' })).path).toBe(
      '$.implementation',
    );
    expect(() => parseStaticCapabilities({ ...caps, features: { fly: true } })).toThrow(
      expect.objectContaining({ code: 'invalid_contract_value' }),
    );
    expect(failure(() => parseStaticCapabilities({ ...caps, features: { deliver: 1 } })).path).toBe(
      '$.features.deliver',
    );
    expect(failure(() => parseStaticCapabilities({ ...caps, connector_type: 'skill_store' })).path).toBe(
      '$.connector_type',
    );
  });
});

describe('parse functions on arbitrary input', () => {
  it('only ever throw invalid_contract_value', () => {
    const parsers = [
      parseDeliveryMeta,
      parseDeliveryPayload,
      parseDeliveryReceipt,
      parseWakeOpts,
      parseWakeReceipt,
      parseAgentDescriptors,
      parseStaticCapabilities,
    ];
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), (value) => {
        for (const parse of parsers) {
          try {
            parse(value);
          } catch (error) {
            expect(error).toBeInstanceOf(AgentConnectorError);
            expect(error).toMatchObject({ code: 'invalid_contract_value' });
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('TRIGGER_KINDS and isKnownTriggerKind', () => {
  it('lists the seven contract values in contract order', () => {
    expect(TRIGGER_KINDS).toEqual(['cron', 'event', 'webhook', 'agent', 'cli', 'dashboard', 'inline']);
  });

  it('types TriggerKind as the known kinds or any other string', () => {
    expectTypeOf<KnownTriggerKind>().toExtend<TriggerKind>();
    expectTypeOf<'session'>().toExtend<TriggerKind>();
    expectTypeOf<'session'>().not.toExtend<KnownTriggerKind>();
    expectTypeOf<number>().not.toExtend<TriggerKind>();
    expectTypeOf(TRIGGER_KINDS).toEqualTypeOf<readonly KnownTriggerKind[]>();
  });

  it('tells known kinds from everything else', () => {
    for (const kind of TRIGGER_KINDS) expect(isKnownTriggerKind(kind)).toBe(true);
    for (const other of ['session', 'CRON', '', ' cron', 7, null, undefined, ['cron']]) {
      expect(isKnownTriggerKind(other)).toBe(false);
    }
  });
});
