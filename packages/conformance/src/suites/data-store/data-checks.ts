import { CURATED_DATA_FIELDS, type PortableData, portableDataSchema } from '@agentwire/agent-connector';
import { assertTrue, fail } from '../../assert.js';
import { formatValue } from '../../format-value.js';
import { assertNoEmptyFields } from '../agent-connector/strict-values.js';

/**
 * Validates a `PortableData` item more strictly than `portableDataSchema` alone: string `id` and
 * `summary`, no curated field repeated in `metadata`, and no field present as `null` or `undefined`.
 */
export function assertPortableData(value: unknown, what: string): PortableData {
  assertNoEmptyFields(value, what);
  const parsed = portableDataSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    fail(
      `${what} is not valid PortableData (${issue?.path.join('.') || 'value'}: ${issue?.message})`,
      parsed.error,
    );
  }
  const metadata = parsed.data.metadata ?? {};
  const repeated = CURATED_DATA_FIELDS.filter((field) => Object.hasOwn(metadata, field));
  assertTrue(repeated.length === 0, `${what}.metadata repeats curated field(s) ${formatValue(repeated)}`);
  return parsed.data;
}

/** Fails unless `value` is an array; validates every item with {@link assertPortableData}. */
export function assertPortableDataList(value: unknown, what: string): PortableData[] {
  assertTrue(Array.isArray(value), `${what} must resolve to an array, got ${formatValue(value)}`);
  return (value as unknown[]).map((item, index) => assertPortableData(item, `${what}[${index}]`));
}
