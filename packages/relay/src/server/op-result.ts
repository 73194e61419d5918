import { type OutboundOp, type OutboundResultObject, opResultSchemas } from '../frames/index.js';
import { safeParseInEnglish } from '../internal/english-issues.js';
import { jsonPath, NotJsonValueError, toJsonValue } from '../json/index.js';

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
  const parsed = safeParseInEnglish(opResultSchemas[op], value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = jsonPath(issue?.path ?? []);
    return failureResult(
      `${op}: the platform adapter returned an invalid result (${issue?.message} at ${where})`,
    );
  }
  let plain: unknown;
  try {
    plain = toJsonValue(parsed.data);
  } catch (error) {
    if (!(error instanceof NotJsonValueError)) throw error;
    return failureResult(`${op}: the platform adapter returned a result that is not JSON (${error.message})`);
  }
  const result = { ...(plain as OutboundResultObject) };
  delete result['ambiguous'];
  return result;
}
