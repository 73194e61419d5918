import type { OpParams, OutboundAction, OutboundOp, OutboundResultObject } from '../frames/index.js';
import type { CapabilityVault } from '../vault/index.js';
import { failureResult, normalizeOpResult } from './op-result.js';
import type { OutboundContext } from './platform-adapter.js';
import type { ServedPlatform } from './resolve-options.js';
import type { RunningOutboundCalls } from './running-outbound-calls.js';

/** One outbound action to execute on a platform adapter. */
export interface OutboundCall {
  readonly action: OutboundAction;
  readonly platform: ServedPlatform;
  readonly context: Omit<OutboundContext, 'signal'>;
  readonly vault: CapabilityVault;
  /** The connection's running calls: they time the call out and abort it when the connection closes. */
  readonly running: RunningOutboundCalls;
}

/**
 * Executes one outbound action and returns the `result` to answer it with; never rejects. An unknown
 * op, an op the adapter does not implement, a `follow_up` without a usable capability, a throwing
 * adapter, an invalid return value and a call running past the connection's timeout (whose signal is
 * then aborted) or its close each give `{ success: false, error }`.
 */
export function executeOutbound(call: OutboundCall): Promise<OutboundResultObject> {
  const { action, platform } = call;
  if (action.op === 'unknown') {
    return Promise.resolve(failureResult(`unsupported op ${JSON.stringify(action.rawOp ?? null)}`));
  }
  const op = action.op;
  if (typeof platform.adapter[op] !== 'function') {
    return Promise.resolve(failureResult(`op ${op} is not supported by platform ${platform.name}`));
  }
  // The first of the adapter's outcome and an abort settles the promise; the other changes nothing.
  return new Promise((resolve) => {
    const running = call.running.start(op, (reason) => resolve(failureResult(`${op}: ${reason.message}`)));
    const context: OutboundContext = {
      ...call.context,
      get signal() {
        return running.signal;
      },
    };
    runAdapter(action, call, context).then(
      (result) => {
        running.finish();
        resolve(result);
      },
      (error: unknown) => {
        running.finish();
        resolve(failureResult(errorText(error)));
      },
    );
  });
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

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
