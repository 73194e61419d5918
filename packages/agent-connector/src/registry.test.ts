import { describe, expect, it } from 'vitest';
import type { AgentConnector } from './contract/agent-connector.js';
import { AGENT_CONNECTOR_CONTRACT_VERSION } from './contract/agent-connector.js';
import { NoOpAgentConnector } from './noop.js';
import { AgentConnectorRegistry } from './registry.js';

class FakeConnector implements AgentConnector {
  disposed = 0;
  constructor(
    private readonly health: () => Promise<unknown>,
    private readonly onDispose?: () => void,
  ) {}
  async list_agents() {
    return [];
  }
  async deliver() {
    return { delivered_at: 1 };
  }
  async wake() {
    return { woken_at: 1, woken: false };
  }
  health_check(): Promise<boolean> {
    return this.health() as Promise<boolean>;
  }
  async request_response(): Promise<never> {
    throw new Error('not implemented');
  }
  async dispose() {
    this.disposed += 1;
    this.onDispose?.();
  }
}

const healthy = () => new FakeConnector(async () => true);

function plainConnector(): AgentConnector {
  return {
    list_agents: async () => [],
    deliver: async () => ({ delivered_at: 1 }),
    wake: async () => ({ woken_at: 1, woken: false }),
    health_check: async () => true,
    request_response: async () => {
      throw new Error('not implemented');
    },
  };
}

describe('AgentConnectorRegistry.register', () => {
  it('registers a healthy connector and replaces an existing name', async () => {
    const registry = new AgentConnectorRegistry();
    const first = healthy();
    const second = healthy();
    await registry.register('primary', first);
    expect(registry.get()).toBe(first);
    await registry.register('primary', second);
    expect(registry.get('primary')).toBe(second);
    expect(registry.list()).toEqual([{ name: 'primary', connector: second }]);
  });

  it('refuses a connector whose health_check() resolves false or not exactly true', async () => {
    const registry = new AgentConnectorRegistry();
    for (const value of [false, undefined, 'true', 1]) {
      const attempt = registry.register('hooks', new FakeConnector(async () => value));
      await expect(attempt).rejects.toMatchObject({ code: 'agent_connector_unhealthy' });
    }
    await expect(registry.register('hooks', new FakeConnector(async () => false))).rejects.toThrow(
      "AgentConnector 'hooks' (FakeConnector) health_check() returned false at registration. " +
        'Substrate is unreachable or misconfigured; runtime refuses to start with an unhealthy AgentConnector. ' +
        'Fix the substrate or wrap your connector with a retry/always-healthy shim for dev mode.',
    );
    await expect(registry.register('hooks', new FakeConnector(async () => 1))).rejects.toThrow(
      "AgentConnector 'hooks' (FakeConnector) refused: health_check() returned 1, not true",
    );
    expect(registry.has('hooks')).toBe(false);
  });

  it('refuses a connector whose health_check() rejects, keeping the cause', async () => {
    const registry = new AgentConnectorRegistry();
    const cause = new Error('ECONNREFUSED');
    const error = await registry.register('x', new FakeConnector(() => Promise.reject(cause))).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'agent_connector_unhealthy' });
    expect(error).toMatchObject({
      code: 'agent_connector_unhealthy',
      details: { connector_name: 'x' },
      cause,
    });
  });

  it('refuses bad names and non-connectors with typed errors', async () => {
    const registry = new AgentConnectorRegistry();
    await expect(registry.register('', healthy())).rejects.toMatchObject({ code: 'invalid_connector_name' });
    await expect(registry.register(3 as unknown as string, healthy())).rejects.toThrow('got number');
    await expect(registry.register('x', {} as AgentConnector)).rejects.toMatchObject({
      code: 'invalid_agent_connector',
    });
  });
});

describe('AgentConnectorRegistry lookups', () => {
  it('get() throws the typed error naming what is registered', async () => {
    const registry = new AgentConnectorRegistry();
    expect(() => registry.get()).toThrow("AgentConnector 'primary' not registered. Registered: (none).");
    await registry.register('a', healthy());
    await registry.register('b', healthy());
    try {
      registry.get('c');
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        code: 'agent_connector_not_found',
        details: { connector_name: 'c', registered: ['a', 'b'] },
        message: "AgentConnector 'c' not registered. Registered: a, b.",
      });
    }
  });

  it('getOrDefault() returns one shared NoOp, or the configured fallback', async () => {
    const registry = new AgentConnectorRegistry();
    const fallback = registry.getOrDefault();
    expect(fallback).toBeInstanceOf(NoOpAgentConnector);
    expect(registry.getOrDefault('other')).toBe(fallback);
    const primary = healthy();
    await registry.register('primary', primary);
    expect(registry.getOrDefault()).toBe(primary);
    const custom = healthy();
    expect(new AgentConnectorRegistry({ fallback: custom }).getOrDefault()).toBe(custom);
    expect(() => new AgentConnectorRegistry({ fallback: {} as AgentConnector })).toThrow(
      expect.objectContaining({ code: 'invalid_agent_connector' }),
    );
  });

  it('unregister() removes without disposing', async () => {
    const registry = new AgentConnectorRegistry();
    const connector = healthy();
    await registry.register('a', connector);
    expect(registry.unregister('a')).toBe(true);
    expect(registry.unregister('a')).toBe(false);
    expect(connector.disposed).toBe(0);
  });
});

describe('AgentConnectorRegistry.disposeAll', () => {
  it('disposes each instance once, collects failures and empties the registry', async () => {
    const registry = new AgentConnectorRegistry();
    const shared = healthy();
    const failing = new FakeConnector(
      async () => true,
      () => {
        throw new Error('close failed');
      },
    );
    const plain = plainConnector();
    await registry.register('a', shared);
    await registry.register('b', shared);
    await registry.register('c', failing);
    await registry.register('d', plain);
    const failures = await registry.disposeAll();
    expect(shared.disposed).toBe(1);
    expect(failing.disposed).toBe(1);
    expect(failures).toEqual([{ name: 'c', error: new Error('close failed') }]);
    expect(registry.list()).toEqual([]);
  });
});

/** A connector class that declares its capabilities, as every bundled connector does. */
class DeclaredConnector extends FakeConnector {
  static staticCapabilities() {
    return {
      connector_type: 'agent_connector' as const,
      implementation: 'DeclaredConnector',
      contract_version: AGENT_CONNECTOR_CONTRACT_VERSION,
      features: { deliver: true, wake: false },
    };
  }
}

describe('AgentConnectorRegistry.listClasses / staticCapabilities', () => {
  it('lists each class once, in the order its first instance was registered', async () => {
    const registry = new AgentConnectorRegistry();
    await registry.register('declared-1', new DeclaredConnector(async () => true));
    await registry.register('noop', new NoOpAgentConnector({ log: null }));
    await registry.register('declared-2', new DeclaredConnector(async () => true));
    expect(registry.listClasses()).toEqual([DeclaredConnector, NoOpAgentConnector]);
    expect(registry.staticCapabilities()).toEqual([
      DeclaredConnector.staticCapabilities(),
      NoOpAgentConnector.staticCapabilities(),
    ]);
  });

  it('forgets the class of a replaced or unregistered connector', async () => {
    const registry = new AgentConnectorRegistry();
    await registry.register('primary', new NoOpAgentConnector({ log: null }));
    await registry.register('hooks', new DeclaredConnector(async () => true));
    await registry.register('primary', new DeclaredConnector(async () => true));
    expect(registry.listClasses()).toEqual([DeclaredConnector]);
    registry.unregister('primary');
    registry.unregister('hooks');
    expect(registry.listClasses()).toEqual([]);
    expect(registry.staticCapabilities()).toEqual([]);
  });

  it('leaves out connectors whose class declares no static capabilities, plain objects included', async () => {
    const registry = new AgentConnectorRegistry();
    await registry.register('fake', healthy());
    await registry.register('plain', plainConnector());
    await registry.register('noop', new NoOpAgentConnector({ log: null }));
    expect(registry.listClasses()).toEqual([NoOpAgentConnector]);
    expect(registry.staticCapabilities().map((caps) => caps.implementation)).toEqual(['NoOpAgentConnector']);
  });

  it('refuses invalid static capabilities with the typed error', async () => {
    class Mislabelled extends FakeConnector {
      static staticCapabilities() {
        return {
          connector_type: 'skill_store',
          implementation: 'Mislabelled',
          contract_version: '1.0.0',
          features: {},
        };
      }
    }
    const registry = new AgentConnectorRegistry();
    await registry.register('bad', new Mislabelled(async () => true));
    expect(registry.listClasses()).toEqual([Mislabelled]);
    expect(() => registry.staticCapabilities()).toThrow(
      expect.objectContaining({ code: 'invalid_contract_value' }),
    );
  });
});
