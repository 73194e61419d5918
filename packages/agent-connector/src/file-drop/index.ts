export {
  type DeliveryDropDocument,
  type DropDocument,
  serializeDropDocument,
  type WakeDropDocument,
} from './drop-document.js';
export { FileDropAgentConnector, type FileDropAgentConnectorOptions } from './file-drop-agent-connector.js';
