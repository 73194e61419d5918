import { ACTION_KEY_ORDER } from './actions.js';
import { isOutboundOp } from './ops.js';

/** Key order of each frame as the gateway (or the contract, for connector frames) writes it. */
const FRAME_KEY_ORDER: Readonly<Record<string, readonly string[]>> = {
  hello: ['type', 'platform', 'botId', 'command_manifest'],
  descriptor: ['type', 'descriptor'],
  inbound: ['type', 'event', 'bufferId'],
  inbound_ack: ['type', 'bufferId'],
  outbound: ['type', 'requestId', 'action', 'platform', 'botId'],
  outbound_result: ['type', 'requestId', 'result'],
  interrupt: ['type', 'session_key', 'reason'],
  interrupt_inbound: ['type', 'session_key', 'chat_id'],
  passthrough_forward: ['type', 'forward', 'bufferId'],
  going_idle: ['type'],
  going_idle_ack: ['type'],
};

const FORWARD_KEY_ORDER = ['platform', 'botId', 'method', 'path', 'headers', 'bodyB64', 'profile'];

/**
 * The plain JSON object a frame is written as: an unknown frame or action back to its `raw` object,
 * keys in the gateway's order (listed keys first, then any others in their own order), `undefined`
 * values left out. Values are not checked here.
 */
export function frameToWireObject(frame: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const type = frame['type'];
  if (type === 'unknown' && isRecord(frame['raw'])) return frame['raw'];
  const order = typeof type === 'string' ? FRAME_KEY_ORDER[type] : undefined;
  if (order === undefined) return orderKeys(frame, []);
  const wire = orderKeys(frame, order);
  const action = wire['action'];
  if (type === 'outbound' && isRecord(action)) wire['action'] = actionToWireObject(action);
  const forward = wire['forward'];
  if (type === 'passthrough_forward' && isRecord(forward))
    wire['forward'] = orderKeys(forward, FORWARD_KEY_ORDER);
  return wire;
}

function actionToWireObject(action: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const op = action['op'];
  if (op === 'unknown' && isRecord(action['raw'])) return action['raw'];
  return orderKeys(action, isOutboundOp(op) ? ACTION_KEY_ORDER[op] : []);
}

function orderKeys(
  source: Readonly<Record<string, unknown>>,
  order: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of order) {
    if (Object.hasOwn(source, key)) setOwn(out, key, source[key]);
  }
  for (const key of Object.keys(source)) {
    if (!order.includes(key)) setOwn(out, key, source[key]);
  }
  return out;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (value === undefined) return;
  // Assignment would set the prototype for "__proto__" instead of an own key.
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else target[key] = value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
