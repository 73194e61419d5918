import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RelayError } from '../errors.js';
import { checkEdgeName, checkProvisionRegistration, checkRelevancePolicy } from './enrollment-stores.js';

const registration = {
  tenant: 'tenant-a',
  subject: 'ops@example.com',
  gatewayId: 'gw-host-1',
  platform: 'discord',
  botId: '',
  gatewayEndpoint: '',
  routeKeys: ['123', '456'],
};

const policy = {
  tenant: 'tenant-a',
  gatewayId: 'gw-host-1',
  platform: 'discord',
  requireAddress: true,
  freeResponseScopes: ['c-1'],
  allowOtherBots: false,
};

function refusal(check: () => unknown): RelayError {
  try {
    check();
  } catch (error) {
    expect(error).toBeInstanceOf(RelayError);
    expect(error).toMatchObject({ code: 'invalid_enrollment_argument' });
    return error as RelayError;
  }
  throw new Error('expected a refusal');
}

describe('edge store argument checks', () => {
  it('answer a fresh copy with exactly the interface keys, optional ones only when given', () => {
    const checked = checkProvisionRegistration({ ...registration, displayName: 'Kitchen', extra: 1 });
    expect(checked).toEqual({ ...registration, displayName: 'Kitchen' });
    expect(checked.routeKeys).not.toBe(registration.routeKeys);
    expect(checkRelevancePolicy({ ...policy, extra: true })).toEqual(policy);
  });

  it('name the refused field in the message and the path', () => {
    const empty = refusal(() => checkProvisionRegistration({ ...registration, routeKeys: ['1', ''] }));
    expect(empty.message).toBe('registration.routeKeys[1] must be a non-empty string');
    expect(empty.path).toBe('registration.routeKeys[1]');
    expect(empty.code).toBe('invalid_enrollment_argument');
    const flag = refusal(() => checkRelevancePolicy({ ...policy, allowOtherBots: 'no' }));
    expect(flag.message).toBe('policy.allowOtherBots must be a boolean, got a string');
    expect(refusal(() => checkProvisionRegistration(null)).message).toBe(
      'registration must be an object, got null',
    );
    expect(refusal(() => checkEdgeName('gw-\uDC00', 'gatewayId')).message).toBe(
      'gatewayId must be well-formed Unicode (it has a lone surrogate)',
    );
    expect(refusal(() => checkEdgeName(['gw'], 'gatewayId')).message).toBe(
      'gatewayId must be a string, got an array',
    );
  });

  it('never throw anything but the typed error, whatever they are given', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        for (const check of [checkProvisionRegistration, checkRelevancePolicy]) {
          try {
            check(value);
          } catch (error) {
            expect(error).toMatchObject({ code: 'invalid_enrollment_argument' });
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keep every well-formed registration as it is', () => {
    const name = fc.string({ minLength: 1, unit: 'grapheme' });
    fc.assert(
      fc.property(
        fc.record({
          tenant: name,
          subject: fc.string({ unit: 'grapheme' }),
          gatewayId: name,
          platform: name,
          botId: fc.string(),
          gatewayEndpoint: fc.string(),
          routeKeys: fc.array(name, { maxLength: 4 }),
        }),
        (value) => {
          expect(checkProvisionRegistration(value)).toEqual(value);
        },
      ),
      { numRuns: 200 },
    );
  });
});
