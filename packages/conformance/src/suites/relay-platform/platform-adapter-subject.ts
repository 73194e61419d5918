import { OUTBOUND_OPS, type OutboundOp } from '@agentwire/relay';
import type { WebSocketRelayTransport } from '@agentwire/relay/client';
import type { PlatformAdapter } from '@agentwire/relay/server';

// What the two halves of `relay.platform-adapter` share: the runtime-neutral suite and its Node setup
// (`platform-adapter-server.ts`, loaded when a run starts).

/** One message as the platform received it: the chat it went to and its text. */
export interface PlatformMessage {
  readonly chatId: string;
  readonly text: string;
}

/** A chat the platform refuses, and the words of its refusal. */
export interface PlatformRefusal {
  /** A chat id the platform refuses to post in (an unknown chat, a chat the bot was removed from). */
  readonly chatId: string;
  /** Text the platform's refusal contains; the result's `error` must contain it. */
  readonly reason: string;
}

/** What `create` of `platformAdapterSuite` returns: the adapter and what the suite may use of its platform. */
export interface PlatformAdapterUnderTest {
  /** The adapter under test, exactly as a connector passes it to `createRelayServer`. */
  readonly adapter: PlatformAdapter;
  /** A chat the platform accepts messages in: every op is sent there. */
  readonly chatId: string;
  /** How to make the platform refuse; without it the refusal case is skipped. */
  readonly refusal?: PlatformRefusal;
  /**
   * What the platform received so far, oldest first (a test double of the platform, or the platform's
   * own history API). Without it the run is reduced: the suite cannot tell a `send` that reports
   * success from one that sends.
   */
  readonly observe?: () => readonly PlatformMessage[] | Promise<readonly PlatformMessage[]>;
  /** Called once after the last case. */
  readonly dispose?: () => void | Promise<void>;
}

/** What every case of `platformAdapterSuite` receives. */
export interface PlatformAdapterContext {
  /** The gateway side, connected to a relay server that serves the adapter. */
  readonly gateway: WebSocketRelayTransport;
  /** The platform the adapter's descriptor names (the hello'd identity). */
  readonly platform: string;
  readonly chatId: string;
  readonly refusal?: PlatformRefusal;
  readonly observe?: () => readonly PlatformMessage[] | Promise<readonly PlatformMessage[]>;
  /** The `message_id` a `send` answered with, once one did: `edit` and `react` target it. */
  sentMessageId?: string;
  /** The thread a `thread_create` answered with, once one did: `thread_rename` targets it. */
  createdThreadId?: string;
}

/** The capability of the refusal case. */
export const PLATFORM_REFUSAL = 'platform-refusal';
/** The capability of the delivery case: an observation of the platform. */
export const OBSERVED_PLATFORM = 'observed-platform';

/**
 * The ops the suite sends: every op of the contract but `follow_up`, which the server only hands to an
 * adapter when its vault holds a credential for the session (checked by `relay.live` and the vault suite).
 */
export const CHECKED_OPS: readonly OutboundOp[] = OUTBOUND_OPS.filter((op) => op !== 'follow_up');
