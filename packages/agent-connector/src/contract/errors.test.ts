import { describe, expect, it } from 'vitest';
import { assertAgentConnector, invalidContractValue } from './agent-connector.js';
import {
  AgentConnectorError,
  DELIVERY_FAILURE_KINDS,
  DeliveryFailedError,
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

describe('AgentConnectorError', () => {
  it('carries code, message, path, retryable, details and cause', () => {
    const cause = new Error('root');
    const error = new AgentConnectorError('invalid_webhook_config', 'timeout_ms must be a number', {
      path: 'timeout_ms',
      details: { connector_name: 'x' },
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'AgentConnectorError',
      code: 'invalid_webhook_config',
      message: 'timeout_ms must be a number',
      path: 'timeout_ms',
      retryable: false,
      details: { connector_name: 'x' },
    });
    expect(error.cause).toBe(cause);
  });

  it('defaults path to the value as a whole, retryable to false, details to none, and sets no cause', () => {
    const error = new AgentConnectorError('invalid_connector_name', 'bad name');
    expect(error).toMatchObject({ path: '', retryable: false, details: {} });
    expect(Object.hasOwn(error, 'cause')).toBe(false);
  });

  it('invalid_contract_value and invalid_agent_connector name the failing value and path', () => {
    const error = invalidContractValue('WakeReceipt', '$.woken', 'expected boolean');
    expect(error).toMatchObject({
      code: 'invalid_contract_value',
      details: { contract_type: 'WakeReceipt' },
      path: '$.woken',
      message: 'invalid WakeReceipt at $.woken: expected boolean',
    });
    const withoutWake = {
      list_agents: async () => [],
      deliver: async () => ({ delivered_at: 1 }),
      health_check: async () => true,
      request_response: async () => ({}),
    };
    let missing: unknown;
    try {
      assertAgentConnector(withoutWake, "connector 'x'");
    } catch (caught) {
      missing = caught;
    }
    expect(missing).toMatchObject({ code: 'invalid_agent_connector', details: { missing: ['wake'] } });
    expect((missing as Error).message).toBe("connector 'x' is not an AgentConnector: missing method(s) wake");
  });
});
