import {
  type AgentConnector,
  type AgentConnectorClass,
  agentConnectorClassOf,
  assertAgentConnector,
  parseStaticCapabilities,
  type StaticCapabilities,
} from './contract/agent-connector.js';
import { AgentConnectorError } from './contract/errors.js';
import { NoOpAgentConnector } from './noop.js';

/** The name `get()` and `getOrDefault()` look up when given none. */
export const PRIMARY_CONNECTOR_NAME = 'primary';

/** A connector and the name it is registered under. */
export interface NamedAgentConnector {
  readonly name: string;
  readonly connector: AgentConnector;
}

/** A `dispose()` that threw or rejected during `disposeAll()`. */
export interface DisposeFailure {
  readonly name: string;
  readonly error: unknown;
}

/** Options of {@link AgentConnectorRegistry}. */
export interface AgentConnectorRegistryOptions {
  /** What `getOrDefault()` returns for an unknown name; default one shared `new NoOpAgentConnector()`. */
  readonly fallback?: AgentConnector;
}

/**
 * Named agent connectors, checked at registration. `register` admits a connector only when its
 * `health_check()` resolves to `true`; `get` throws for an unknown name (a wiring gap must not pass
 * silently) while `getOrDefault` falls back to a NoOp.
 *
 * @example
 * const registry = new AgentConnectorRegistry();
 * await registry.register('primary', new HttpWebhookAgentConnector({ agents }));
 * const connector = registry.get(); // 'primary'
 * await registry.disposeAll();
 */
export class AgentConnectorRegistry {
  readonly #connectors = new Map<string, AgentConnector>();
  readonly #fallback: AgentConnector | undefined;
  #defaultNoOp: AgentConnector | undefined;

  constructor(options: AgentConnectorRegistryOptions = {}) {
    if (options.fallback !== undefined) assertAgentConnector(options.fallback);
    this.#fallback = options.fallback;
  }

  /**
   * Registers `connector` under `name` once its `health_check()` resolves to exactly `true`; a name
   * already in use is replaced. A rejecting `health_check()` is refused the same way (the rejection is
   * the `cause`), rather than escaping as-is as in the reference.
   *
   * @throws {AgentConnectorError} `invalid_connector_name`: `name` is not a non-empty string.
   * @throws {AgentConnectorError} `invalid_agent_connector`: `connector` lacks a required method.
   * @throws {AgentConnectorError} `agent_connector_unhealthy`: `health_check()` resolved to anything but
   *   `true`, or rejected.
   */
  async register(name: string, connector: AgentConnector): Promise<void> {
    requireName(name);
    assertAgentConnector(connector);
    let healthy: unknown;
    try {
      healthy = await connector.health_check();
    } catch (error) {
      throw new AgentConnectorError(
        'agent_connector_unhealthy',
        `AgentConnector '${name}' (${implementationName(connector)}) refused: health_check() failed`,
        { details: { connector_name: name }, cause: error },
      );
    }
    if (healthy === false) {
      // The reference runtime's message, word for word.
      throw new AgentConnectorError(
        'agent_connector_unhealthy',
        `AgentConnector '${name}' (${implementationName(connector)}) health_check() returned false at registration. ` +
          'Substrate is unreachable or misconfigured; runtime refuses to start with an unhealthy AgentConnector. ' +
          'Fix the substrate or wrap your connector with a retry/always-healthy shim for dev mode.',
        { details: { connector_name: name } },
      );
    }
    if (healthy !== true) {
      throw new AgentConnectorError(
        'agent_connector_unhealthy',
        `AgentConnector '${name}' (${implementationName(connector)}) refused: health_check() returned ${String(healthy)}, not true`,
        { details: { connector_name: name } },
      );
    }
    this.#connectors.set(name, connector);
  }

  /**
   * The connector registered under `name`.
   *
   * @throws {AgentConnectorError} `agent_connector_not_found`: nothing is registered under `name`.
   */
  get(name: string = PRIMARY_CONNECTOR_NAME): AgentConnector {
    const connector = this.#connectors.get(name);
    if (connector === undefined) {
      const registered = [...this.#connectors.keys()];
      const names = registered.length === 0 ? '(none)' : registered.join(', ');
      throw new AgentConnectorError(
        'agent_connector_not_found',
        `AgentConnector '${name}' not registered. Registered: ${names}.`,
        { path: 'name', details: { connector_name: name, registered } },
      );
    }
    return connector;
  }

  /** The connector registered under `name`, else the fallback (one shared NoOp unless configured). */
  getOrDefault(name: string = PRIMARY_CONNECTOR_NAME): AgentConnector {
    const connector = this.#connectors.get(name);
    if (connector !== undefined) return connector;
    if (this.#fallback !== undefined) return this.#fallback;
    this.#defaultNoOp ??= new NoOpAgentConnector();
    return this.#defaultNoOp;
  }

  /** Whether a connector is registered under `name`. */
  has(name: string): boolean {
    return this.#connectors.has(name);
  }

  /** Removes the connector registered under `name` (without disposing it); `true` when there was one. */
  unregister(name: string): boolean {
    return this.#connectors.delete(name);
  }

  /** Every registered connector with its name, in registration order: what `dispatch()` fans out to. */
  list(): readonly NamedAgentConnector[] {
    return [...this.#connectors].map(([name, connector]) => ({ name, connector }));
  }

  /**
   * The classes of the registered connectors, each once however many instances are registered, in the
   * order their first instance was registered. A connector's class is its `constructor`; connectors whose
   * class declares no static `staticCapabilities()` (plain objects included) are left out. What a linter
   * reads capabilities from without constructing anything.
   *
   * @example
   * await registry.register('primary', new HttpWebhookAgentConnector({ agents }));
   * await registry.register('backup', new HttpWebhookAgentConnector({ agents: backupAgents }));
   * registry.listClasses(); // [HttpWebhookAgentConnector]
   */
  listClasses(): readonly AgentConnectorClass[] {
    const classes = new Set<AgentConnectorClass>();
    for (const connector of this.#connectors.values()) {
      const ctor = agentConnectorClassOf(connector);
      if (ctor !== undefined) classes.add(ctor);
    }
    return [...classes];
  }

  /**
   * The validated static capabilities of every class in {@link listClasses}, in that order: one entry per
   * class, none for a connector whose class declares no `staticCapabilities()`.
   *
   * @throws {AgentConnectorError} `invalid_contract_value`: a class's `staticCapabilities()` returned an
   *   invalid shape.
   * @example
   * for (const caps of registry.staticCapabilities()) console.log(caps.implementation, caps.features);
   * // HttpWebhookAgentConnector { deliver: true, wake: true, list_agents: true, health_check: true }
   */
  staticCapabilities(): readonly StaticCapabilities[] {
    return this.listClasses().map((ctor) => parseStaticCapabilities(ctor.staticCapabilities()));
  }

  /**
   * Calls `dispose()` on every registered connector that has one (once per instance, even when it is
   * registered under several names), then empties the registry. Failures do not stop the others; they
   * are returned, not thrown.
   */
  async disposeAll(): Promise<readonly DisposeFailure[]> {
    const byInstance = new Map<AgentConnector, string>();
    for (const [name, connector] of this.#connectors) {
      if (!byInstance.has(connector)) byInstance.set(connector, name);
    }
    this.#connectors.clear();
    const failures: DisposeFailure[] = [];
    for (const [connector, name] of byInstance) {
      const dispose: unknown = (connector as { readonly dispose?: unknown }).dispose;
      if (typeof dispose !== 'function') continue;
      try {
        await dispose.call(connector);
      } catch (error) {
        failures.push({ name, error });
      }
    }
    return failures;
  }
}

function requireName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || name === '') {
    const got = typeof name === 'string' ? 'an empty string' : name === null ? 'null' : typeof name;
    throw new AgentConnectorError(
      'invalid_connector_name',
      `connector name must be a non-empty string, got ${got}`,
      {
        path: 'name',
      },
    );
  }
}

function implementationName(connector: AgentConnector): string {
  const ctor: unknown = (connector as { readonly constructor?: unknown }).constructor;
  return typeof ctor === 'function' && ctor.name !== '' ? ctor.name : 'anonymous connector';
}
