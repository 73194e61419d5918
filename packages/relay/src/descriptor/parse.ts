import { RelayError } from '../errors.js';
import { copyJsonValue, type JsonValue, type JsonValueCopy } from '../json/index.js';
import { parsePythonJson, pythonIntOf } from '../python/index.js';
import {
  DEFAULT_MAX_MESSAGE_LENGTH,
  DESCRIPTOR_FIELDS,
  OPTIONAL_DESCRIPTOR_DEFAULTS,
  REQUIRED_DESCRIPTOR_FIELDS,
} from './fields.js';
import type { CapabilityDescriptor } from './schema.js';

/**
 * Parses a capability descriptor with the gateway's exact `CapabilityDescriptor.from_json` rules:
 * unknown keys are dropped; optional fields get their defaults; `max_message_length` that Python's
 * `int()` cannot read, or reads as ≤ 0, becomes 4096 (other values are kept as sent, `"1200"` stays a
 * string); `supported_ops` keeps only non-empty strings (anything but a list becomes `[]`). No other
 * value is type-checked, so this accepts exactly what the gateway accepts.
 *
 * A string is read as JSON text (Python's dialect: `NaN` and `Infinity` allowed); any other input is
 * taken as the already-decoded object, as the gateway does for the `descriptor` of a frame. An
 * `undefined` property counts as absent.
 *
 * @throws {RelayError} `descriptor_invalid_json`: text that is not JSON.
 * @throws {RelayError} `descriptor_not_json`: an object holding values JSON cannot carry.
 * @throws {RelayError} `descriptor_not_object`: JSON that is not an object.
 * @throws {RelayError} `descriptor_max_message_length_overflow`: an infinite `max_message_length` (checked
 * first, as the gateway does).
 * @throws {RelayError} `descriptor_missing_fields`: required fields absent.
 * @example
 * const d = parseDescriptor('{"contract_version":1,"platform":"discord","label":"Discord",' +
 *   '"max_message_length":0,"supports_draft_streaming":false,"supports_edit":true,' +
 *   '"supports_threads":true,"markdown_dialect":"discord","len_unit":"chars","extra":1}');
 * d.max_message_length; // 4096
 * d.emoji; // '🔌'
 */
export function parseDescriptor(input: string | unknown): CapabilityDescriptor {
  return typeof input === 'string' ? descriptorFromJson(readJsonText(input)) : parseDescriptorValue(input);
}

/**
 * {@link parseDescriptor} for a value that is already decoded: a string is a JSON string value here
 * (and refused as not an object), as in the `descriptor` key of a frame.
 */
export function parseDescriptorValue(value: unknown): CapabilityDescriptor {
  return descriptorFromJson(toDescriptorJson(value));
}

function descriptorFromJson(data: JsonValue): CapabilityDescriptor {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new RelayError('descriptor_not_object', `descriptor must be a JSON object, got ${describe(data)}`);
  }
  const fields = data as { readonly [key: string]: JsonValue };
  // The gateway normalises max_message_length before it checks for missing fields, so an infinite
  // length is an overflow even when required fields are missing too.
  const maxMessageLength = Object.hasOwn(fields, 'max_message_length')
    ? normaliseMaxMessageLength(fields['max_message_length'] as JsonValue)
    : undefined;
  const missing = REQUIRED_DESCRIPTOR_FIELDS.filter((name) => !Object.hasOwn(fields, name));
  if (missing.length > 0) {
    throw new RelayError(
      'descriptor_missing_fields',
      `descriptor is missing required field(s): ${missing.join(', ')}`,
      {
        path: missing[0] ?? '',
        details: { missing },
      },
    );
  }

  const result: Record<string, JsonValue> = {};
  for (const name of DESCRIPTOR_FIELDS) {
    const value = Object.hasOwn(fields, name)
      ? (fields[name] as JsonValue)
      : (OPTIONAL_DESCRIPTOR_DEFAULTS[name as keyof typeof OPTIONAL_DESCRIPTOR_DEFAULTS] as JsonValue);
    result[name] = value;
  }
  result['max_message_length'] = maxMessageLength as JsonValue;
  result['supported_ops'] = normaliseSupportedOps(result['supported_ops'] as JsonValue);
  return result as unknown as CapabilityDescriptor;
}

function readJsonText(text: string): JsonValue {
  try {
    return parsePythonJson(text);
  } catch (error) {
    throw new RelayError('descriptor_invalid_json', 'descriptor text is not valid JSON', { cause: error });
  }
}

function toDescriptorJson(input: unknown): JsonValue {
  let copy: JsonValueCopy;
  try {
    copy = copyJsonValue(input);
  } catch (error) {
    // A getter that throws, or a value nested too deep for the stack.
    throw new RelayError(
      'descriptor_not_json',
      `descriptor holds a value JSON cannot carry${error instanceof Error ? `: ${error.message}` : ''}`,
      { cause: error },
    );
  }
  if (copy.ok) return copy.value;
  throw new RelayError(
    'descriptor_not_json',
    `descriptor holds a value JSON cannot carry: ${copy.refusal.message}`,
    {
      path: copy.refusal.path,
    },
  );
}

function normaliseMaxMessageLength(value: JsonValue): JsonValue {
  const outcome = pythonIntOf(value);
  if (outcome.kind === 'overflow') {
    throw new RelayError('descriptor_max_message_length_overflow', 'max_message_length is infinite', {
      path: 'max_message_length',
    });
  }
  return outcome.kind === 'int' && outcome.sign > 0 ? value : DEFAULT_MAX_MESSAGE_LENGTH;
}

function normaliseSupportedOps(value: JsonValue): readonly string[] {
  if (!Array.isArray(value)) return [];
  return (value as readonly JsonValue[]).filter((op): op is string => typeof op === 'string' && op !== '');
}

function describe(value: JsonValue): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}
