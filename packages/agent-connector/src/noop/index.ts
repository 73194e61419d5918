export { NoOpAgentConnector, type NoOpAgentConnectorOptions } from './noop-agent-connector.js';
