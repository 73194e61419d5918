export {
  type DeliveryDropDocument,
  type DropDocument,
  FileDropAgentConnector,
  type FileDropAgentConnectorOptions,
  serializeDropDocument,
  type WakeDropDocument,
} from './file-drop-agent-connector.js';
