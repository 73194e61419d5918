import type { RelayBusListener, RelayBusMessage } from '@agentwire/relay';
import { assertEqual } from '../../assert.js';
import { formatValue } from '../../format-value.js';
import { pollUntil, sleep } from './runtime-support.js';

const POLL_STEP_MS = 5;

/** A bus listener that records what it receives, and waits (bounded) for deliveries. */
export class BusRecorder {
  readonly messages: RelayBusMessage[] = [];
  readonly listener: RelayBusListener = (message) => {
    this.messages.push(message);
  };
  readonly #who: string;
  readonly #timeoutMs: number;

  /** `who` names the listener in failure messages. */
  constructor(who: string, timeoutMs: number) {
    this.#who = who;
    this.#timeoutMs = timeoutMs;
  }

  /** Waits until `count` messages arrived; fails after the delivery timeout. */
  async waitForCount(count: number): Promise<void> {
    await this.#waitUntil(
      () => this.messages.length >= count,
      () => `received ${this.messages.length} of ${count} messages`,
    );
  }

  /** Waits until the {@link sentinel} with this `chatId` arrived; fails after the delivery timeout. */
  async waitForSentinel(chatId: string): Promise<void> {
    await this.#waitUntil(
      () => this.messages.some((m) => m.type === 'interrupt_inbound' && m.chat_id === chatId),
      () => `never received sentinel ${chatId}`,
    );
  }

  /** Fails unless exactly `expected` arrived, in this order. */
  assertReceived(expected: readonly RelayBusMessage[]): void {
    assertEqual(this.messages, expected, `messages ${this.#who} received`);
  }

  async #waitUntil(condition: () => boolean, problem: () => string): Promise<void> {
    await pollUntil(
      async () => condition(),
      { attempts: Math.ceil(this.#timeoutMs / POLL_STEP_MS), step: () => sleep(POLL_STEP_MS) },
      () => `${this.#who} ${problem()} within ${this.#timeoutMs} ms; received ${formatValue(this.messages)}`,
    );
  }
}

/** An `interrupt_inbound` message that marks a point in a stream of messages. */
export function sentinel(chatId: string): RelayBusMessage {
  return { type: 'interrupt_inbound', session_key: 'conformance:sentinel', chat_id: chatId };
}
