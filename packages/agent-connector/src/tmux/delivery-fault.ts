import { DeliveryFailedError, type DeliveryFailureKind } from '../contract/errors.js';
import { isTmuxCommandError } from './run-tmux.js';

/** Spawn errors that a retry cannot fix: the binary is missing or not executable. */
const SETUP_ERROR_CODES: ReadonlySet<string> = new Set(['ENOENT', 'EACCES', 'ENOTDIR', 'ELOOP']);

/**
 * The `DeliveryFailedError` for a failed tmux command while typing into `pane`:
 * - `timeout`: tmux did not finish within `timeoutMs` (retryable);
 * - `network`: tmux ran and failed — no server on the socket, no such session, window or pane — the
 *   substrate could not take the delivery, retryable once the pane is back (`wake()` reports a missing
 *   pane as `woken: false` and only gets here when it vanishes after the check); also spawn errors other
 *   than those below (`EAGAIN`, `ENOMEM`);
 * - `client_validation`: tmux could not be started (`ENOENT`, `EACCES` …): a setup fault, not retryable.
 */
export function deliveryFault(
  error: unknown,
  agent_id: string,
  action: 'deliver' | 'wake',
  pane: string,
): DeliveryFailedError {
  const message = `${action} to tmux pane ${pane} failed: ${error instanceof Error ? error.message : String(error)}`;
  return new DeliveryFailedError(message, { agent_id, cause_kind: causeKind(error), cause: error });
}

function causeKind(error: unknown): DeliveryFailureKind {
  if (!isTmuxCommandError(error)) return 'network';
  if (error.details.failure === 'timeout') return 'timeout';
  if (error.details.failure === 'spawn') {
    const code = (error.cause as NodeJS.ErrnoException | undefined)?.code;
    return code !== undefined && SETUP_ERROR_CODES.has(code) ? 'client_validation' : 'network';
  }
  return 'network';
}
