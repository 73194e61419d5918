import { describe, expect, it } from 'vitest';
import {
  AgentConnectorError,
  DELIVERY_FAILURE_KINDS,
  DeliveryFailedError,
  InvalidAgentConnectorError,
  InvalidContractValueError,
  NotImplementedError,
} from './errors.js';

describe('DeliveryFailedError', () => {
  it('carries agent_id, cause_kind, http_status, name, code and cause', () => {
    const cause = new TypeError('fetch failed');
    const error = new DeliveryFailedError('network error: fetch failed', {
      agent_id: 'alice',
      cause_kind: 'network',
      cause,
    });
    expect(error).toBeInstanceOf(AgentConnectorError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'DeliveryFailedError',
      code: 'delivery_failed',
      message: 'network error: fetch failed',
      agent_id: 'alice',
      cause_kind: 'network',
      http_status: null,
    });
    expect(error.cause).toBe(cause);
  });

  it('keeps the HTTP status and leaves cause unset when none is given', () => {
    const error = new DeliveryFailedError('HTTP 503 from http://x', {
      agent_id: 'a',
      cause_kind: 'http_status',
      http_status: 503,
    });
    expect(error.http_status).toBe(503);
    expect(Object.hasOwn(error, 'cause')).toBe(false);
  });

  it('documents retryability per cause_kind', () => {
    const retryable = (
      cause_kind: (typeof DELIVERY_FAILURE_KINDS)[number],
      http_status: number | null = null,
    ) => new DeliveryFailedError('x', { agent_id: 'a', cause_kind, http_status }).retryable;
    expect(retryable('network')).toBe(true);
    expect(retryable('timeout')).toBe(true);
    expect(retryable('malformed_response')).toBe(false);
    expect(retryable('client_validation')).toBe(false);
    for (const status of [408, 425, 429, 500, 502, 503, 504, 599])
      expect(retryable('http_status', status)).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 422, 501, 505])
      expect(retryable('http_status', status)).toBe(false);
    expect(retryable('http_status', null)).toBe(false);
  });

  it('lists the five cause kinds of the contract', () => {
    expect(DELIVERY_FAILURE_KINDS).toEqual([
      'network',
      'timeout',
      'http_status',
      'malformed_response',
      'client_validation',
    ]);
  });
});

describe('NotImplementedError', () => {
  it('says "not implemented" and names the method', () => {
    const error = new NotImplementedError('request_response', 'MyConnector');
    expect(error).toMatchObject({
      name: 'NotImplementedError',
      code: 'not_implemented',
      method: 'request_response',
    });
    expect(error.message).toBe('MyConnector.request_response() is not implemented');
    expect(new NotImplementedError('request_response').message).toBe('request_response() is not implemented');
  });

  it('keeps a cause', () => {
    const cause = new Error('root');
    expect(new NotImplementedError('x', undefined, { cause }).cause).toBe(cause);
  });
});

describe('InvalidContractValueError / InvalidAgentConnectorError', () => {
  it('name the failing value and path', () => {
    const error = new InvalidContractValueError('WakeReceipt', '$.woken', 'expected boolean');
    expect(error).toMatchObject({
      name: 'InvalidContractValueError',
      code: 'invalid_contract_value',
      contract_type: 'WakeReceipt',
      path: '$.woken',
      message: 'invalid WakeReceipt at $.woken: expected boolean',
    });
    const missing = new InvalidAgentConnectorError(['wake'], "connector 'x'");
    expect(missing).toMatchObject({ name: 'InvalidAgentConnectorError', code: 'invalid_agent_connector' });
    expect(missing.message).toBe("connector 'x' is not an AgentConnector: missing method(s) wake");
  });
});
