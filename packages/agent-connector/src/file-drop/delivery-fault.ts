import { AgentConnectorError, DeliveryFailedError } from '../contract/errors.js';

/**
 * The `DeliveryFailedError` for a failed file-drop write. A `dispatch_id_conflict` `AgentConnectorError` is
 * the caller's mistake (`client_validation`, not retryable). Every file-system fault
 * (`EACCES`, `EROFS`, `ENOSPC`, `EIO`, …) is `network`: the contract has no storage kind, and `network` is
 * the one that means "the substrate could not take the delivery", retryable — a retry with the same
 * `dispatch_id` is idempotent, so retrying a permanent fault costs nothing but the attempt.
 */
export function deliveryFault(error: unknown, agent_id: string, action: string): DeliveryFailedError {
  if (error instanceof AgentConnectorError && error.code === 'dispatch_id_conflict') {
    return new DeliveryFailedError(`${action} refused: ${error.message}`, {
      agent_id,
      cause_kind: 'client_validation',
      cause: error,
    });
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const detail = error instanceof Error ? error.message : String(error);
  return new DeliveryFailedError(`${action} failed${code === undefined ? '' : ` (${code})`}: ${detail}`, {
    agent_id,
    cause_kind: 'network',
    cause: error,
  });
}
