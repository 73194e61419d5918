import { describe, expect, expectTypeOf, it } from 'vitest';
import { NoOpAgentConnector } from '../noop.js';
import {
  type AgentConnectorClass,
  assertAgentConnector,
  isAgentConnector,
  staticCapabilitiesOf,
} from './agent-connector.js';
import type { AgentConnectorError } from './errors.js';

const methods = {
  list_agents: async () => [],
  deliver: async () => ({ delivered_at: 1 }),
  wake: async () => ({ woken_at: 1, woken: false }),
  health_check: async () => true,
  request_response: async () => {
    throw new Error('not implemented');
  },
};

describe('isAgentConnector / assertAgentConnector', () => {
  it('accepts an object with every required method, agent_status optional', () => {
    expect(isAgentConnector(methods)).toBe(true);
    expect(isAgentConnector({ ...methods, agent_status: async () => 'idle' })).toBe(true);
    expect(isAgentConnector(new NoOpAgentConnector({ log: null }))).toBe(true);
  });

  it('lists what is missing, in contract order', () => {
    const { wake: _wake, health_check: _health, ...partial } = methods;
    try {
      assertAgentConnector(partial, "connector 'p'");
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'invalid_agent_connector' });
      expect((error as AgentConnectorError).details.missing).toEqual(['wake', 'health_check']);
    }
    expect(() => assertAgentConnector({ ...methods, agent_status: 'idle' })).toThrow(/agent_status/);
    expect(() => assertAgentConnector(null)).toThrow(
      'value is not an AgentConnector: missing method(s) list_agents, deliver, wake, health_check, request_response',
    );
  });
});

describe('staticCapabilitiesOf', () => {
  it('reads and validates the static method of the instance class', () => {
    expect(staticCapabilitiesOf(new NoOpAgentConnector({ log: null }))).toEqual(
      NoOpAgentConnector.staticCapabilities(),
    );
    expect(staticCapabilitiesOf(methods)).toBeUndefined();
    class Broken extends NoOpAgentConnector {
      static override staticCapabilities() {
        return { ...NoOpAgentConnector.staticCapabilities(), contract_version: 'v1' };
      }
    }
    expect(() => staticCapabilitiesOf(new Broken({ log: null }))).toThrow(
      expect.objectContaining({ code: 'invalid_contract_value' }),
    );
  });

  it('types connector classes with constructor arguments as AgentConnectorClass', () => {
    class Configured extends NoOpAgentConnector {
      constructor(readonly url: string) {
        super({ log: null });
      }
    }
    expectTypeOf(Configured).toExtend<AgentConnectorClass>();
    expectTypeOf(NoOpAgentConnector).toExtend<AgentConnectorClass>();
  });
});
