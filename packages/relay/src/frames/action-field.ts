import * as z from 'zod/mini';
import { safeParseInEnglish } from '../internal/english-issues.js';
import { type OutboundAction, opActionSchemas } from './actions.js';
import { isOutboundOp } from './ops.js';

/**
 * The `action` of an `outbound` frame: a known op is checked against its schema (issues point into
 * `$.action`); any other `op` becomes an {@link UnknownAction} that keeps the object whole.
 */
export const outboundActionFieldSchema: z.ZodMiniType<OutboundAction, Record<string, unknown>> = z.pipe(
  z.custom<Record<string, unknown>>(isRecord, { error: 'expected an object' }),
  z.transform((raw: Record<string, unknown>, ctx): OutboundAction => {
    const op = raw['op'];
    if (!isOutboundOp(op)) return { op: 'unknown', rawOp: op, raw };
    const parsed = safeParseInEnglish(opActionSchemas[op], raw);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, input: raw } as z.core.$ZodRawIssue);
    return z.NEVER;
  }),
);

/** A non-null, non-array object (a cheaper check than `z.record`, which visits every key). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
