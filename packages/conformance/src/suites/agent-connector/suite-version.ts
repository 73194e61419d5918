/** Version of the agent-connector suite; it follows the AgentConnector contract version (v1.0). */
export const AGENT_CONNECTOR_SUITE_VERSION = '1.0.0';
