import type { OpParams, OutboundAction, OutboundOp, OutboundResultObject } from '../frames/index.js';
import type { CapabilityVault } from '../vault/index.js';
import { OutboundTimeoutError } from './errors.js';
import { failureResult, normalizeOpResult } from './op-result.js';
import type { OutboundContext } from './platform-adapter.js';
import type { ServedPlatform } from './resolve-options.js';

/** One outbound action to execute on a platform adapter. */
export interface OutboundCall {
  readonly action: OutboundAction;
  readonly platform: ServedPlatform;
  readonly context: Omit<OutboundContext, 'signal'>;
  readonly vault: CapabilityVault;
  readonly timeoutMs: number;
  /** Aborted when the gateway connection closes; the call's own signal follows it. */
  readonly connectionSignal: AbortSignal;
}

/**
 * Executes one outbound action and returns the `result` to answer it with; never rejects. An unknown
 * op, an op the adapter does not implement, a `follow_up` without a usable capability, a throwing
 * adapter, an invalid return value and a call running past `timeoutMs` (whose signal is then aborted)
 * each give `{ success: false, error }`.
 */
export async function executeOutbound(call: OutboundCall): Promise<OutboundResultObject> {
  const { action, platform } = call;
  if (action.op === 'unknown') {
    return failureResult(`unsupported op ${JSON.stringify(action.rawOp ?? null)}`);
  }
  const op = action.op;
  if (typeof platform.adapter[op] !== 'function') {
    return failureResult(`op ${op} is not supported by platform ${platform.name}`);
  }
  const controller = new AbortController();
  const followConnection = () => controller.abort(call.connectionSignal.reason);
  if (call.connectionSignal.aborted) followConnection();
  else call.connectionSignal.addEventListener('abort', followConnection, { once: true });
  const timer = setTimeout(
    () => controller.abort(new OutboundTimeoutError(op, call.timeoutMs)),
    call.timeoutMs,
  );
  try {
    return await Promise.race([
      runAdapter(action, call, { ...call.context, signal: controller.signal }),
      abortedResult(controller.signal, op),
    ]);
  } catch (error) {
    return failureResult(errorText(error));
  } finally {
    clearTimeout(timer);
    call.connectionSignal.removeEventListener('abort', followConnection);
  }
}

async function runAdapter(
  action: OpParams[OutboundOp],
  call: OutboundCall,
  context: OutboundContext,
): Promise<OutboundResultObject> {
  const adapter = call.platform.adapter;
  switch (action.op) {
    case 'follow_up': {
      const lookup = await call.vault.resolve(context.tenant, action.session_key, action.kind);
      // The same text for an absent and another tenant's capability: a gateway learns nothing.
      if (!lookup.found)
        return failureResult(`follow_up: no usable ${action.kind} capability for this session`);
      return normalizeOpResult(
        'follow_up',
        await adapter.follow_up?.(action, { ...context, credential: lookup.credential }),
      );
    }
    case 'send':
      return normalizeOpResult(action.op, await adapter.send?.(action, context));
    case 'edit':
      return normalizeOpResult(action.op, await adapter.edit?.(action, context));
    case 'typing':
      return normalizeOpResult(action.op, await adapter.typing?.(action, context));
    case 'get_chat_info':
      return normalizeOpResult(action.op, await adapter.get_chat_info?.(action, context));
    case 'send_media':
      return normalizeOpResult(action.op, await adapter.send_media?.(action, context));
    case 'prompt':
      return normalizeOpResult(action.op, await adapter.prompt?.(action, context));
    case 'react':
      return normalizeOpResult(action.op, await adapter.react?.(action, context));
    case 'thread_create':
      return normalizeOpResult(action.op, await adapter.thread_create?.(action, context));
    case 'thread_rename':
      return normalizeOpResult(action.op, await adapter.thread_rename?.(action, context));
  }
}

/** Settles with a failure once `signal` aborts (a timeout or a closed connection). */
function abortedResult(signal: AbortSignal, op: string): Promise<OutboundResultObject> {
  return new Promise((resolve) => {
    const settle = () => resolve(failureResult(`${op}: ${errorText(signal.reason)}`));
    if (signal.aborted) settle();
    else signal.addEventListener('abort', settle, { once: true });
  });
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
