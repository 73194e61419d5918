import { describeType } from '@agentwire/internal';
import * as z from 'zod/mini';
import { RelayError, type RelayErrorCode } from './errors.js';
import { copyJsonValue, type JsonValue, type JsonValueCopy } from './json.js';
import { parsePythonJson, pythonIntOf, pythonJsonDumps } from './python.js';

/**
 * The length of `text` as the gateway's adapter measures it against `max_message_length`: UTF-16 code
 * units when `len_unit` is exactly `"utf16"`, Unicode code points (Python's `len`) for anything else,
 * `"chars"` and unknown values included. (JavaScript's `string.length` is the `utf16` measure.)
 *
 * Two inputs the gateway cannot measure at all get a number here: under `"utf16"` a lone surrogate
 * counts as one code unit (the gateway's UTF-16 encoding raises on it), and a `len_unit` that is a
 * JSON array or object counts code points (the gateway's table lookup raises on an unhashable key,
 * for every message).
 *
 * @example
 * descriptorMessageLength({ ...descriptor, len_unit: 'chars' }, '👋 hi'); // 4
 * descriptorMessageLength({ ...descriptor, len_unit: 'utf16' }, '👋 hi'); // 5
 */
export function descriptorMessageLength(
  descriptor: Pick<CapabilityDescriptor, 'len_unit'>,
  text: string,
): number {
  if ((descriptor.len_unit as unknown) === 'utf16') return text.length;
  let codePoints = 0;
  for (const _ of text) codePoints += 1;
  return codePoints;
}

/**
 * Whether the gateway's adapter sends code blocks to this platform: `markdown_dialect not in ("",
 * "plain")` — so any other value, `null` or a non-string included, means yes.
 */
export function descriptorSupportsCodeBlocks(
  descriptor: Pick<CapabilityDescriptor, 'markdown_dialect'>,
): boolean {
  const dialect = descriptor.markdown_dialect as unknown;
  return dialect !== '' && dialect !== 'plain';
}

/** The contract version this SDK implements. */
export const CONTRACT_VERSION = 1;

/** The nine fields without a default, in the order the gateway's dataclass declares them. */
export const REQUIRED_DESCRIPTOR_FIELDS = [
  'contract_version',
  'platform',
  'label',
  'max_message_length',
  'supports_draft_streaming',
  'supports_edit',
  'supports_threads',
  'markdown_dialect',
  'len_unit',
] as const;

/** The optional fields and their defaults, in declaration order; the last two exist on newer gateways only. */
export const OPTIONAL_DESCRIPTOR_DEFAULTS = {
  emoji: '\u{1F50C}',
  platform_hint: '',
  pii_safe: false,
  supports_context: false,
  supported_ops: [] as readonly string[],
  supports_inchannel_continuable: false,
  supports_block_formatting: false,
} as const;

/** Every descriptor field, in declaration order: the key order of `descriptorToWire`. */
export const DESCRIPTOR_FIELDS = /* @__PURE__ */ (() =>
  [
    ...REQUIRED_DESCRIPTOR_FIELDS,
    ...(Object.keys(OPTIONAL_DESCRIPTOR_DEFAULTS) as (keyof typeof OPTIONAL_DESCRIPTOR_DEFAULTS)[]),
  ] as const)();

/** The value the gateway substitutes for a `max_message_length` that is not a positive integer. */
export const DEFAULT_MAX_MESSAGE_LENGTH = 4096;

/** The ops a descriptor with an empty `supported_ops` supports. */
export const LEGACY_OPS: ReadonlySet<string> = /* @__PURE__ */ new Set([
  'send',
  'edit',
  'typing',
  'follow_up',
]);

/** What a connector states about one platform identity; optional fields default as on the gateway. */
export interface CreateDescriptorFields {
  /** Defaults to {@link CONTRACT_VERSION}. */
  readonly contract_version?: number;
  /** Lowercase platform name, the same one inbound events carry in `source.platform`. */
  readonly platform: string;
  readonly label: string;
  /** A positive integer; the gateway's own `0 → 4096` fallback is refused here as ambiguous. */
  readonly max_message_length: number;
  readonly supports_draft_streaming: boolean;
  readonly supports_edit: boolean;
  readonly supports_threads: boolean;
  /** `"plain"` or `""` turn code blocks off on the gateway; anything else turns them on. */
  readonly markdown_dialect: string;
  readonly len_unit: LengthUnit;
  readonly emoji?: string;
  readonly platform_hint?: string;
  readonly pii_safe?: boolean;
  readonly supports_context?: boolean;
  /** Ops beyond the legacy four must be listed; an empty list means the legacy four only. */
  readonly supported_ops?: readonly string[];
  readonly supports_inchannel_continuable?: boolean;
  readonly supports_block_formatting?: boolean;
}

const PLATFORM_NAME = /^[a-z][a-z0-9_]*$/;
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const BOOLEAN_FIELDS = new Set<string>([
  'supports_draft_streaming',
  'supports_edit',
  'supports_threads',
  'pii_safe',
  'supports_context',
  'supports_inchannel_continuable',
  'supports_block_formatting',
]);
const NON_EMPTY_STRING_FIELDS = new Set<string>(['platform', 'label', 'markdown_dialect', 'emoji']);
const KNOWN_FIELDS = /* @__PURE__ */ new Set<string>(DESCRIPTOR_FIELDS);

/**
 * Builds the descriptor a connector sends, refusing anything the gateway would misread or choke on:
 * a missing required field (kills the gateway's reader), a non-boolean flag (`"false"` is truthy in
 * Python), a `max_message_length` that is not a positive safe integer, an unknown `len_unit`, empty
 * or non-well-formed strings, a platform name that is not lowercase, and unknown keys (typos). Every
 * field is present in the result, in the gateway's declaration order, so the object can go on the
 * wire as is.
 *
 * @throws {RelayError} `descriptor_invalid_field`: naming the first offending field in `path`.
 * @example
 * const descriptor = createDescriptor({
 *   platform: 'discord', label: 'Discord', max_message_length: 2000,
 *   supports_draft_streaming: false, supports_edit: true, supports_threads: true,
 *   markdown_dialect: 'discord', len_unit: 'utf16', supported_ops: ['send', 'edit', 'typing', 'react'],
 * });
 */
export function createDescriptor(fields: CreateDescriptorFields): StrictCapabilityDescriptor {
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) {
    throw new RelayError('descriptor_invalid_field', 'descriptor fields must be an object');
  }
  const input = fields as unknown as Readonly<Record<string, unknown>>;
  for (const key of Object.keys(input)) {
    if (!KNOWN_FIELDS.has(key) && input[key] !== undefined) {
      throw new RelayError('descriptor_invalid_field', `unknown descriptor field ${JSON.stringify(key)}`, {
        path: key,
      });
    }
  }
  const result: Record<string, unknown> = {};
  for (const name of DESCRIPTOR_FIELDS) {
    let value = input[name];
    if (value === undefined) {
      if (name === 'contract_version') value = CONTRACT_VERSION;
      else if (name in OPTIONAL_DESCRIPTOR_DEFAULTS) {
        value = OPTIONAL_DESCRIPTOR_DEFAULTS[name as keyof typeof OPTIONAL_DESCRIPTOR_DEFAULTS];
      } else
        throw new RelayError('descriptor_invalid_field', `required descriptor field ${name} is missing`, {
          path: name,
        });
    }
    checkField(name, value);
    result[name] = name === 'supported_ops' ? Object.freeze([...(value as readonly string[])]) : value;
  }
  return Object.freeze(result) as unknown as StrictCapabilityDescriptor;
}

function checkField(name: string, value: unknown): void {
  const fail = (expected: string): never => {
    throw new RelayError('descriptor_invalid_field', `descriptor field ${name} must be ${expected}`, {
      path: name,
    });
  };
  if (BOOLEAN_FIELDS.has(name)) {
    if (typeof value !== 'boolean') fail('a boolean');
    return;
  }
  switch (name) {
    case 'contract_version':
      if (!Number.isSafeInteger(value) || (value as number) < 1) fail('a positive integer');
      return;
    case 'max_message_length':
      if (!Number.isSafeInteger(value) || (value as number) < 1) fail('a positive integer');
      return;
    case 'len_unit':
      if (value !== 'chars' && value !== 'utf16') fail('"chars" or "utf16"');
      return;
    case 'supported_ops':
      if (!Array.isArray(value)) fail('an array of op names');
      (value as unknown[]).forEach((op, i) => {
        if (typeof op !== 'string' || op === '' || LONE_SURROGATE.test(op)) {
          throw new RelayError(
            'descriptor_invalid_field',
            `supported_ops[${i}] must be a non-empty op name`,
            { path: name },
          );
        }
      });
      return;
    default:
      if (typeof value !== 'string' || LONE_SURROGATE.test(value)) fail('a well-formed string');
      if (NON_EMPTY_STRING_FIELDS.has(name) && value === '') fail('a non-empty string');
      if (name === 'platform' && !PLATFORM_NAME.test(value as string)) fail('a lowercase platform name');
  }
}

/**
 * The `RelayError` codes `parseDescriptor`, `parseDescriptorValue` and `createDescriptor` throw:
 * - `descriptor_invalid_json`: the text is not JSON that Python's `json.loads` reads;
 * - `descriptor_not_object`: valid JSON but not an object (the gateway fails with `AttributeError`);
 * - `descriptor_missing_fields`: required fields are absent, `details.missing` (the gateway fails with
 *   `TypeError` and its read loop ends);
 * - `descriptor_max_message_length_overflow`: `max_message_length` is an infinite number (Python's
 *   `int()` raises `OverflowError`, uncaught);
 * - `descriptor_not_json`: a value JSON cannot carry (a function, `undefined` in an array, a bigint, a
 *   class instance, a cycle);
 * - `descriptor_invalid_field`: `createDescriptor` refused a field the gateway would misread or choke on.
 */
export const DESCRIPTOR_ERROR_CODES: ReadonlySet<RelayErrorCode> = new Set<RelayErrorCode>([
  'descriptor_invalid_json',
  'descriptor_not_object',
  'descriptor_missing_fields',
  'descriptor_max_message_length_overflow',
  'descriptor_not_json',
  'descriptor_invalid_field',
]);

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
    throw new RelayError(
      'descriptor_not_object',
      `descriptor must be a JSON object, got ${describeType(data)}`,
    );
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

/**
 * A capability descriptor as the gateway holds it after `CapabilityDescriptor.from_json`.
 *
 * The gateway normalises only `max_message_length`, `supported_ops` and the defaults of the optional
 * fields; every other value is kept exactly as sent (`supports_edit: "false"` stays a string). The
 * fields therefore carry {@link JsonValue}; a descriptor built with `createDescriptor` narrows them
 * to {@link StrictCapabilityDescriptor}.
 */
export interface CapabilityDescriptor {
  readonly contract_version: JsonValue;
  readonly platform: JsonValue;
  readonly label: JsonValue;
  /** Never ≤ 0 after parsing; a non-number is kept when Python's `int()` reads it as positive. */
  readonly max_message_length: JsonValue;
  readonly supports_draft_streaming: JsonValue;
  readonly supports_edit: JsonValue;
  readonly supports_threads: JsonValue;
  readonly markdown_dialect: JsonValue;
  readonly len_unit: JsonValue;
  readonly emoji: JsonValue;
  readonly platform_hint: JsonValue;
  readonly pii_safe: JsonValue;
  readonly supports_context: JsonValue;
  readonly supported_ops: readonly string[];
  /** Newer gateways only; default `false`. */
  readonly supports_inchannel_continuable: JsonValue;
  /** Newer gateways only; default `false`. When true the gateway may add `metadata.format_hints`. */
  readonly supports_block_formatting: JsonValue;
}

/** The length unit a descriptor advertises: Python `len` (code points) or UTF-16 code units. */
export type LengthUnit = 'chars' | 'utf16';

/** A descriptor whose every field has the JSON type the contract names: what a connector should send. */
export interface StrictCapabilityDescriptor extends CapabilityDescriptor {
  readonly contract_version: number;
  readonly platform: string;
  readonly label: string;
  readonly max_message_length: number;
  readonly supports_draft_streaming: boolean;
  readonly supports_edit: boolean;
  readonly supports_threads: boolean;
  readonly markdown_dialect: string;
  readonly len_unit: LengthUnit;
  readonly emoji: string;
  readonly platform_hint: string;
  readonly pii_safe: boolean;
  readonly supports_context: boolean;
  readonly supported_ops: readonly string[];
  readonly supports_inchannel_continuable: boolean;
  readonly supports_block_formatting: boolean;
}

/**
 * Zod schema of the `descriptor` object of a `descriptor` frame: accepts exactly what the gateway's
 * `from_json` accepts and outputs the parsed {@link CapabilityDescriptor} (see `parseDescriptorValue`;
 * a string input is a JSON string, not text to parse).
 * A refusal is reported as one issue whose `params.code` is the `RelayError` code.
 */
export const capabilityDescriptorWireSchema: z.ZodMiniType<CapabilityDescriptor, unknown> =
  /* @__PURE__ */ z.pipe(
    /* @__PURE__ */ z.unknown(),
    /* @__PURE__ */ z.transform((input: unknown, ctx) => {
      try {
        return parseDescriptorValue(input);
      } catch (error) {
        if (!(error instanceof RelayError && DESCRIPTOR_ERROR_CODES.has(error.code))) throw error;
        ctx.issues.push({
          code: 'custom',
          message: error.message,
          input,
          path: error.path === '' ? [] : [error.path],
          params: { code: error.code },
        });
        return z.NEVER;
      }
    }),
  );

/**
 * Whether the gateway will send `op` to a connector with this descriptor (`supports_op`): an empty
 * `supported_ops` means the legacy set `send`, `edit`, `typing`, `follow_up`; otherwise exact,
 * case-sensitive membership.
 *
 * @example
 * descriptorSupportsOp(parseDescriptor(text), 'react'); // false unless 'react' is listed
 */
export function descriptorSupportsOp(descriptor: CapabilityDescriptor, op: string): boolean {
  const ops = descriptor.supported_ops;
  return ops.length === 0 ? LEGACY_OPS.has(op) : ops.includes(op);
}

/** The two optional fields only newer gateways declare (a baseline gateway drops them when parsing). */
const NEWER_FIELDS: ReadonlySet<string> = /* @__PURE__ */ new Set([
  'supports_inchannel_continuable',
  'supports_block_formatting',
]);

/** Options of {@link descriptorToJson}. */
export interface DescriptorToJsonOptions {
  /**
   * Also write the fields only newer gateways declare (`supports_inchannel_continuable`,
   * `supports_block_formatting`). Default `false`: the baseline gateway's fourteen fields.
   */
  readonly newerFields?: boolean;
}

/**
 * The descriptor as the gateway's `CapabilityDescriptor.to_json()` writes it:
 * `json.dumps(asdict(self), sort_keys=True, ensure_ascii=False)` — every field of the dataclass, keys
 * sorted, separators `", "` and `": "`, non-ASCII characters as they are, values exactly as parsed
 * (`max_message_length: "1200"` stays a string, `emoji: null` stays `null`).
 *
 * @throws {RelayError} `unencodable_frame`: a field holding something JSON cannot carry.
 * @example
 * descriptorToJson(parseDescriptor(text));
 * // '{"contract_version": 1, "emoji": "🔌", "label": "Discord", …}'
 */
export function descriptorToJson(
  descriptor: CapabilityDescriptor,
  options: DescriptorToJsonOptions = {},
): string {
  const fields: Record<string, unknown> = {};
  for (const name of DESCRIPTOR_FIELDS) {
    if (NEWER_FIELDS.has(name) && options.newerFields !== true) continue;
    const value = (descriptor as unknown as Record<string, unknown>)[name];
    fields[name] =
      value === undefined && Object.hasOwn(OPTIONAL_DESCRIPTOR_DEFAULTS, name)
        ? OPTIONAL_DESCRIPTOR_DEFAULTS[name as keyof typeof OPTIONAL_DESCRIPTOR_DEFAULTS]
        : value;
  }
  return pythonJsonDumps(fields, { ensureAscii: false, sortKeys: true });
}

/**
 * The descriptor as the `descriptor` object of a `descriptor` frame: every field, in the gateway's
 * declaration order, values unchanged. Parsing the result gives back an equal descriptor.
 */
export function descriptorToWire(descriptor: CapabilityDescriptor): { readonly [key: string]: JsonValue } {
  const wire: Record<string, JsonValue> = {};
  for (const name of DESCRIPTOR_FIELDS) wire[name] = descriptor[name];
  return wire;
}
