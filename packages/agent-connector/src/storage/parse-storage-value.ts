import type { z } from 'zod';
import { storageValidationError } from './errors.js';

/** Writes a zod issue path the way the error messages show it: `filters.status[1]`. */
function formatPath(label: string, path: readonly PropertyKey[]): string {
  let text = label;
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

/**
 * Checks a value against one of the storage schemas and returns the parsed value, or throws a typed error
 * naming the first field that failed. Stores call it on their inputs (`update_status`'s status, `query`'s
 * filter, `write`'s entry); suites call it on what a store returns.
 *
 * @param schema - the rule, such as `skillStatusSchema` or `dataWriteSchema`.
 * @param value - the value to check; never trusted.
 * @param label - what the value is, prefixed to the error path (`'status'`, `'entry'`).
 * @throws {AgentConnectorError} `storage_validation`: when the value breaks the schema.
 * @example
 * const status = parseStorageValue(skillStatusSchema, input, 'status'); // 'Draft' | 'Approved' | 'Disabled'
 */
export function parseStorageValue<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  label = '',
): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  const message = issue?.message ?? 'invalid value';
  throw storageValidationError(message, formatPath(label, issue?.path ?? []), result.error);
}
