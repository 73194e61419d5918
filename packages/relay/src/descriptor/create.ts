import { RelayError } from '../errors.js';
import { CONTRACT_VERSION, DESCRIPTOR_FIELDS, OPTIONAL_DESCRIPTOR_DEFAULTS } from './fields.js';
import type { LengthUnit, StrictCapabilityDescriptor } from './schema.js';

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
const KNOWN_FIELDS = new Set<string>(DESCRIPTOR_FIELDS);

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
