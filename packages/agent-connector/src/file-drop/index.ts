export {
  type DropDocument,
  FileDropAgentConnector,
  type FileDropAgentConnectorOptions,
} from './file-drop-agent-connector.js';
