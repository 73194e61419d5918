import type { OutboundActionInput, OutboundOp } from '@agentwire/relay';
import { fail, formatValue } from '../../assert.js';
import { ConformanceError } from '../../errors.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { sampleActions } from '../relay/sample-actions.js';
import { servePlatformAdapter } from './platform-adapter-server.js';
import {
  CHECKED_OPS,
  OBSERVED_PLATFORM,
  PLATFORM_REFUSAL,
  type PlatformAdapterContext,
  type PlatformAdapterUnderTest,
} from './platform-adapter-subject.js';

/** Version of the `relay.platform-adapter` suite. */
export const PLATFORM_ADAPTER_SUITE_VERSION = '1.0.0';

/** Options of {@link platformAdapterSuite}. */
export interface PlatformAdapterSuiteOptions {
  /** Builds the adapter under test and its platform; called once per run. */
  readonly create: () => PlatformAdapterUnderTest | Promise<PlatformAdapterUnderTest>;
  /** How long each op may take before the gateway gives up on it. Default 5000 ms. */
  readonly patienceMs?: number;
}

const SUITE_NAME = 'relay.platform-adapter';
const DEFAULT_PATIENCE_MS = 5000;

type PlatformAdapterCase = ConformanceCase<PlatformAdapterContext>;

/**
 * A suite for one `PlatformAdapter` (the per-platform part of a connector built on
 * `@agentwire/relay/server`): the suite serves the adapter with `createRelayServer` on 127.0.0.1 and
 * drives it with the SDK's gateway client (`WebSocketRelayTransport`), so each result is what a real
 * gateway reads — a throw or a wrong-shaped result already turned into `{ success: false, error }` by the
 * server. It checks that every op the adapter offers succeeds with its contract result (relay contract
 * §4: `message_id` for `send`, `send_media` and `prompt`, a `thread_id` for `thread_create`, a
 * `chat_info` `{ name, type }` for `get_chat_info`), that a failure the platform reports comes back as
 * `success: false` with the platform's reason, and — when `observe` is given — that a successful `send`
 * reached the platform.
 *
 * Capabilities: `op:<op>` for each op the adapter implements, `platform-refusal` when `create` gives a
 * `refusal`, `observed-platform` (an observation) when it gives `observe`. The ops run against the
 * platform for real: give a test chat.
 *
 * @throws {ConformanceError} `invalid_platform_adapter_options`: `create` is not a function, or
 *   `patienceMs` is not a positive number.
 * @example
 * ```ts
 * const report = await runSuite(
 *   platformAdapterSuite({
 *     create: () => ({ adapter: myDiscordAdapter, chatId: testChannelId, refusal: { chatId: '0', reason: 'Unknown Channel' } }),
 *   }),
 * );
 * console.log(formatReportTable([report]));
 * ```
 */
export function platformAdapterSuite(
  options: PlatformAdapterSuiteOptions,
): ConformanceSuite<PlatformAdapterContext> {
  if (options === null || typeof options !== 'object' || typeof options.create !== 'function') {
    throw new ConformanceError('invalid_platform_adapter_options', 'create must be a function');
  }
  const patienceMs = options.patienceMs ?? DEFAULT_PATIENCE_MS;
  if (!Number.isFinite(patienceMs) || patienceMs <= 0) {
    throw new ConformanceError(
      'invalid_platform_adapter_options',
      `patienceMs must be a positive number of milliseconds, got ${String(options.patienceMs)}`,
    );
  }
  const create = options.create;
  return {
    name: SUITE_NAME,
    version: PLATFORM_ADAPTER_SUITE_VERSION,
    description:
      'A relay platform adapter, served by createRelayServer and driven by the gateway client: op results, platform refusals, delivery.',
    cases: [...CHECKED_OPS.map(opCase), refusalCase(), deliveryCase()],
    needs: {
      ...Object.fromEntries(
        CHECKED_OPS.map((op) => [`op:${op}`, { provide: `a ${op} method on the adapter (optional op)` }]),
      ),
      [PLATFORM_REFUSAL]: {
        provide:
          'a refusal { chatId, reason } in what create returns: a chat id the platform refuses and the text of its refusal',
      },
      [OBSERVED_PLATFORM]: {
        provide: 'an observe() in what create returns, listing the messages the platform received',
        observation: true,
      },
    },
    setup: async () => {
      const subject = await create();
      const problem = subjectProblem(subject);
      if (problem !== undefined) {
        await subject?.dispose?.();
        throw new ConformanceError('invalid_platform_adapter_options', problem);
      }
      return servePlatformAdapter(subject, patienceMs);
    },
  };
}

/** Why `create`'s answer cannot be used, or `undefined` when it can. */
function subjectProblem(subject: PlatformAdapterUnderTest): string | undefined {
  if (subject === null || typeof subject !== 'object')
    return `create must return an object, got ${formatValue(subject)}`;
  if (typeof subject.adapter !== 'object' || subject.adapter === null) return 'create must return an adapter';
  if (typeof subject.chatId !== 'string' || subject.chatId === '') {
    return `create must return a non-empty chatId, got ${formatValue(subject.chatId)}`;
  }
  const { refusal } = subject;
  if (refusal === undefined) return undefined;
  // An empty reason would be found in any error text: the case could not fail.
  if (typeof refusal?.chatId !== 'string' || typeof refusal.reason !== 'string' || refusal.reason === '') {
    return `refusal must be { chatId: string, reason: non-empty string }, got ${formatValue(refusal)}`;
  }
  return undefined;
}

const CONTENT = 'agentwire conformance: platform adapter';

/** The action of `op` against the test chat, with the message and thread the earlier cases made. */
function actionFor(op: OutboundOp, ctx: PlatformAdapterContext): OutboundActionInput {
  const actions = sampleActions({
    chatId: ctx.chatId,
    platform: ctx.platform,
    messageId: ctx.sentMessageId,
    threadId: ctx.createdThreadId,
    content: CONTENT,
  });
  return actions[op] as OutboundActionInput;
}

/** Sends one action as the gateway does and returns the result it reads. */
async function perform(
  ctx: PlatformAdapterContext,
  action: OutboundActionInput,
): Promise<Readonly<Record<string, unknown>>> {
  try {
    return await ctx.gateway.sendOutbound(action, { platform: ctx.platform });
  } catch (error) {
    fail(`the gateway got no result for ${action.op}: ${(error as Error).message}`, error);
  }
}

/** A non-empty string, the way the gateway uses ids. */
const isId = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** What is missing from a successful result of `op` (relay contract §4, reference §7 table). */
function shapeProblem(op: OutboundOp, result: Readonly<Record<string, unknown>>): string | undefined {
  switch (op) {
    case 'send':
    case 'send_media':
    case 'prompt':
      return isId(result['message_id']) ? undefined : 'no message_id naming the message it posted';
    case 'thread_create':
      return isId(result['thread_id']) || isId(result['message_id'])
        ? undefined
        : 'no thread_id (or message_id) naming the thread it created';
    case 'get_chat_info': {
      const info = result['chat_info'];
      if (typeof info !== 'object' || info === null || Array.isArray(info)) return 'no chat_info object';
      const { name, type } = info as Readonly<Record<string, unknown>>;
      if (typeof name !== 'string' || name === '')
        return `chat_info.name must be a non-empty string, got ${formatValue(name)}`;
      if (typeof type !== 'string' || type === '')
        return `chat_info.type must be a non-empty string, got ${formatValue(type)}`;
      return undefined;
    }
    default:
      return undefined;
  }
}

function opCase(op: OutboundOp): PlatformAdapterCase {
  return {
    id: `${SUITE_NAME}.op.${op}`,
    title: `${op} against a chat the platform accepts succeeds with the contract's ${op} result`,
    section: 'relay contract §4; relay-reference §7',
    level: 'required',
    since: PLATFORM_ADAPTER_SUITE_VERSION,
    requires: `op:${op}`,
    run: async (ctx) => {
      const result = await perform(ctx, actionFor(op, ctx));
      if (result['success'] !== true) {
        fail(
          `${op} to chat ${formatValue(ctx.chatId)} failed: ${formatValue(result)}; expected success: true`,
        );
      }
      const problem = shapeProblem(op, result);
      if (problem !== undefined) fail(`${op} succeeded with ${problem}: ${formatValue(result)}`);
      if (op === 'send') ctx.sentMessageId = result['message_id'] as string;
      if (op === 'thread_create') {
        ctx.createdThreadId = (
          isId(result['thread_id']) ? result['thread_id'] : result['message_id']
        ) as string;
      }
    },
  };
}

function refusalCase(): PlatformAdapterCase {
  return {
    id: `${SUITE_NAME}.refusal.reported`,
    title: 'a send the platform refuses is answered with success: false and the platform’s reason',
    section: 'relay contract §4; relay-reference §7.3',
    level: 'required',
    since: PLATFORM_ADAPTER_SUITE_VERSION,
    requires: PLATFORM_REFUSAL,
    run: async (ctx) => {
      const refusal = ctx.refusal!;
      const result = await perform(ctx, {
        op: 'send',
        chat_id: refusal.chatId,
        content: CONTENT,
        reply_to: null,
        metadata: {},
      });
      if (result['success'] !== false) {
        fail(
          `a send to chat ${formatValue(refusal.chatId)}, which the platform refuses, was answered with ${formatValue(result)}; expected success: false`,
        );
      }
      const error = result['error'];
      if (typeof error !== 'string' || !error.includes(refusal.reason)) {
        fail(
          `the refused send's error is ${formatValue(error)}; expected the platform's reason ${formatValue(refusal.reason)} in it`,
        );
      }
    },
  };
}

function deliveryCase(): PlatformAdapterCase {
  return {
    id: `${SUITE_NAME}.send.delivered`,
    title: 'a send that reports success put its text in the chat on the platform',
    section: 'relay contract §4',
    level: 'required',
    since: PLATFORM_ADAPTER_SUITE_VERSION,
    requires: OBSERVED_PLATFORM,
    run: async (ctx) => {
      const observe = ctx.observe!;
      const text = `${CONTENT} ${randomHex(6)}`;
      const result = await perform(ctx, {
        op: 'send',
        chat_id: ctx.chatId,
        content: text,
        reply_to: null,
        metadata: {},
      });
      if (result['success'] !== true) fail(`send failed: ${formatValue(result)}`);
      const received = await observe();
      const delivered = received.some(
        (message) => message.chatId === ctx.chatId && message.text.includes(text),
      );
      if (!delivered) {
        fail(
          `send reported ${formatValue(result)} but the platform received no message with its text in chat ${formatValue(ctx.chatId)} (it received ${received.length} message(s))`,
        );
      }
    },
  };
}

/** `bytes` random bytes as hex, from Web Crypto (runtime-neutral). */
function randomHex(bytes: number): string {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(values, (value) => value.toString(16).padStart(2, '0')).join('');
}
