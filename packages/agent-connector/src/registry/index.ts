export {
  AgentConnectorRegistry,
  type AgentConnectorRegistryOptions,
  type DisposeFailure,
  type NamedAgentConnector,
  PRIMARY_CONNECTOR_NAME,
} from './agent-connector-registry.js';
