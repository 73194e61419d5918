export type { TmuxAgentConnectorOptions } from './options.js';
export { TmuxAgentConnector } from './tmux-agent-connector.js';
