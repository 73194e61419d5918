import { z } from 'zod';
import { storageValidationError } from './errors.js';

/**
 * What a store's `manifest()` resolves to: the substrate's dynamic description (`manifest`) and a token
 * (`capabilities_version`) the store bumps when that description's content changes, so callers can cache
 * it per token.
 */
export interface ManifestInfo<Manifest> {
  capabilities_version: string;
  manifest: Manifest;
}

/** Builds the schema of a {@link ManifestInfo} around one manifest schema. */
export function manifestInfoSchema<Manifest extends z.ZodType>(manifest: Manifest) {
  return z.object({ capabilities_version: z.string(), manifest });
}

/** `contract_version` of a static capability declaration: `major.minor.patch` digits, such as `'1.0.0'`. */
export const contractVersionSchema = z.string().regex(/^\d+\.\d+\.\d+$/, 'must be major.minor.patch');

/**
 * The first value `unixSecondsSchema` refuses: 10^11 seconds is the year 5138, while any unix-ms
 * timestamp since March 1973 is above it — so a millisecond value handed to a seconds field is caught.
 */
export const UNIX_SECONDS_LIMIT = 1e11;

/**
 * A storage-side timestamp: unix **seconds** (`created_at`, `updated_at`, `status_changed_at`,
 * `changed_at`, `since`, `expires_at`), unlike the agent side, whose timestamps are milliseconds.
 * A finite number in `[0, 1e11)`; stores write whole seconds (see {@link unixSeconds}).
 */
export const unixSecondsSchema = z
  .number()
  .min(0)
  .lt(UNIX_SECONDS_LIMIT, 'must be unix seconds (a value this large is milliseconds)');

/**
 * The whole unix seconds of an epoch-millisecond time, rounded down: the timestamp a store writes.
 *
 * @param epochMs - milliseconds since the epoch; the current time when omitted.
 * @throws {AgentConnectorError} `storage_validation`: when `epochMs` is not a finite number.
 * @example
 * unixSeconds(1_700_000_000_999); // 1700000000
 */
export function unixSeconds(epochMs: number = Date.now()): number {
  if (typeof epochMs !== 'number' || !Number.isFinite(epochMs)) {
    throw storageValidationError('must be a finite number of milliseconds', 'epochMs');
  }
  return Math.floor(epochMs / 1000);
}

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
