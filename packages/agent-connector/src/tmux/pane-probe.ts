import type { AgentConnectorError } from '../contract/errors.js';
import { isTmuxCommandError, runTmux, type TmuxInvocation } from './run-tmux.js';

/**
 * Whether the pane `targetArgument` (an exact `-t` argument, see `tmuxTargetArgument`) exists: resolves
 * `undefined` when it does, and tmux's error when tmux says it does not — no server on the socket, no
 * such session, window or pane (an `exit` failure, `stderr` naming what is missing).
 *
 * The check is `capture-pane -p -t <target> -S 0 -E 0` (prints the pane's first visible line, which is
 * dropped; nothing in the pane changes). `display-message -p -t <target>` would not do: it may fall back
 * to another pane instead of failing when the target is missing (tmux 3.3a does).
 *
 * @throws {AgentConnectorError} `tmux_command_failed`: `spawn` (tmux could not be started) or `timeout`: the
 *   check itself failed.
 */
export async function probePane(
  invocation: TmuxInvocation,
  targetArgument: string,
): Promise<AgentConnectorError | undefined> {
  try {
    await runTmux(invocation, ['capture-pane', '-p', '-t', targetArgument, '-S', '0', '-E', '0']);
    return undefined;
  } catch (error) {
    if (isTmuxCommandError(error, 'exit')) return error;
    throw error;
  }
}
