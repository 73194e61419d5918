import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claimingAgentIds, isWakeAddress, parseAgentAddress, resolveSessionId } from './address.js';
import { AgentConnectorError } from './contract/errors.js';

describe('isWakeAddress', () => {
  it('routes on "@" anywhere and nothing else', () => {
    expect(isWakeAddress('perry')).toBe(false);
    expect(isWakeAddress('perry@kitchen')).toBe(true);
    expect(isWakeAddress('x@')).toBe(true);
    expect(isWakeAddress('@')).toBe(true);
    expect(isWakeAddress('')).toBe(false);
  });

  it('refuses a non-string with the typed error, never a TypeError', () => {
    for (const bad of [undefined, null, 1, {}, ['a@b'], Symbol('a')]) {
      expect(() => isWakeAddress(bad as unknown as string)).toThrow(
        expect.objectContaining({ code: 'invalid_agent_address' }),
      );
    }
  });
});

describe('parseAgentAddress', () => {
  it('splits at the first "@" only', () => {
    expect(parseAgentAddress('a@b@c')).toEqual({
      address: 'a@b@c',
      shape: 'composite',
      agent: 'a',
      session: 'b@c',
    });
  });

  it('leaves the session key out of a bare address', () => {
    const parsed = parseAgentAddress('alice');
    expect(parsed).toEqual({ address: 'alice', shape: 'bare', agent: 'alice' });
    expect(Object.hasOwn(parsed, 'session')).toBe(false);
  });

  it('keeps empty parts and whitespace as data', () => {
    expect(parseAgentAddress('alice@')).toMatchObject({ agent: 'alice', session: '' });
    expect(parseAgentAddress('@s')).toMatchObject({ agent: '', session: 's' });
    expect(parseAgentAddress(' a @ b ')).toMatchObject({ agent: ' a ', session: ' b ' });
  });

  it('carries the error code, name and path', () => {
    try {
      parseAgentAddress(7 as unknown as string);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AgentConnectorError);
      expect(error).toMatchObject({
        name: 'AgentConnectorError',
        code: 'invalid_agent_address',
        path: 'agent_id',
      });
      expect((error as Error).message).toBe('agent_id must be a string, got a number');
    }
  });

  it('is lossless and agrees with isWakeAddress on any string', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'b', '@', ' ', '\t', '＠', 'é', '😀'),
      maxLength: 12,
    });
    fc.assert(
      fc.property(text, (address) => {
        const parsed = parseAgentAddress(address);
        expect(parsed.shape === 'composite').toBe(isWakeAddress(address));
        if (parsed.session === undefined) {
          expect(parsed.agent).toBe(address);
        } else {
          expect(`${parsed.agent}@${parsed.session}`).toBe(address);
          expect(parsed.agent.includes('@')).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never throws anything but the typed error on arbitrary input', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        try {
          parseAgentAddress(value as string);
          expect(typeof value).toBe('string');
        } catch (error) {
          expect(error).toMatchObject({ code: 'invalid_agent_address' });
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('claimingAgentIds', () => {
  it('adds the part before the first "@" for composites only', () => {
    expect(claimingAgentIds('perry')).toEqual(['perry']);
    expect(claimingAgentIds('perry@kitchen')).toEqual(['perry@kitchen', 'perry']);
    expect(claimingAgentIds('a@b@c')).toEqual(['a@b@c', 'a']);
  });
});

describe('resolveSessionId', () => {
  it('prefers a non-empty opts.session_id over the embedded suffix', () => {
    expect(resolveSessionId('perry@kitchen', { session_id: 'tab-3' })).toBe('tab-3');
    expect(resolveSessionId('perry@kitchen', {})).toBe('kitchen');
    expect(resolveSessionId('perry@kitchen')).toBe('kitchen');
  });

  it('treats empty strings as "no session"', () => {
    expect(resolveSessionId('perry@kitchen', { session_id: '' })).toBe('kitchen');
    expect(resolveSessionId('perry@', { session_id: '' })).toBeUndefined();
    expect(resolveSessionId('perry')).toBeUndefined();
  });

  it('refuses a non-string opts.session_id and a non-string address', () => {
    expect(() => resolveSessionId('perry', { session_id: 5 as unknown as string })).toThrow(
      'opts.session_id must be a string, got a number',
    );
    expect(() => resolveSessionId('perry', { session_id: null as unknown as string })).toThrow(
      expect.objectContaining({ code: 'invalid_agent_address' }),
    );
    expect(() => resolveSessionId(undefined as unknown as string)).toThrow(
      expect.objectContaining({ code: 'invalid_agent_address' }),
    );
  });

  it('returns opts.session_id whenever it is non-empty, whatever the address', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 10 }),
        fc.string({ minLength: 1, maxLength: 10 }),
        (address, session) => {
          expect(resolveSessionId(address, { session_id: session })).toBe(session);
        },
      ),
      { numRuns: 200 },
    );
  });
});
