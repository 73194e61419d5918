import { AgentConnectorError } from '../contract/errors.js';

/**
 * A `FileDropAgentConnector` was constructed with options it cannot use: an empty or non-string `dir`,
 * or a configured agent id that is not a safe folder name.
 */
export class InvalidFileDropConfigError extends AgentConnectorError {
  override readonly name = 'InvalidFileDropConfigError';
  readonly code = 'invalid_file_drop_config';
}

/**
 * A dispatch file with the same `dispatch_id` already exists for the agent with **different** content.
 * Carried as the `cause` of the `DeliveryFailedError` (`cause_kind: 'client_validation'`) that `deliver()`
 * throws; the existing file is left untouched.
 */
export class DispatchIdConflictError extends AgentConnectorError {
  override readonly name = 'DispatchIdConflictError';
  readonly code = 'dispatch_id_conflict';
  /** Absolute path of the file that was kept. */
  readonly path: string;

  constructor(path: string) {
    super(`a different dispatch file already exists at ${path}`);
    this.path = path;
  }
}

/** `list_agents()` could not read the drop directory's sub-folders. */
export class FileDropDirectoryError extends AgentConnectorError {
  override readonly name = 'FileDropDirectoryError';
  readonly code = 'file_drop_directory_unreadable';
  /** Absolute path of the drop directory. */
  readonly path: string;

  constructor(path: string, options?: ErrorOptions) {
    super(`cannot list agent folders in ${path}`, options);
    this.path = path;
  }
}
