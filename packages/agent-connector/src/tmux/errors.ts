import { AgentConnectorError } from '../contract/errors.js';

/**
 * A `TmuxAgentConnector` was constructed with options it cannot use. `setting` names the option at fault
 * (`sessions`, `timeoutMs` …; for one agent's entry, `sessions["perry"]`).
 */
export class InvalidTmuxConfigError extends AgentConnectorError {
  override readonly name = 'InvalidTmuxConfigError';
  readonly code = 'invalid_tmux_config';
  /** The option at fault. */
  readonly setting: string;

  constructor(setting: string, message: string) {
    super(`TmuxAgentConnector: ${message}`);
    this.setting = setting;
  }
}

/**
 * How one tmux command failed: it could not be started (`spawn`: binary missing, not executable), it ran
 * past the connector's `timeoutMs` and was killed (`timeout`), or it exited with a non-zero status
 * (`exit`: no server on the socket, no such session, window or pane).
 */
export type TmuxFailure = 'spawn' | 'timeout' | 'exit';

/**
 * A tmux command failed. Carried as the `cause` of the `DeliveryFailedError` that `deliver()` and `wake()`
 * throw; the message names the tmux sub-command and ends with tmux's own error text.
 */
export class TmuxCommandError extends AgentConnectorError {
  override readonly name = 'TmuxCommandError';
  readonly code = 'tmux_command_failed';
  /** The tmux sub-command that failed, e.g. `send-keys`. */
  readonly subcommand: string;
  readonly failure: TmuxFailure;
  /** The exit status for `exit` failures; `null` otherwise. */
  readonly exit_code: number | null;
  /** What tmux wrote to stderr, trimmed; `''` when nothing. */
  readonly stderr: string;

  constructor(
    message: string,
    details: {
      readonly subcommand: string;
      readonly failure: TmuxFailure;
      readonly exit_code?: number | null;
      readonly stderr?: string;
    },
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.subcommand = details.subcommand;
    this.failure = details.failure;
    this.exit_code = details.exit_code ?? null;
    this.stderr = details.stderr ?? '';
  }
}
