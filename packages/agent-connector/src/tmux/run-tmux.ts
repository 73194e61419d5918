import { execFile } from 'node:child_process';
import { AgentConnectorError, type TmuxFailure } from '../contract/errors.js';

/** How to reach the tmux server: the binary, the arguments before each sub-command, the time limit. */
export interface TmuxInvocation {
  readonly tmuxPath: string;
  /** `['-L', name]`, `['-S', path]` or `[]`. */
  readonly serverArgs: readonly string[];
  readonly timeoutMs: number;
}

/**
 * Runs `tmux <serverArgs> <args>` as a child process with an argument array — never through a shell — and
 * resolves when it exits with status 0. Every argument reaches tmux as written: one ending in `;`, which
 * tmux would take as a command separator, is escaped (see {@link tmuxArgument}).
 *
 * @throws {AgentConnectorError} `tmux_command_failed`: `spawn` (tmux could not be started), `timeout` (killed
 *   after `timeoutMs`) or `exit` (a non-zero status; tmux's stderr in the message).
 */
export function runTmux(invocation: TmuxInvocation, args: readonly string[]): Promise<void> {
  const subcommand = args[0] ?? '';
  const argv = [...invocation.serverArgs, ...args].map(tmuxArgument);
  return new Promise((resolve, reject) => {
    execFile(
      invocation.tmuxPath,
      argv,
      { timeout: invocation.timeoutMs, killSignal: 'SIGKILL', encoding: 'utf8', windowsHide: true },
      (error, _stdout, stderr) => {
        if (error === null) {
          resolve();
          return;
        }
        reject(commandError(error, subcommand, invocation, stderr.trim()));
      },
    );
  });
}

/**
 * `argument` as tmux must receive it in an argument array to read it back unchanged. tmux ends a command
 * at an argument that ends in `;` (dropping the `;`), and turns a final `\;` into `;`. So a `\` is put
 * before a final `;`: tmux drops the `;` and turns the `\` back into it. Other arguments are unchanged.
 *
 * @example
 * tmuxArgument('ls;');   // 'ls\\;' — tmux reads 'ls;'
 * tmuxArgument('a\\;');  // 'a\\\\;' — tmux reads 'a\\;'
 */
export function tmuxArgument(argument: string): string {
  return argument.endsWith(';') ? `${argument.slice(0, -1)}\\;` : argument;
}

type ExecError = Error & {
  readonly code?: string | number | null;
  readonly killed?: boolean;
  readonly signal?: NodeJS.Signals | null;
};

function commandError(
  error: ExecError,
  subcommand: string,
  invocation: TmuxInvocation,
  stderr: string,
): AgentConnectorError {
  if (typeof error.code === 'string') {
    return tmuxCommandError(
      `cannot run ${invocation.tmuxPath} (${error.code})`,
      subcommand,
      'spawn',
      null,
      stderr,
      error,
    );
  }
  if (error.killed === true) {
    return tmuxCommandError(
      `tmux ${subcommand} timed out after ${invocation.timeoutMs} ms`,
      subcommand,
      'timeout',
      null,
      stderr,
      error,
    );
  }
  const exit_code = typeof error.code === 'number' ? error.code : null;
  const status =
    exit_code === null ? `was killed by ${error.signal ?? 'a signal'}` : `exited with code ${exit_code}`;
  return tmuxCommandError(
    `tmux ${subcommand} ${status}${stderr === '' ? '' : `: ${stderr}`}`,
    subcommand,
    'exit',
    exit_code,
    stderr,
    error,
  );
}

function tmuxCommandError(
  message: string,
  subcommand: string,
  failure: TmuxFailure,
  exit_code: number | null,
  stderr: string,
  cause: ExecError,
): AgentConnectorError {
  return new AgentConnectorError('tmux_command_failed', message, {
    details: { subcommand, failure, exit_code, stderr },
    cause,
  });
}

/** Whether `error` is the `tmux_command_failed` error of {@link runTmux}, optionally of one `failure` kind. */
export function isTmuxCommandError(error: unknown, failure?: TmuxFailure): error is AgentConnectorError {
  return (
    error instanceof AgentConnectorError &&
    error.code === 'tmux_command_failed' &&
    (failure === undefined || error.details.failure === failure)
  );
}
