import { z } from 'zod';
import { type OutboundAction, opActionSchemas } from './actions.js';
import { isOutboundOp } from './ops.js';

/**
 * The `action` of an `outbound` frame: a known op is checked against its schema (issues point into
 * `$.action`); any other `op` becomes an {@link UnknownAction} that keeps the object whole.
 */
export const outboundActionFieldSchema: z.ZodType<OutboundAction, Record<string, unknown>> = z
  .custom<Record<string, unknown>>(isRecord, { message: 'expected an object' })
  .transform((raw, ctx): OutboundAction => {
    const op = raw['op'];
    if (!isOutboundOp(op)) return { op: 'unknown', rawOp: op, raw };
    const parsed = opActionSchemas[op].safeParse(raw);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: issue.path } as never);
    return z.NEVER;
  });

/** A non-null, non-array object (a cheaper check than `z.record`, which visits every key). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
