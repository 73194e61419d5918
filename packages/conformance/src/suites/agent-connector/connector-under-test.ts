import {
  type AgentConnector,
  assertAgentConnector,
  type StaticCapabilities,
  staticCapabilitiesOf,
} from '@agentwire/agent-connector';
import type { SuiteSetup } from '../../suite.js';

/** A delivery as the substrate received it: the addressed agent and the payload, decoded. */
export interface ReceivedDelivery {
  readonly agent_id: string;
  readonly payload: unknown;
}

/** A connector wired for a conformance run, with what the suite needs to know about it. */
export interface ConnectorUnderTest {
  readonly connector: AgentConnector;
  /**
   * The agent the cases deliver to and wake. Default: the first agent `list_agents()` returns, else
   * `'conformance-agent'`.
   */
  readonly agentId?: string;
  /**
   * What the substrate has received so far, in any order; enables the pass-through cases (capability
   * `observe-deliveries`). Return every delivery, degraded wakes included: cases find theirs by
   * `meta.dispatch_id`.
   */
  readonly observe?: () => readonly ReceivedDelivery[] | Promise<readonly ReceivedDelivery[]>;
  /**
   * `true` when `wake()` knows sessions and must echo them: the session of an `agent@session` address,
   * or `opts.session_id`, which wins (capability `sessions`).
   */
  readonly sessions?: boolean;
  /**
   * `true` when `deliver()` routes to sessions too, so `deliver('agent@session')` must echo the session
   * on its receipt (capability `delivery-sessions`). Leave it off for agent-level substrates, such as a
   * webhook whose receiver decides about sessions.
   */
  readonly deliverySessions?: boolean;
  /** Releases what the factory set up (servers, temp folders); called once after the last case. */
  readonly dispose?: () => void | Promise<void>;
}

/** What the suite's factory may return: a bare connector, or one with its wiring described. */
export type ConnectorFactoryResult = AgentConnector | ConnectorUnderTest;

/** The context every case of {@link agentConnectorSuite} receives. */
export interface AgentConnectorContext {
  readonly connector: AgentConnector;
  readonly agentId: string;
  /** The validated static capabilities of the connector's class, when it declares them. */
  readonly staticCapabilities: StaticCapabilities | undefined;
  readonly observe: (() => Promise<readonly ReceivedDelivery[]>) | undefined;
}

/** The agent id used when neither the factory nor `list_agents()` names one. */
export const FALLBACK_AGENT_ID = 'conformance-agent';

/** Resolves a factory result into the case context, its capabilities and its dispose. */
export async function prepareConnector(
  result: ConnectorFactoryResult,
): Promise<SuiteSetup<AgentConnectorContext>> {
  const underTest: ConnectorUnderTest = isWrapped(result) ? result : { connector: result };
  const { connector, observe } = underTest;
  assertAgentConnector(connector, 'the connector under test');
  const staticCapabilities = staticCapabilitiesOf(connector);
  const agentId = underTest.agentId ?? (await firstListedAgent(connector)) ?? FALLBACK_AGENT_ID;
  const capabilities = new Set<string>();
  if (staticCapabilities !== undefined) capabilities.add('static-capabilities');
  // A class without static capabilities is taken to offer every core method it has.
  const features = staticCapabilities?.features;
  if (features === undefined || features.deliver === true) capabilities.add('deliver');
  if (features === undefined || features.list_agents === true) capabilities.add('list-agents');
  if (typeof connector.agent_status === 'function') capabilities.add('agent-status');
  if (observe !== undefined && capabilities.has('deliver')) capabilities.add('observe-deliveries');
  if (underTest.sessions === true) capabilities.add('sessions');
  if (underTest.deliverySessions === true && capabilities.has('deliver'))
    capabilities.add('delivery-sessions');
  return {
    ctx: {
      connector,
      agentId,
      staticCapabilities,
      observe: observe && (async () => observe()),
    },
    capabilities,
    ...(underTest.dispose === undefined ? {} : { dispose: underTest.dispose }),
  };
}

function isWrapped(result: ConnectorFactoryResult): result is ConnectorUnderTest {
  return typeof (result as { readonly deliver?: unknown }).deliver !== 'function' && 'connector' in result;
}

async function firstListedAgent(connector: AgentConnector): Promise<string | undefined> {
  try {
    const agents: unknown = await connector.list_agents();
    const first: unknown = Array.isArray(agents) ? agents[0] : undefined;
    const id = (first as { readonly agent_id?: unknown } | undefined)?.agent_id;
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    // The list-agents case reports the fault; the fallback id keeps the other cases running.
    return undefined;
  }
}
