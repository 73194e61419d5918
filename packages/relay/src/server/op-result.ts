import { type OutboundOp, type OutboundResultObject, opResultSchemas } from '../frames/index.js';
import { safeParseInEnglish } from '../internal/english-issues.js';
import { copyJsonValue, jsonPath } from '../json/index.js';

/** A failed result with `error` text, the shape every refusal of the server takes. */
export function failureResult(error: string): OutboundResultObject {
  return { success: false, error };
}

/**
 * What goes on the wire for an adapter's return value: the value checked against the op's result
 * schema and copied as plain JSON, without `ambiguous` (only the gateway sets it). A value the gateway
 * could not read (no boolean `success`, a mistyped `message_id`, something that is not JSON) becomes
 * `{ success: false, error }` naming the problem.
 */
export function normalizeOpResult(op: OutboundOp, value: unknown): OutboundResultObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return failureResult(`${op}: the platform adapter returned no result object`);
  }
  const ordered = orderedResultFast(op, value as Record<string, unknown>);
  return ordered === undefined ? normalizeBySchema(op, value) : plainResult(op, ordered);
}

/** {@link normalizeOpResult} through the op's result schema: the path for any result object. */
export function normalizeBySchema(op: OutboundOp, value: object): OutboundResultObject {
  const parsed = safeParseInEnglish(opResultSchemas[op], value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = jsonPath(issue?.path ?? []);
    return failureResult(
      `${op}: the platform adapter returned an invalid result (${issue?.message} at ${where})`,
    );
  }
  const result = plainResult(op, parsed.data);
  delete result['ambiguous'];
  return result;
}

/** A fresh copy of the checked result as plain JSON data, or the failure saying why it is not JSON. */
function plainResult(op: OutboundOp, checked: object): Record<string, unknown> {
  const copy = copyJsonValue(checked);
  if (copy.ok) return copy.value as Record<string, unknown>;
  return failureResult(
    `${op}: the platform adapter returned a result that is not JSON (${copy.refusal.message})`,
  );
}

/** A key of a result schema and the values it takes (all optional but `success`). */
type ResultKey = readonly [key: string, accepts: (value: unknown) => boolean];

const isBoolean = (value: unknown) => typeof value === 'boolean';
const isString = (value: unknown) => typeof value === 'string';
const isStringOrNull = (value: unknown) => value === null || typeof value === 'string';
const isAnything = () => true;

/** The keys every result schema starts with, in its order (`success` is required). */
const BASE_KEYS: readonly ResultKey[] = [
  ['success', isBoolean],
  ['error', isString],
  ['code', isString],
  ['raw_response', isAnything],
  ['ambiguous', isBoolean],
];
const MESSAGE_KEYS: readonly ResultKey[] = [...BASE_KEYS, ['message_id', isStringOrNull]];
const THREAD_KEYS: readonly ResultKey[] = [
  ...BASE_KEYS,
  ['thread_id', isStringOrNull],
  ['message_id', isStringOrNull],
];

/** The keys of each op's result schema; `get_chat_info`, whose keys are nested, is left to its schema. */
const RESULT_KEYS: { readonly [Op in OutboundOp]?: readonly ResultKey[] } = {
  send: MESSAGE_KEYS,
  edit: MESSAGE_KEYS,
  typing: BASE_KEYS,
  follow_up: MESSAGE_KEYS,
  send_media: MESSAGE_KEYS,
  prompt: MESSAGE_KEYS,
  react: BASE_KEYS,
  thread_create: THREAD_KEYS,
  thread_rename: BASE_KEYS,
};

/**
 * A hand-written check of a result against its op's schema for a plain object whose own values are
 * never `undefined`: the result as the schema writes it (its keys first, in its order, then the
 * others; `ambiguous` left out), or `undefined` when the result is anything else, and the schema
 * decides. `op-result.test.ts` checks that both give the same answer.
 */
export function orderedResultFast(op: OutboundOp, value: Record<string, unknown>): object | undefined {
  const keys = RESULT_KEYS[op];
  if (keys === undefined || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  if (Object.hasOwn(value, '__proto__') || !Object.hasOwn(value, 'success')) return undefined;
  const ordered: Record<string, unknown> = {};
  for (const [key, accepts] of keys) {
    if (!Object.hasOwn(value, key)) continue;
    const item = value[key];
    if (item === undefined || !accepts(item)) return undefined;
    if (key !== 'ambiguous') ordered[key] = item;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key) || Object.hasOwn(ordered, key) || key === 'ambiguous') continue;
    const item = value[key];
    if (item === undefined) return undefined;
    ordered[key] = item;
  }
  return ordered;
}
