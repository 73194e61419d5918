export type { TmuxFailure } from '../contract/errors.js';
export {
  DEFAULT_TMUX_TIMEOUT_MS,
  type TmuxAgentConnectorOptions,
  type TmuxPaneAddress,
} from './options.js';
export { TmuxAgentConnector } from './tmux-agent-connector.js';
