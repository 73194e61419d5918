import type { DeliveryPayload, DeliveryReceipt, WakeOpts, WakeReceipt } from '@agentwire/agent-connector';
import { HttpWebhookAgentConnector } from '@agentwire/agent-connector/webhook';
import { type ErrorSummary, summarizeError } from '../run-suite.js';

/** One call the suite made on a live webhook agent, and the receipt (or error) it got. */
export interface AgentCallRecord {
  readonly method: 'deliver' | 'wake';
  readonly agent_id: string;
  readonly receipt?: DeliveryReceipt | WakeReceipt;
  readonly error?: ErrorSummary;
}

/** The bundled webhook connector, recording every receipt the live agent's answers gave. */
export class ReceiptRecordingConnector extends HttpWebhookAgentConnector {
  /** Every `deliver` and `wake`, in call order. */
  readonly calls: AgentCallRecord[] = [];

  override async deliver(agent_id: string, payload: DeliveryPayload): Promise<DeliveryReceipt> {
    return this.#record('deliver', agent_id, () => super.deliver(agent_id, payload));
  }

  override async wake(agent_id: string, opts?: WakeOpts): Promise<WakeReceipt> {
    return this.#record('wake', agent_id, () => super.wake(agent_id, opts));
  }

  async #record<R extends DeliveryReceipt | WakeReceipt>(
    method: AgentCallRecord['method'],
    agent_id: string,
    call: () => Promise<R>,
  ): Promise<R> {
    try {
      const receipt = await call();
      this.calls.push({ method, agent_id, receipt });
      return receipt;
    } catch (error) {
      this.calls.push({ method, agent_id, error: summarizeError(error) });
      throw error;
    }
  }
}

/** One line per recorded call, for the CLI's output. */
export function formatAgentCalls(calls: readonly AgentCallRecord[]): string {
  if (calls.length === 0) return 'Receipts: none (no deliver or wake reached the agent)';
  const lines = calls.map((call, i) => {
    const outcome =
      call.error === undefined ? JSON.stringify(call.receipt) : `${call.error.name}: ${call.error.message}`;
    return `  ${String(i + 1).padStart(2)}. ${call.method}(${JSON.stringify(call.agent_id)}) → ${outcome}`;
  });
  return ['Receipts:', ...lines].join('\n');
}
